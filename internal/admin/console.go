package admin

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
)

// Console runs the operator's commands. The server implements it; the same
// Console serves POST /console and the server's stdin (ReadConsole), so its
// methods are called from several goroutines. Each writes its human-readable
// output to w and returns an error when the command failed.
type Console interface {
	// Status prints the server's state: players, tick, uptime.
	Status(w io.Writer) error
	// Kick disconnects the player with the id (reason "kicked").
	Kick(id uint32, w io.Writer) error
	// NetworkDump prints the network-vars dump (network-vars.md,
	// cityrp_network_dump).
	NetworkDump(w io.Writer) error
	// NetworkSelftest runs the network-vars self-test and prints its
	// summary (cityrp_network_selftest).
	NetworkSelftest(w io.Writer) error
	// Reload reloads the gamemode.
	Reload(w io.Writer) error
}

// ErrUsage marks a command line that names no command or has wrong
// arguments; nothing was run.
var ErrUsage = errors.New("usage")

// MaxCommandLine is the longest command line, in bytes.
const MaxCommandLine = 4096

// commands are the console's commands and their one-line help.
var commands = []struct{ name, args, help string }{
	{"help", "", "list the commands"},
	{"status", "", "players, tick and uptime"},
	{"kick", "ID", "disconnect the player with the id"},
	{"network_dump", "", "the network-vars registry, handshakes, resync queues and debounce windows"},
	{"network_selftest", "", "re-run the network-vars self-test and print pass/fail"},
	{"reload", "", "reload the gamemode"},
}

// Exec runs one command line on c and writes its output to w. An empty line
// does nothing. A line that is not a command, or has wrong arguments,
// returns an error wrapping ErrUsage.
func Exec(c Console, line string, w io.Writer) error {
	fields := strings.Fields(line)
	if len(fields) == 0 {
		return nil
	}
	name, args := fields[0], fields[1:]
	noArgs := func() error {
		if len(args) != 0 {
			return fmt.Errorf("%w: %s takes no arguments, got %d", ErrUsage, name, len(args))
		}
		return nil
	}
	switch name {
	case "help":
		for _, cmd := range commands {
			fmt.Fprintf(w, "%-18s %s\n", strings.TrimSpace(cmd.name+" "+cmd.args), cmd.help)
		}
		return nil
	case "status":
		if err := noArgs(); err != nil {
			return err
		}
		return c.Status(w)
	case "kick":
		if len(args) != 1 {
			return fmt.Errorf("%w: kick takes one argument, the player id, got %d", ErrUsage, len(args))
		}
		id, err := strconv.ParseUint(args[0], 10, 32)
		if err != nil {
			return fmt.Errorf("%w: kick: ID must be a player id from 0 to 4294967295, got %q", ErrUsage, args[0])
		}
		return c.Kick(uint32(id), w)
	case "network_dump":
		if err := noArgs(); err != nil {
			return err
		}
		return c.NetworkDump(w)
	case "network_selftest":
		if err := noArgs(); err != nil {
			return err
		}
		return c.NetworkSelftest(w)
	case "reload":
		if err := noArgs(); err != nil {
			return err
		}
		return c.Reload(w)
	}
	return fmt.Errorf("%w: unknown command %q (try help)", ErrUsage, name)
}

// ReadConsole runs every line of r as a command on c, writing the output and
// any error ("error: ...") to w, until r ends. Blank lines and lines starting
// with # are skipped. It returns r's error, or nil at the end of input; a
// line longer than MaxCommandLine is an error.
func ReadConsole(r io.Reader, c Console, w io.Writer) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 256), MaxCommandLine)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if err := Exec(c, line, w); err != nil {
			fmt.Fprintf(w, "error: %v\n", err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("admin: console: %w", err)
	}
	return nil
}

// consoleHTTP runs the command line in the request body. It answers 200 with
// the output, 400 for a usage error, 413 for a line past MaxCommandLine and
// 500 with the output so far when the command failed.
func (s *Server) consoleHTTP(w http.ResponseWriter, r *http.Request) {
	if s.con == nil {
		http.Error(w, "console: no console wired", http.StatusServiceUnavailable)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxCommandLine))
	if err != nil {
		http.Error(w, fmt.Sprintf("console: command line longer than %d bytes", MaxCommandLine), http.StatusRequestEntityTooLarge)
		return
	}
	line := strings.TrimSpace(string(body))
	if strings.ContainsAny(line, "\r\n") {
		http.Error(w, "console: one command line per request", http.StatusBadRequest)
		return
	}
	var out bytes.Buffer
	err = Exec(s.con, line, &out)
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	switch {
	case errors.Is(err, ErrUsage):
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprintf(&out, "error: %v\n", err)
	case err != nil:
		s.cfg.Logger.Warn("console command failed", "line", line, "err", err)
		w.WriteHeader(http.StatusInternalServerError)
		fmt.Fprintf(&out, "error: %v\n", err)
	}
	w.Write(out.Bytes())
}
