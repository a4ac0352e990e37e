package dissect

import (
	"net/netip"
	"os"
	"os/exec"
	"testing"
	"time"
)

// BenchmarkTshark measures what the Lua dissector costs tshark: the same
// capture (every example back to back in datagrams, to port 7777) read with
// the full tree as JSON, without the script (UDP and data) and with it, and
// tshark's start with the script on an empty capture.
func BenchmarkTshark(b *testing.B) {
	tshark, err := exec.LookPath("tshark")
	if err != nil {
		b.Skip("tshark not found: " + installHint)
	}
	examples := loadExamples(b)
	var ds []datagram
	srv := netip.MustParseAddrPort("127.0.0.1:7777")
	cli := netip.MustParseAddrPort("127.0.0.1:50000")
	const rounds = 10
	for range rounds {
		for _, s := range datagrams(b, examples) {
			from, to := cli, srv
			if s.s2c {
				from, to = srv, cli
			}
			ds = append(ds, datagram{from, to, s.data})
		}
	}
	pcap, err := writePcap(ds)
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	path := dir + "/bench.pcap"
	if err := os.WriteFile(path, pcap, 0o644); err != nil {
		b.Fatal(err)
	}
	empty, err := writePcap(nil)
	if err != nil {
		b.Fatal(err)
	}
	emptyPath := dir + "/empty.pcap"
	if err := os.WriteFile(emptyPath, empty, 0o644); err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name   string
		frames int
		args   []string
	}{
		{"udp", len(ds), []string{"-r", path, "-T", "json"}},
		{"dlmp", len(ds), []string{"-X", "lua_script:" + script, "-r", path, "-T", "json"}},
		// tshark's start with the script and no frame.
		{"dlmp-start", 0, []string{"-X", "lua_script:" + script, "-r", emptyPath, "-T", "json"}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			var total time.Duration
			for b.Loop() {
				cmd := exec.Command(tshark, bc.args...)
				if err := cmd.Run(); err != nil {
					b.Fatal(err)
				}
				total += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
			}
			b.ReportMetric(float64(total.Microseconds())/float64(b.N)/1000, "cpu-ms/run")
			b.ReportMetric(float64(bc.frames), "frames/run")
		})
	}
}
