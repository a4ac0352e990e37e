//go:build !linux

package transport

func threadUsage() usage { return usage{} }
