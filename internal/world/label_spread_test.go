package world

import (
	"bytes"
	"math"
	"testing"

	"dlmp/internal/grid"
	"dlmp/internal/wire"
)

// spreadCrowd spawns a viewer at the origin and n players around it within
// 30 m, each with each name labels of 40 m (offsets 0.4 m apart), and
// returns them.
func spreadCrowd(f *fixture, n, each int) (v *Player, vc *testConn, ps []*Player, cs []*testConn) {
	f.t.Helper()
	v, vc = f.join()
	f.spawn(v, vc, at(0, 0))
	for i := range n {
		p, c := f.join()
		a, d := float64(i)*2.4, 2+28*float64(i)/float64(n)
		f.spawn(p, c, at(float32(d*math.Cos(a)), float32(d*math.Sin(a))))
		for k := range each {
			f.label(LabelParams{Text: p.Name(), Color: 0xFFFF80, Pos: grid.Vec{Z: 0.4 * float32(k+1)}, DrawDistance: 40,
				AttachKind: wire.AttachPlayer, AttachID: uint32(p.id)})
		}
		ps, cs = append(ps, p), append(cs, c)
	}
	return v, vc, ps, cs
}

// labelMirror follows what a client is shown of players and labels, and
// fails when an attached label is shown while its player is not.
type labelMirror struct {
	players map[uint16]bool
	labels  map[uint32]bool
}

func (m *labelMirror) apply(t *testing.T, out []sent) (shows []*wire.Label3D, ops int) {
	t.Helper()
	for _, s := range out {
		switch pkt := s.pkt.(type) {
		case *wire.PlayerShow:
			m.players[pkt.PlayerID] = pkt.Active == 1
		case *wire.Label3D:
			ops++
			m.labels[pkt.LabelID] = pkt.Active == 1
			if pkt.Active == 0 {
				continue
			}
			shows = append(shows, pkt)
			if pkt.AttachKind == wire.AttachPlayer && !m.players[uint16(pkt.AttachID)] {
				t.Fatalf("label %d shown on player %d, not shown to the client", pkt.LabelID, pkt.AttachID)
			}
		}
	}
	return shows, ops
}

// TestLabelPassSpreadsItsOps: a viewer among 150 players with name labels.
// Its pass of labels on players sends at most spreadOf(150) = 38 Label3D a
// tick, nearest first across the ticks, and all 150 within
// LabelSpreadTicks ticks of the first; never a label whose player is not
// shown. It fails without the spread (the 150 in one tick).
func TestLabelPassSpreadsItsOps(t *testing.T) {
	const n = 150
	f := newFixture(t, nil)
	v, vc, _, _ := spreadCrowd(f, n, 1)
	m := &labelMirror{players: map[uint16]bool{}, labels: map[uint32]bool{}}
	first, shown := -1, 0
	last := float32(0)
	for k := range 60 {
		f.advance(tick)
		shows, ops := m.apply(t, vc.take())
		if ops > f.w.rates.spreadOf(n) {
			t.Fatalf("tick %d: %d label ops, want at most %d", k, ops, f.w.rates.spreadOf(n))
		}
		if len(shows) > 0 && first < 0 {
			first = k
		}
		for _, s := range shows {
			p := f.w.players[s.AttachID]
			d := grid.Dist2(v.pos, p.pos)
			if d < last {
				t.Fatalf("tick %d: label on player %d at %.1f m after one at %.1f m, want nearest first", k, s.AttachID,
					math.Sqrt(float64(d)), math.Sqrt(float64(last)))
			}
			last = d
		}
		shown += len(shows)
		if shown == n {
			if k-first >= LabelSpreadTicks {
				t.Fatalf("the %d labels went out over ticks %d..%d, want within %d ticks", n, first, k, LabelSpreadTicks)
			}
			return
		}
	}
	t.Fatalf("%d labels shown in 60 ticks, want %d", shown, n)
}

// TestLabelSpreadDropsAShowOvertaken: a viewer lands among 30 players with
// 5 name labels each; its pass of labels on players leaves the farthest
// labels' shows for the next ticks, and the 4 farthest players go to
// another world meanwhile: they are hidden first, and their label shows
// never go (an attached label is shown only while its entity is streamed).
// Every other label is shown, and the client's mirror equals the view. It
// fails when a show left is sent without the check (flushLabels).
func TestLabelSpreadDropsAShowOvertaken(t *testing.T) {
	const n, each, away = 30, 5, 4
	f := newFixture(t, nil)
	v, vc, ps, cs := spreadCrowd(f, n, each)
	f.walk(v, vc, at(0, 400)) // out of everyone's reach
	for range 40 {
		f.advance(tick)
	}
	vc.take()
	if err := f.w.Teleport(v, Landing{Pos: at(0, 0)}); err != nil {
		t.Fatal(err)
	}
	f.sync(v, vc, at(0, 0), 1)
	m := &labelMirror{players: map[uint16]bool{}, labels: map[uint32]bool{}}
	var gone []*Player
	for range 60 {
		f.advance(tick)
		shows, _ := m.apply(t, vc.take())
		if len(shows) > 0 && gone == nil {
			// The pass's first tick: the farthest players go to another
			// world at once.
			gone = ps[n-away:]
			if got := v.prims.labels.Pending(); got < away*each {
				t.Fatalf("%d label ops left after the pass's first tick, want at least the %d farthest shows", got, away*each)
			}
			for i, p := range gone {
				if err := f.w.Teleport(p, Landing{Pos: at(0, 0), World: 1}); err != nil {
					t.Fatal(err)
				}
				f.sync(p, cs[n-away+i], at(0, 0), 1)
			}
		}
	}
	if gone == nil {
		t.Fatal("no label pass in 60 ticks")
	}
	for _, p := range gone {
		if m.players[p.id] {
			t.Fatalf("player %d still shown from another world", p.id)
		}
	}
	on := 0
	for id, ok := range m.labels {
		if !ok {
			continue
		}
		on++
		if _, shown := v.prims.labels.Shown(id); !shown {
			t.Fatalf("label %d on the client, not in the view", id)
		}
	}
	if want := (n - away) * each; on != want || v.prims.labels.Len() != want {
		t.Fatalf("the client shows %d labels, the view %d, want %d", on, v.prims.labels.Len(), want)
	}
}

// TestLabelSpreadBaseline checks that the two tests above would see the
// difference: without the spread the pass sends its 150 ops in one tick.
func TestLabelSpreadBaseline(t *testing.T) {
	const n = 150
	f := newFixture(t, nil)
	f.w.ents.views.labels.noSpread = true
	_, vc, _, _ := spreadCrowd(f, n, 1)
	m := &labelMirror{players: map[uint16]bool{}, labels: map[uint32]bool{}}
	most := 0
	for range 60 {
		f.advance(tick)
		_, ops := m.apply(t, vc.take())
		most = max(most, ops)
	}
	if most <= f.w.rates.spreadOf(n) {
		t.Fatalf("without the spread the most label ops in a tick were %d, want more than %d", most, f.w.rates.spreadOf(n))
	}
}

// TestLabelInPlaceChangeDuringSpread: a name label's text changes while
// the viewer's pass has its show left: the viewer's view is not reconciled
// for it (its leftovers are a spread's), the show that goes carries the
// new text, and the next pass sends it again at its rev. It fails if the
// show left carries the old text, or if the change reconciles the viewer.
func TestLabelInPlaceChangeDuringSpread(t *testing.T) {
	const n = 150
	f := newFixture(t, nil)
	v, vc, ps, _ := spreadCrowd(f, n, 1)
	far := ps[n-1]
	var id uint32
	for lid, l := range f.w.prims.labels {
		if l.params.AttachID == uint32(far.id) {
			id = lid
		}
	}
	m := &labelMirror{players: map[uint16]bool{}, labels: map[uint32]bool{}}
	changed := false
	var texts []string
	for range 60 {
		f.advance(tick)
		for _, s := range vc.out {
			if l, ok := s.pkt.(*wire.Label3D); ok && l.LabelID == id && l.Active == 1 {
				texts = append(texts, string(bytes.TrimRight(l.Text[:], "\x00")))
			}
		}
		shows, _ := m.apply(t, vc.take())
		if len(shows) > 0 && !changed {
			changed = true
			if _, shown := v.prims.labels.Shown(id); shown {
				t.Fatal("the farthest label went in the pass's first tick, want it left")
			}
			lp := f.w.Label(id).Params()
			lp.Text = "Renamed"
			passes := f.w.prims.passes[primLabels]
			if err := f.w.SetLabel(id, lp); err != nil {
				t.Fatal(err)
			}
			if got := f.w.prims.passes[primLabels] - passes; got != 0 {
				t.Fatalf("the change reconciled %d label views, want none (nobody shows it yet)", got)
			}
		}
	}
	if len(texts) == 0 || texts[0] != "Renamed" {
		t.Fatalf("the label's shows carried %q, want the first to carry the new text", texts)
	}
	if _, shown := v.prims.labels.Shown(id); !shown || !m.labels[id] {
		t.Fatal("the label is not shown after the spread")
	}
}
