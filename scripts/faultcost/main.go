package main

import (
	"fmt"
	"syscall"
	"time"
)

func main() {
	for round := 0; round < 3; round++ {
		const n = 64 << 20
		b, _ := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
		t := time.Now()
		for i := 0; i < n; i += 4096 {
			b[i] = 1
		}
		d := time.Since(t)
		fmt.Printf("fresh mmap: %.2f us/page\n", float64(d.Microseconds())/float64(n/4096))
		syscall.Madvise(b, 4) // MADV_DONTNEED
		t = time.Now()
		for i := 0; i < n; i += 4096 {
			b[i] = 1
		}
		d = time.Since(t)
		fmt.Printf("after DONTNEED: %.2f us/page\n", float64(d.Microseconds())/float64(n/4096))
		syscall.Munmap(b)
	}
}
