package server

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"dlmp/internal/netvar"
	"dlmp/internal/world"
)

// ConsoleTimeout bounds how long a console command waits for the tick.
const ConsoleTimeout = 5 * time.Second

// consoleCommands are the commands Console knows, with their summaries.
var consoleCommands = map[string]string{
	"network_dump":     "the sealed netvar registry, per player the handshake and resync queue, debounce windows",
	"network_selftest": "re-run the netvar library's server-local assertions (pure, read-only)",
}

// Command runs one network-vars console command (network_dump,
// network_selftest; the admin console calls it, and its guard is the
// admin's) and returns its output. The command runs on the world goroutine
// between ticks, so Run must be running.
func (s *Server) Command(cmd string) string {
	fields := strings.Fields(cmd)
	if len(fields) == 0 {
		return "commands: " + strings.Join(consoleNames(), ", ")
	}
	var out string
	var run func(*world.World)
	switch fields[0] {
	case "network_dump":
		run = func(*world.World) { out = s.nv.store.Dump() + s.nv.statsLine() }
	case "network_selftest":
		// Pure and read-only: it needs no world, but it runs on the tick
		// like every command so its log lines interleave in order.
		run = func(*world.World) { out, _ = netvar.SelfTest(s.log) }
	default:
		return fmt.Sprintf("unknown command %q; commands: %s", fields[0], strings.Join(consoleNames(), ", "))
	}
	ctx, cancel := context.WithTimeout(context.Background(), ConsoleTimeout)
	defer cancel()
	if err := s.Do(ctx, run); err != nil {
		return fmt.Sprintf("%s: the server did not answer: %v", fields[0], err)
	}
	return out
}

func consoleNames() []string {
	names := make([]string, 0, len(consoleCommands))
	for n := range consoleCommands {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// statsLine is the glue's drop counters, appended to network_dump.
func (nv *netvars) statsLine() string {
	st := nv.store.Stats()
	return fmt.Sprintf("glue: repeat_announces=%d bad_requests=%d bad_clientsets=%d send_failed=%d clientset_flooded=%d clientset_rejected=%d\n",
		nv.stats.RepeatAnnounces, nv.stats.BadRequests, nv.stats.BadClientSets, nv.stats.SendFailed,
		st.ClientSetFlooded, st.ClientSetRejected)
}
