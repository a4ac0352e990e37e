//go:build !linux

package transport

func threadUsage() usage { return usage{} }

func stealMs() int64 { return 0 }
