// mprobe: times a compute loop and random reads over working sets of 1, 16 and 256 MB.
package main

import (
	"fmt"
	"os"
	"time"
)

func chase(mb int, steps int) time.Duration {
	n := mb << 20 / 8
	a := make([]uint64, n)
	// a random cycle (Sattolo) so each read depends on the last
	x := uint64(88172645463325252)
	idx := make([]uint32, n)
	for i := range idx {
		idx[i] = uint32(i)
	}
	for i := n - 1; i > 0; i-- {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		j := int(x % uint64(i))
		idx[i], idx[j] = idx[j], idx[i]
	}
	for i := 0; i < n; i++ {
		a[idx[i]] = uint64(idx[(i+1)%n])
	}
	p := uint64(0)
	for i := 0; i < steps/4; i++ { // warm
		p = a[p]
	}
	t := time.Now()
	for i := 0; i < steps; i++ {
		p = a[p]
	}
	d := time.Since(t)
	if p == 1<<62 {
		fmt.Println()
	}
	return d / time.Duration(steps)
}

func compute() time.Duration {
	x := uint64(1)
	t := time.Now()
	for i := 0; i < 50_000_000; i++ {
		x = x*6364136223846793005 + 1442695040888963407
		x ^= x >> 29
	}
	d := time.Since(t)
	if x == 0 {
		fmt.Println()
	}
	return d / 50 // per million steps... ns per 1M
}

func main() {
	c := compute()
	l2 := chase(1, 5_000_000)
	l3 := chase(16, 3_000_000)
	mem := chase(256, 2_000_000)
	fmt.Fprintf(os.Stdout, "%s compute %.2fms/1M  chase1MB %.1fns  chase16MB %.1fns  chase256MB %.1fns\n",
		time.Now().Format("15:04:05"), float64(c.Microseconds())/1000, float64(l2.Nanoseconds()), float64(l3.Nanoseconds()), float64(mem.Nanoseconds()))
}
