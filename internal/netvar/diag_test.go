package netvar

import (
	"strings"
	"testing"
	"time"
)

func TestSelfTestPasses(t *testing.T) {
	r, lb := newTestRegistry(t)
	summary, ok := SelfTest(r.Logger())
	if !ok || !strings.Contains(summary, " 0 failed") {
		t.Fatalf("selftest: %s", summary)
	}
	lb.wantLog(t, "INFO", "network_selftest", "0 failed")
}

func TestDump(t *testing.T) {
	r, lb := newTestRegistry(t)
	r.Register("f1").SetPlayer().Bool().Debounce(1, 4).ClientOwned()
	r.Register("owner").SetVehicle().UShort().Filter(func(Ref, any) []PlayerID { return nil })
	r.Register("pass").Enum([]any{"grey", "green", "blue"})
	h := newHarness(t, r, lb, []PlayerID{1, 2}, 2)
	h.st.Set(h.now, car, "owner", 3)
	h.st.Set(h.now, PlayerRef(1), "f1", true)
	h.st.Set(h.now.Add(time.Millisecond), PlayerRef(1), "f1", false)
	h.st.QueueEntity(1, car)
	h.st.Invalidate([]PlayerID{1}, []Ref{{KindObject, 1}}, "owner")
	d := h.st.Dump()
	for _, want := range []string{
		"registry: 3 vars",
		"f1", "Player", "clientOwned debounce=1..4",
		"owner", "Filter filtered",
		"Enum(3, mapped 2 bits)",
		"1 handshake=done queued=2 (narrowed=1 bootstrap=0)",
		"2 handshake=pending queued=0\n",
		"player:1 f1 interval=1s pending=false",
	} {
		if !strings.Contains(d, want) {
			t.Errorf("dump lacks %q:\n%s", want, d)
		}
	}
}
