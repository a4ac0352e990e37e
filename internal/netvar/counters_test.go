package netvar

import (
	"strings"
	"testing"
	"time"
)

// TestCounters: every Update sent to a recipient and every resync entry
// is counted against its var, and the dump shows them.
func TestCounters(t *testing.T) {
	l := newLink(t, 1, 2)
	l.tick(time.Millisecond) // both handshakes
	if err := l.st.Set(l.now, Ref{}, "weather", 5); err != nil {
		t.Fatal(err)
	}
	c := l.st.Counters()["weather"]
	if c.Updates != 2 || c.UpdateBytes == 0 || c.UpdateBytes%2 != 0 {
		t.Fatalf("weather counters %+v, want 2 updates of equal size", c)
	}
	if err := l.st.Set(l.now, PlayerRef(1), "job", "Medic"); err != nil {
		t.Fatal(err)
	}
	l.st.QueueEntity(2, PlayerRef(1))
	l.tick(time.Millisecond)
	if job := l.st.Counters()["job"]; job.Resyncs != 1 || job.ResyncBytes == 0 {
		t.Fatalf("job counters %+v, want one resync entry", job)
	}
	if d := l.st.Dump(); !strings.Contains(d, "weather") || !strings.Contains(d, "updates=2/") {
		t.Fatalf("dump lacks the counters:\n%s", d)
	}
}
