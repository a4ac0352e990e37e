package netvar

import (
	"testing"
	"time"
)

// BenchmarkStoreSet: one live change broadcast to 100 ready players, with
// the same encode sent to one player as the baseline (the cost of the
// recipient computation and fan-out).
func BenchmarkStoreSet(b *testing.B) {
	r := NewRegistry()
	r.SetLogger(discard())
	r.Register("hp").SetVehicle().UByte()
	r.Register("owner").SetVehicle().UShort().Filter(func(Ref, any) []PlayerID { return []PlayerID{1, 2, 3} })
	r.Seal()
	players := make([]PlayerID, 100)
	for i := range players {
		players[i] = PlayerID(i)
	}
	w := newFakeWorld(players...)
	sent := 0
	st, _ := NewStore(r, w, func(PlayerID, Message, []byte) { sent++ }, Config{})
	for _, p := range players {
		st.Handshake(p)
	}
	now := time.Unix(0, 0)
	for _, c := range []struct{ name, key string }{{"broadcast-100", "hp"}, {"filter-3", "owner"}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				i++
				st.Set(now, car, c.key, float64(i%200))
			}
		})
	}
	b.Run("encode-only", func(b *testing.B) {
		v, _ := st.Schema().Lookup("hp")
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			i++
			st.buf = AppendUpdate(st.buf[:0], st.s, Target{Ref: car}, v, float64(i%200))
		}
	})
}

// BenchmarkTickResync: draining 32 queued entities of 4 vars each into
// Resync payloads.
func BenchmarkTickResync(b *testing.B) {
	r := NewRegistry()
	r.SetLogger(discard())
	r.Register("a").SetEntity().Bool()
	r.Register("b").SetEntity().UByte()
	r.Register("c").SetEntity().String(16)
	r.Register("d").SetEntity().Color()
	r.Seal()
	w := newFakeWorld(1, 2, 3, 4)
	st, _ := NewStore(r, w, func(PlayerID, Message, []byte) {}, Config{})
	now := time.Unix(0, 0)
	for i := range uint16(8) {
		e := Ref{KindObject, i}
		st.Set(now, e, "a", true)
		st.Set(now, e, "b", 7)
		st.Set(now, e, "c", "crate")
		st.Set(now, e, "d", Color{1, 2, 3, 255})
	}
	for p := range PlayerID(4) {
		st.Handshake(p + 1)
	}
	b.ReportAllocs()
	for b.Loop() {
		for p := range PlayerID(4) {
			for i := range uint16(8) {
				st.QueueEntity(p+1, Ref{KindObject, i})
			}
		}
		st.Tick(now)
	}
}
