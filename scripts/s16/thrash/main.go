// thrash: random reads and writes over MB megabytes until killed (a memory-hungry neighbour).
package main

import (
	"os"
	"strconv"
)

func main() {
	mb, _ := strconv.Atoi(os.Args[1])
	n := mb << 20 / 8
	a := make([]uint64, n)
	x := uint64(88172645463325252)
	for {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		i := x % uint64(n)
		a[i] += x
	}
}
