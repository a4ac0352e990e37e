// Package rtthread runs a goroutine's OS thread in the kernel's real-time
// class: the server's tick (decision 0255) and the transport's writer
// (decision 0426) take a core as soon as they are runnable. Linux only;
// elsewhere Lock and Policy return an error.
package rtthread
