package main

import (
	"fmt"
	"io"

	"dlmp/internal/packetjson"
	"dlmp/internal/wire"
)

func init() {
	register(command{"encode", "write one packet's bytes from JSON (sender's checks)", runEncode})
}

// runEncode is "dlmp encode [FILE]": it reads one JSON object from FILE or
// stdin (the format of dlmp decode, see internal/packetjson), applies the
// sending side's rules (wire.Marshal) and writes the packet's bytes to
// stdout. Invalid JSON or a packet the sender would refuse prints the reason
// on stderr and nothing on stdout, and exits 1.
func runEncode(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	in, code := openInput("encode", args, stdin, stderr)
	if in == nil {
		return code
	}
	p, err := packetjson.Unmarshal(in)
	if err != nil {
		fmt.Fprintf(stderr, "dlmp encode: %v\n", err)
		return 1
	}
	b, err := wire.Marshal(p)
	if err != nil {
		fmt.Fprintf(stderr, "dlmp encode: %v\n", err)
		return 1
	}
	if _, err := stdout.Write(b); err != nil {
		fmt.Fprintf(stderr, "dlmp encode: %v\n", err)
		return 1
	}
	return 0
}
