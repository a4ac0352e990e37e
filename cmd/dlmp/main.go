// Command dlmp is the dlmp server and its tools, one binary with subcommands:
//
//	dlmp serve     run the server (UDP game port, world, Lua gamemode, admin HTTP)
//	dlmp bot       run headless players against a server
//	dlmp decode    print one packet's bytes as JSON
//	dlmp encode    write one packet's bytes from JSON
//	dlmp mapcheck  load map files and report what they hold and their problems
//
// Run "dlmp help" for the list.
package main

import (
	"fmt"
	"io"
	"os"
)

// command is one subcommand: it gets its arguments and the standard streams
// and returns the process exit status.
type command struct {
	name, summary string
	run           func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

// commands is filled by each subcommand's file in its init function.
var commands []command

func register(c command) { commands = append(commands, c) }

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(stderr)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	for _, c := range commands {
		if c.name == args[0] {
			return c.run(args[1:], stdin, stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "dlmp: unknown command %q\n", args[0])
	usage(stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: dlmp COMMAND [ARGS]\n\ncommands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
}
