package world

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"dlmp/internal/lane"
	"dlmp/internal/wire"
)

// playerShows splits the PlayerShows of ss into shown and hidden ids,
// checking each is critical.
func playerShows(t *testing.T, ss []sent) (shows []*wire.PlayerShow, hides []uint16) {
	t.Helper()
	for _, s := range ss {
		ps, ok := s.pkt.(*wire.PlayerShow)
		if !ok {
			continue
		}
		if s.class != lane.Critical {
			t.Errorf("PlayerShow %d sent %v, want critical", ps.PlayerID, s.class)
		}
		if ps.Active == 1 {
			shows = append(shows, ps)
		} else {
			hides = append(hides, ps.PlayerID)
		}
	}
	return shows, hides
}

func showPlayerIDs(ss []*wire.PlayerShow) []uint16 {
	var ids []uint16
	for _, s := range ss {
		ids = append(ids, s.PlayerID)
	}
	return ids
}

func TestPlayersStreamedByDistanceAndScope(t *testing.T) {
	f := newFixture(t, nil)
	a, ac := f.joinE()
	b, bc := f.joinE()
	far, fc := f.joinE()
	f.spawn(a, ac.testConn, at(0, 0))
	f.spawn(b, bc.testConn, at(100, 0))
	f.spawn(far, fc.testConn, at(0, PlayerStreamDistance+1))
	f.advance(tick)

	shows, _ := playerShows(t, ac.take())
	if got := showPlayerIDs(shows); !slices.Equal(got, []uint16{b.ID()}) {
		t.Fatalf("a was shown players %v, want only b (never itself, not the one %d m away)", got, PlayerStreamDistance+1)
	}
	if s := shows[0]; s.Skin != 1 || s.PlayerName.String() != "Player_1" || s.Color != 0xFFFFFF {
		t.Errorf("got show %+v, want skin 1, name Player_1, color white", s)
	}
	if !f.w.StreamedTo(KindPlayer, uint32(b.ID()), a) || f.w.StreamedTo(KindPlayer, uint32(a.ID()), a) ||
		f.w.StreamedTo(KindPlayer, uint32(far.ID()), a) {
		t.Errorf("StreamedTo disagrees with the shows")
	}

	// b walks past the distance but within the margin of a shown player:
	// still shown; out of it: hidden; back past the distance only: not
	// shown; within it: shown.
	f.walk(b, bc.testConn, at(PlayerStreamDistance+PlayerHoldMargin-1, 0))
	f.advance(tick)
	if shows, hides := playerShows(t, ac.take()); len(shows)+len(hides) != 0 || !f.w.StreamedTo(KindPlayer, uint32(b.ID()), a) {
		t.Fatalf("got shows %v and hides %v, want b still shown within the margin", showPlayerIDs(shows), hides)
	}
	f.walk(b, bc.testConn, at(PlayerStreamDistance+PlayerHoldMargin+EntityRequery+1, 0))
	f.advance(tick)
	if _, hides := playerShows(t, ac.take()); !slices.Equal(hides, []uint16{b.ID()}) {
		t.Fatalf("got hides %v, want b's as b left the distance", hides)
	}
	f.walk(b, bc.testConn, at(PlayerStreamDistance+1, 0))
	f.advance(tick)
	if shows, _ := playerShows(t, ac.take()); len(shows) != 0 {
		t.Fatalf("got shows %v, want none past the distance (b is no longer shown: no margin)", showPlayerIDs(shows))
	}
	f.walk(b, bc.testConn, at(50, 0))
	f.advance(tick)
	if shows, _ := playerShows(t, ac.take()); !slices.Equal(showPlayerIDs(shows), []uint16{b.ID()}) {
		t.Fatalf("got shows %v, want b again", showPlayerIDs(shows))
	}

	// b teleports into an interior at the same point: hidden from a.
	if err := f.w.Teleport(b, Landing{Pos: at(50, 0), Interior: 3}); err != nil {
		t.Fatal(err)
	}
	f.advance(tick)
	if _, hides := playerShows(t, ac.take()); !slices.Equal(hides, []uint16{b.ID()}) {
		t.Fatalf("got hides %v, want b's after its change of scope", hides)
	}
	if f.w.StreamedTo(KindPlayer, uint32(b.ID()), a) {
		t.Error("StreamedTo: b still streamed to a after the hide")
	}
}

func TestPlayerMoveSentPerTickWhenChanged(t *testing.T) {
	f := newFixture(t, nil)
	_, ac, b, bc := f.pairShown()
	first := ac.takeMoves()
	if len(first) != 1 {
		t.Fatalf("got %d unreliable packets with the show, want b's first PlayerMove", len(first))
	}
	m, ok := first[0].(*wire.PlayerMove)
	if !ok || m.PlayerID != b.ID() || m.X != 10 || m.Seq != f.w.ents.tick {
		t.Fatalf("got %+v, want b's PlayerMove at x 10 with seq = the tick %d", first[0], f.w.ents.tick)
	}

	f.advance(tick) // nothing changed
	if got := ac.takeMoves(); len(got) != 0 {
		t.Fatalf("got %d moves without a new sync, want none", len(got))
	}
	f.syncWith(b, bc.testConn, at(11, 0), func(s *wire.PlayerSync) { s.Heading, s.Weapon = 90, 24 })
	f.syncWith(b, bc.testConn, at(11.5, 0), func(s *wire.PlayerSync) { s.Heading = 91 })
	f.advance(tick)
	got := ac.takeMoves()
	if len(got) != 1 {
		t.Fatalf("got %d moves for two syncs in one tick, want one", len(got))
	}
	if m := got[0].(*wire.PlayerMove); m.X != 11.5 || m.Heading != 91 || m.Seq <= first[0].(*wire.PlayerMove).Seq {
		t.Errorf("got %+v, want the last sync (x 11.5, heading 91) with a later seq", m)
	}
	if ac.unreliable != 2 || bc.unreliable != 1 {
		t.Errorf("got %d and %d unreliable sends, want a's 2 and b's 1 (a's first move)", ac.unreliable, bc.unreliable)
	}
}

func TestPlayerShowResentOnChange(t *testing.T) {
	f := newFixture(t, nil)
	_, ac, b, _ := f.pairShown()

	wantArgErr(t, f.w.SetPlayerName(b, "no spaces"), "set_name", "name")
	wantArgErr(t, f.w.SetPlayerName(b, "ab"), "set_name", "name")
	wantArgErr(t, f.w.SetPlayerColor(b, 0x1000000), "set_color", "color")
	f.advance(tick)
	if got := ac.take(); len(got) != 0 {
		t.Fatalf("refused changes sent %d packets", len(got))
	}
	steps := []struct {
		name string
		do   func() error
		want func(*wire.PlayerShow) bool
	}{
		{"name", func() error { return f.w.SetPlayerName(b, "[GM]Carl") },
			func(s *wire.PlayerShow) bool { return s.PlayerName.String() == "[GM]Carl" }},
		{"color", func() error { return f.w.SetPlayerColor(b, 0x00FF00) },
			func(s *wire.PlayerShow) bool { return s.Color == 0x00FF00 }},
		{"skin", func() error { return f.w.SetSkin(b, 105) },
			func(s *wire.PlayerShow) bool { return s.Skin == 105 }},
	}
	for _, st := range steps {
		if err := st.do(); err != nil {
			t.Fatal(err)
		}
		f.advance(tick)
		shows, _ := playerShows(t, ac.take())
		if len(shows) != 1 || !st.want(shows[0]) {
			t.Fatalf("%s: got shows %+v, want one new show of b with it", st.name, shows)
		}
	}
}

func TestPlayerLeaveHidesAtOnce(t *testing.T) {
	f := newFixture(t, nil)
	_, ac, b, _ := f.pairShown()
	f.w.Leave(b, wire.ReasonQuit)
	if _, hides := playerShows(t, ac.take()); !slices.Equal(hides, []uint16{b.ID()}) {
		t.Fatalf("got hides %v in Leave, want b's at once (its id may be taken by the next join)", hides)
	}
	c, cc := f.joinE() // takes b's id
	f.spawn(c, cc.testConn, at(20, 0))
	f.advance(tick)
	if shows, _ := playerShows(t, ac.take()); len(shows) != 1 || shows[0].PlayerID != c.ID() || c.ID() != b.ID() {
		t.Fatalf("got shows %v, want the new player on the reused id", showPlayerIDs(shows))
	}
}

func TestPlayersNotSpawnedAreNotShown(t *testing.T) {
	f := newFixture(t, nil)
	a, ac := f.joinE()
	f.joinE() // connected, never spawned
	f.spawn(a, ac.testConn, at(0, 0))
	f.advance(tick)
	if shows, _ := playerShows(t, ac.take()); len(shows) != 0 {
		t.Fatalf("got shows %v, want none before the other player spawns", showPlayerIDs(shows))
	}
}

func TestPlayerLimitNearest(t *testing.T) {
	f := newFixture(t, nil)
	a, ac := f.joinE()
	f.spawn(a, ac.testConn, at(0, 0))
	for i := range PlayerLimit + 2 {
		q, qc := f.join()
		f.spawn(q, qc, at(float32(i+1), 0))
	}
	f.advance(tick)
	shows, _ := playerShows(t, ac.take())
	if len(shows) != PlayerLimit {
		t.Fatalf("got %d players shown, want the limit %d", len(shows), PlayerLimit)
	}
	for _, s := range shows {
		if s.PlayerID > PlayerLimit { // ids 1..=200 stand at x 1..=200, the nearest
			t.Fatalf("player %d shown, past the %d nearest", s.PlayerID, PlayerLimit)
		}
	}
}

func TestPlayerStreamingKeepsSendReserve(t *testing.T) {
	f := newFixture(t, nil)
	a, ac := f.joinE()
	f.spawn(a, ac.testConn, at(0, 0))
	for i := range 10 {
		q, qc := f.join()
		f.spawn(q, qc, at(float32(i+1), 0))
	}
	ac.free = SendReserve + 4
	f.advance(tick)
	if shows, _ := playerShows(t, ac.take()); len(shows) != 4 {
		t.Fatalf("got %d shows, want 4 (the reserve kept)", len(shows))
	}
	ac.free = 1000
	f.advance(tick)
	if shows, _ := playerShows(t, ac.take()); len(shows) != 6 {
		t.Fatalf("got %d shows on the next tick, want the other 6", len(shows))
	}
	var ae *ArgError
	if err := f.w.SetPlayerColor(a, 1<<24); !errors.As(err, &ae) {
		t.Fatalf("got %v, want an ArgError", err)
	}
}

func TestPlayerHiddenAfterAJump(t *testing.T) {
	f := newFixture(t, nil)
	a, ac := f.joinE()
	b, bc := f.joinE()
	f.spawn(a, ac.testConn, at(0, 0))
	f.spawn(b, bc.testConn, at(100, 0))
	f.advance(tick)
	ac.take()
	f.now = f.now.Add(5 * time.Second)
	f.sync(b, bc.testConn, at(1000, 0), 1) // one sync, 900 m: far out of a's reach from b's new point
	f.advance(tick)
	if _, hides := playerShows(t, ac.take()); !slices.Equal(hides, []uint16{b.ID()}) {
		t.Fatalf("got hides %v, want b hidden after its jump", hides)
	}
}

// TestFarPlayerMovesAtAQuarterRate: a viewer beyond NearMoveDistance gets
// a moving player's PlayerMove every FarMoveEvery ticks, and the state the
// player stopped in always reaches it; a near viewer gets every tick's.
func TestFarPlayerMovesAtAQuarterRate(t *testing.T) {
	f := newFixture(t, nil)
	mover, mc := f.joinE()
	near, nc := f.joinE()
	far, fc := f.joinE()
	f.spawn(mover, mc.testConn, at(0, 0))
	f.spawn(near, nc.testConn, at(10, 0))
	f.spawn(far, fc.testConn, at(200, 0))
	f.advance(tick)
	nc.takeMoves()
	fc.takeMoves()
	const ticks = 4 * FarMoveEvery
	for i := range ticks {
		f.sync(mover, mc.testConn, at(float32(i+1)*0.3, 0), 1)
		f.advance(tick)
	}
	moverMoves := func(ps []wire.Packet) (n int, last float32) {
		for _, p := range ps {
			if m, ok := p.(*wire.PlayerMove); ok && m.PlayerID == mover.ID() {
				n++
				last = m.X
			}
		}
		return n, last
	}
	if n, _ := moverMoves(nc.takeMoves()); n != ticks {
		t.Fatalf("near viewer got %d moves in %d ticks, want one per tick", n, ticks)
	}
	if n, _ := moverMoves(fc.takeMoves()); n != ticks/FarMoveEvery {
		t.Fatalf("far viewer got %d moves in %d ticks, want %d", n, ticks, ticks/FarMoveEvery)
	}
	// The mover stops: within FarMoveEvery ticks the far viewer has its
	// final position.
	for range FarMoveEvery {
		f.advance(tick)
	}
	_, last := moverMoves(fc.takeMoves())
	if want := float32(ticks) * 0.3; last != want {
		t.Fatalf("far viewer's last mover x = %v, want the final %v", last, want)
	}
}

// TestNearMovesLimited: in a crowd, only the NearMoveLimit nearest of the
// players within NearMoveDistance move at the tick rate for a viewer; the
// others within it move at the far rate, and their last state still lands
// (decision 0244).
func TestNearMovesLimited(t *testing.T) {
	f := newFixture(t, nil)
	viewer, vc := f.joinE()
	f.spawn(viewer, vc.testConn, at(0, 0))
	ms := f.lineCrowd()      // every one within NearMoveDistance
	for range FarMoveEvery { // the viewer's periodic split works out who is nearest
		f.advance(tick)
	}
	vc.takeMoves()
	const ticks = 4 * FarMoveEvery
	for i := range ticks {
		for _, m := range ms {
			f.sync(m.p, m.c, at(m.at, float32(i+1)*0.01), 1)
		}
		f.advance(tick)
	}
	got := map[uint16]int{}
	for _, p := range vc.takeMoves() {
		if m, ok := p.(*wire.PlayerMove); ok {
			got[m.PlayerID]++
		}
	}
	for i, m := range ms {
		want := ticks
		if i >= NearMoveLimit {
			want = ticks / FarMoveEvery
		}
		if n := got[m.p.ID()]; n != want {
			t.Errorf("mover %d at %v m: got %d moves in %d ticks, want %d", i, m.at, n, ticks, want)
		}
	}
}

func TestNthSmallest(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := 1; n <= 300; n += 7 {
		d := make([]float32, n)
		for i := range d {
			d[i] = float32(r.IntN(50)) // ties
		}
		sorted := slices.Clone(d)
		slices.Sort(sorted)
		for _, k := range []int{0, n / 3, n / 2, n - 1} {
			if got := nthSmallest(slices.Clone(d), k); got != sorted[k] {
				t.Fatalf("n %d: nthSmallest(k=%d) = %v, want %v", n, k, got, sorted[k])
			}
		}
	}
}

// TestMovesBetweenSplits: a player shown between the viewer's periodic
// splits gets its moves from its first tick (it is placed by the last
// split's cut), and a player hidden between them gets none after its hide.
func TestMovesBetweenSplits(t *testing.T) {
	f := newFixture(t, nil)
	// Spawned on a tick that is not the viewer's periodic split.
	viewer, vc, mover, mc := viewerThenMover(f, true)
	f.spawn(mover, mc.testConn, at(10, 0))
	f.advance(tick) // shown
	vc.takeMoves()
	moves := func() int { return vc.movesOf(mover.ID()) }
	for i := range 3 {
		f.sync(mover, mc.testConn, at(10, float32(i+1)*0.3), 1)
		f.advance(tick)
		if n := moves(); n != 1 {
			t.Fatalf("tick %d after the show: got %d moves of the near mover, want 1", i+1, n)
		}
	}
	// Beyond the stream distance: once hidden, no move.
	hidden := false
	for i := range 20 * FarMoveEvery {
		f.sync(mover, mc.testConn, at(PlayerStreamDistance+100, float32(i+1)*0.3), 1)
		f.advance(tick)
		n := moves()
		if hidden && n != 0 {
			t.Fatalf("tick %d: got %d moves of the mover after its hide, want 0", i+1, n)
		}
		_, shown := viewer.ent.players.Shown(uint32(mover.ID()))
		hidden = !shown
	}
	if !hidden {
		t.Fatal("the mover 400 m away was never hidden")
	}
}
