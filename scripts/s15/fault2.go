package main

import (
	"fmt"
	"syscall"
	"time"
)

func main() {
	const n = 16 << 20
	b, _ := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	t := time.Now()
	for i := 0; i < n; i += 4096 {
		b[i] = 1
	}
	fmt.Printf("%s fresh mmap: %.2f us/page\n", time.Now().Format("15:04:05"), float64(time.Since(t).Microseconds())/float64(n/4096))
}
