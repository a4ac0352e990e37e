package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"dlmp/internal/packetjson"
	"dlmp/internal/wire"
)

func init() {
	register(command{"decode", "print one packet's bytes as JSON (receiver's checks)", runDecode})
}

// maxInput bounds what the packet tools read: far more than any datagram.
const maxInput = 1 << 20

// runDecode is "dlmp decode [FILE]": it reads exactly one packet from FILE or
// stdin, applies the receiving side's rules (wire.Unmarshal) and prints the
// packet as one JSON object. A rejected packet prints its reason on stderr
// and nothing on stdout, and exits 1.
func runDecode(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	in, code := openInput("decode", args, stdin, stderr)
	if in == nil {
		return code
	}
	p, err := wire.Unmarshal(in)
	if err != nil {
		fmt.Fprintf(stderr, "dlmp decode: %v\n", err)
		return 1
	}
	js, err := packetjson.Marshal(p)
	if err != nil {
		fmt.Fprintf(stderr, "dlmp decode: %v\n", err)
		return 1
	}
	var out bytes.Buffer
	if err := json.Indent(&out, js, "", "  "); err != nil {
		fmt.Fprintf(stderr, "dlmp decode: %s: the JSON written is invalid: %v\n", p.Name(), err)
		return 1
	}
	out.WriteByte('\n')
	if _, err := stdout.Write(out.Bytes()); err != nil {
		fmt.Fprintf(stderr, "dlmp decode: %v\n", err)
		return 1
	}
	return 0
}

// openInput reads the whole input of a packet tool: the file named by the one
// optional argument ("-" or none: stdin). On failure it reports on stderr and
// returns nil with the exit status: 0 after -h, 2 for a usage error, 1
// otherwise.
func openInput(tool string, args []string, stdin io.Reader, stderr io.Writer) ([]byte, int) {
	var r io.Reader
	switch {
	case len(args) > 1:
		fmt.Fprintf(stderr, "usage: dlmp %s [FILE]\n", tool)
		return nil, 2
	case len(args) == 1 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help"):
		fmt.Fprintf(stderr, "usage: dlmp %s [FILE]\n\nFILE, or stdin when none or \"-\". The JSON format is described in\ninternal/packetjson and docs/decisions/0030-packet-json.md.\n", tool)
		return nil, 0
	case len(args) == 1 && len(args[0]) > 1 && args[0][0] == '-':
		fmt.Fprintf(stderr, "dlmp %s: unknown flag %s\nusage: dlmp %s [FILE]\n", tool, args[0], tool)
		return nil, 2
	case len(args) == 0 || args[0] == "-":
		r = stdin
	default:
		f, err := os.Open(args[0])
		if err != nil {
			fmt.Fprintf(stderr, "dlmp %s: %v\n", tool, err)
			return nil, 1
		}
		defer f.Close()
		r = f
	}
	in, err := io.ReadAll(io.LimitReader(r, maxInput+1))
	if err != nil {
		fmt.Fprintf(stderr, "dlmp %s: %v\n", tool, err)
		return nil, 1
	}
	if len(in) > maxInput {
		fmt.Fprintf(stderr, "dlmp %s: input longer than %d bytes\n", tool, maxInput)
		return nil, 1
	}
	return in, 0
}
