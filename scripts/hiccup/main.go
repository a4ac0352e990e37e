// Command hiccup measures how the machine pauses a thread that never
// waits: it spins reading the wall clock and the thread's CPU clock for a
// while and reports the gaps between two reads, and which of them the
// thread's own CPU clock counted as running. On the load run's VM those
// are pauses of the host that the guest cannot tell from our work
// (decision 0427). Run it on an otherwise idle machine:
//
//	go run ./scripts/hiccup -seconds 300
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"time"

	"dlmp/internal/hoststeal"
	"dlmp/internal/threadcpu"
)

func main() {
	secs := flag.Int("seconds", 60, "how long to spin")
	flag.Parse()
	runtime.LockOSThread()
	if _, ok := threadcpu.Now(); !ok {
		fmt.Fprintln(os.Stderr, "hiccup: the thread's CPU clock cannot be read here")
		os.Exit(1)
	}
	steal0, stealOK := hoststeal.Total()
	g := newGaps()
	start := time.Now()
	end := start.Add(time.Duration(*secs) * time.Second)
	last, lastCPU := start, threadcpu.Spent()
	for last.Before(end) {
		now, c := time.Now(), threadcpu.Spent()
		g.add(now.Sub(last), c-lastCPU)
		last, lastCPU = now, c
	}
	fmt.Printf("%d s spinning\n%v", *secs, g)
	if steal1, ok := hoststeal.Total(); ok && stealOK {
		fmt.Printf("the host's steal meanwhile (both vCPUs, /proc/stat): %v\n", steal1-steal0)
	}
}
