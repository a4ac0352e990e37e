package netvar

import (
	"testing"
	"time"

	"dlmp/internal/bits"
)

func TestResyncFlushThresholdAndCustomAlone(t *testing.T) {
	r, lb := newTestRegistry(t)
	r.Register("blob").SetEntity().Data(600)
	r.Register("cust").SetEntity().Write(func(w *bits.Writer, v any) { w.WriteBits(uint64(v.(float64)), 5) }, 5).Read(func(r *bits.Reader) any { return float64(r.ReadBits(5)) }, 5)
	r.Register("mode").SetEntity().Enum([]any{"a", "b", "c"})
	h := newHarness(t, r, lb, []PlayerID{1})
	for i := range uint16(30) {
		h.st.Set(h.now, Ref{KindObject, i}, "blob", []byte{byte(i)})
	}
	h.st.Set(h.now, Ref{KindObject, 0}, "cust", 17)
	h.st.Set(h.now, Ref{KindObject, 0}, "mode", "c")
	h.wire.take()
	for i := range uint16(30) {
		h.st.QueueEntity(1, Ref{KindObject, i})
	}
	h.st.cfg.ResyncRatePlayer = 30
	h.st.cfg.ResyncRate = 30
	h.tick(time.Millisecond)
	got := entriesTo(h.wire.take(), 1)
	if len(got) != 32 {
		t.Fatalf("resync delivered %d entries, want 32", len(got))
	}
	over := 0
	for _, n := range h.wire.sizes {
		if n > DefaultSyncBytes+700 {
			t.Errorf("a Resync payload of %d bytes overshoots the threshold by more than a group", n)
		}
		if n > DefaultSyncBytes {
			over++
		}
	}
	if len(h.wire.sizes) < 5 {
		t.Errorf("got %d Resync payloads for %d bytes of values, want the threshold to split them", len(h.wire.sizes), 30*600)
	}
	// The two custom-coded vars each went alone in their own payload.
	solo := 0
	for _, n := range h.wire.sizes {
		if n <= 8 {
			solo++
		}
	}
	if solo != 2 {
		t.Errorf("%d tiny payloads, want the custom var and the mapped enum alone (sizes %v)", solo, h.wire.sizes)
	}
}

func TestPurge(t *testing.T) {
	r, lb := newTestRegistry(t)
	r.Register("x").SetEntity().Bool()
	r.Register("d").SetPlayer().Bool().Debounce(5)
	h := newHarness(t, r, lb, []PlayerID{1, 2})
	h.st.Set(h.now, car, "x", true)
	h.st.Set(h.now, PlayerRef(2), "d", true)
	h.st.Set(h.now, PlayerRef(2), "d", false)
	h.st.QueueEntity(1, car)
	h.st.QueueEntity(2, car)
	h.st.EntityRemoved(car)
	h.st.PlayerRemoved(2)
	h.wire.take()
	h.tick(10 * time.Second)
	if g := h.wire.take(); len(g) != 0 {
		t.Fatalf("purged state still sent %+v", g)
	}
	if h.st.Ready(2) || len(h.st.debounce) != 0 || len(h.st.owners) != 0 {
		t.Fatalf("purge left state: ready %v, debounce %d, owners %d", h.st.Ready(2), len(h.st.debounce), len(h.st.owners))
	}
}

func TestResyncRequest(t *testing.T) {
	r, lb := newTestRegistry(t)
	r.Register("x").SetEntity().Bool()
	h := newHarness(t, r, lb, []PlayerID{1})
	h.st.Set(h.now, car, "x", true)
	h.wire.take()
	if err := h.st.ResyncRequest(1, AppendResyncRequest(nil, []Ref{car, {KindObject, 3}})); err != nil {
		t.Fatal(err)
	}
	h.tick(time.Millisecond)
	if g := entriesTo(h.wire.take(), 1); len(g) != 1 || g[0].t.Ref != car {
		t.Fatalf("resync request answered %+v", g)
	}
	if err := h.st.ResyncRequest(1, []byte{0x01}); err == nil || h.st.Stats().ResyncBadRequests != 1 {
		t.Fatalf("truncated request: err %v, stats %+v", err, h.st.Stats())
	}
}

func TestPayloadLimit(t *testing.T) {
	r, lb := newTestRegistry(t)
	r.Register("blob").SetEntity().String()
	r.Register("chunk").SetEntity().Data(40000)
	r.Register("chunk2").SetEntity().Data(40000)
	h := newHarness(t, r, lb, []PlayerID{1})
	big := make([]byte, MaxPayload)
	for i := range big {
		big[i] = 'x'
	}
	if err := h.st.Set(h.now, car, "blob", string(big)); err == nil {
		t.Fatalf("a String over the payload limit was accepted")
	}
	lb.wantLog(t, "ERROR", "over the", "payload limit")
	if h.st.Get(car, "blob") != nil || len(h.wire.take()) != 0 {
		t.Fatalf("a refused value was stored or sent")
	}
	// Two 40000-byte values on one entity split into two Resync payloads.
	h.st.Set(h.now, car, "chunk", []byte{1})
	h.st.Set(h.now, car, "chunk2", []byte{2})
	h.wire.take()
	h.wire.sizes = nil
	h.st.QueueEntity(1, car)
	h.tick(time.Millisecond)
	if got := entriesTo(h.wire.take(), 1); len(got) != 2 {
		t.Fatalf("got %d entries, want 2", len(got))
	}
	if len(h.wire.sizes) != 2 {
		t.Fatalf("got Resync payloads of %v bytes, want two under %d", h.wire.sizes, MaxPayload)
	}
	for _, n := range h.wire.sizes {
		if n > MaxPayload {
			t.Errorf("payload of %d bytes over the limit", n)
		}
	}
}

func TestRepeatedHandshakeAndCustomBootstrap(t *testing.T) {
	r, lb := newTestRegistry(t)
	r.Register("mode").SetGlobal().Enum([]any{"day", "night"})
	r.Register("x").SetEntity().Bool()
	h := newHarness(t, r, lb, []PlayerID{1, 2}, 2)
	h.st.SetGlobal(h.now, "mode", "night")
	h.st.Set(h.now, car, "x", true)
	h.wire.take()
	h.st.Handshake(2)
	got := entriesTo(h.wire.take(), 2)
	if len(got) != 1 || got[0].name != "mode" || got[0].msg != MsgUpdate || got[0].value != "night" {
		t.Fatalf("mapped-enum Global at handshake: %+v, want one Update alone", got)
	}
	h.st.Handshake(2) // the announce retried: the Sync is resent, nothing re-queued
	if n, _, _ := h.st.Queues().Depth(2); n != 1 {
		t.Fatalf("repeat handshake queue depth %d, want 1", n)
	}
	if h.wire.payloads[MsgSync] != 3 {
		t.Fatalf("Sync sent %d times, want 3 (player 1 once, player 2 twice)", h.wire.payloads[MsgSync])
	}
}
