package main

import "fmt"

func main() {
	x := uint64(1)
	for i := 0; ; i++ {
		x = x*6364136223846793005 + 1442695040888963407
		if i == -1 {
			fmt.Println(x)
		}
	}
}
