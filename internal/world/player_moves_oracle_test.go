package world

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"dlmp/internal/grid"
	"dlmp/internal/wire"
)

// moveConn is a testConn that records the PlayerMoves it is sent, as
// moveKeys, and checks that each carries its player's latest state.
type moveConn struct {
	*testConn
	w     *World
	moves []moveKey
}

// moveKey is a PlayerMove's player id and seq (its tick).
type moveKey uint64

func keyOf(id uint16, seq uint32) moveKey { return moveKey(id)<<32 | moveKey(seq) }

func (k moveKey) String() string { return fmt.Sprintf("%d@%d", k>>32, uint32(k)) }

func (c *moveConn) SendUnreliable(msg []byte) {
	c.t.Helper()
	pkt, err := wire.Unmarshal(msg)
	if err != nil {
		c.t.Fatalf("sent an unreliable packet the client drops: %v", err)
	}
	m, ok := pkt.(*wire.PlayerMove)
	if !ok {
		return
	}
	if o := c.w.players[m.PlayerID]; o == nil || m.X != o.pos.X || m.Y != o.pos.Y {
		c.t.Errorf("tick %d: PlayerMove of %d at (%v, %v), not its latest state", c.w.ents.tick, m.PlayerID, m.X, m.Y)
	}
	c.moves = append(c.moves, keyOf(m.PlayerID, m.Seq))
}

// spanMoveConn is a moveConn that takes runs of spans.
type spanMoveConn struct{ *moveConn }

func (c spanMoveConn) SendUnreliableSpans(buf []byte, spans []uint64) {
	for _, sp := range spans {
		off, n := uint32(sp), uint32(sp>>32)
		c.moveConn.SendUnreliable(buf[off : off+n : off+n])
	}
}

// plainMoves is the moves' rule written plainly, per viewer and per shown
// player, with maps and a full sort (decisions 0180, 0244, 0290):
//   - a viewer splits its shown players on the ticks where (tick + its id)
//     % every is 0, every = CrowdSplitEvery while its last split found a
//     crowd, FarMoveEvery otherwise: near are those within
//     NearMoveDistance, and when more than NearMoveLimit are, those within
//     the distance of the NearMoveLimit-th nearest (ties near);
//   - between splits a player shown is placed by the last split's cut;
//   - a shown player is sent its move of this tick to a near viewer; on
//     its far tick ((tick + id) % FarMoveEvery == 0) its latest state to
//     every viewer, when it moved in the last FarMoveEvery ticks; a player
//     shown this tick its latest state, if not sent by the rest.
type plainMoves struct {
	shown map[uint16]map[uint16]bool // by viewer: shown players, near or not
	cut2  map[uint16]float32         // by viewer: the last split's cut, 0 out of a crowd
	last  map[uint16]uint32          // by player: the tick of its last move
}

// tick returns the moves viewer q is owed on tick t, sorted; moved is the players with an accepted sync since the last tick.
func (o *plainMoves) tick(w *World, q *Player, t uint32, moved map[uint16]bool) []moveKey {
	near2 := float32(NearMoveDistance * NearMoveDistance)
	cut := near2
	if c := o.cut2[q.id]; c > 0 {
		cut = min(near2, c)
	}
	was := o.shown[q.id]
	now := map[uint16]bool{}
	fresh := map[uint16]bool{}
	for _, p := range w.players {
		if p == nil || !q.ent.shownBits.has(p.id) {
			continue
		}
		if n, ok := was[p.id]; ok {
			now[p.id] = n
		} else {
			now[p.id] = grid.Dist2(q.pos, p.pos) <= cut
			fresh[p.id] = true
		}
	}
	every := uint32(FarMoveEvery)
	if o.cut2[q.id] > 0 {
		every = CrowdSplitEvery
	}
	if (t+uint32(q.id))%every == 0 {
		var in []float32
		for id := range now {
			if d := grid.Dist2(q.pos, w.players[id].pos); d <= near2 {
				in = append(in, d)
			}
		}
		cut, o.cut2[q.id] = near2, 0
		if len(in) > NearMoveLimit {
			slices.Sort(in)
			cut = in[NearMoveLimit-1]
			o.cut2[q.id] = cut
		}
		for id := range now {
			now[id] = grid.Dist2(q.pos, w.players[id].pos) <= cut
		}
	}
	o.shown[q.id] = now
	var want []moveKey
	for id, near := range now {
		farTick := (t+uint32(id))%FarMoveEvery == 0
		recent := o.last[id] != 0 && t-o.last[id] < FarMoveEvery
		if near && moved[id] || farTick && recent || fresh[id] {
			want = append(want, keyOf(id, t))
		}
	}
	slices.Sort(want)
	return want
}

// TestMovesMatchThePlainRule: on random crowds (dense ones, where the
// viewers split by the NearMoveLimit-th nearest every CrowdSplitEvery
// ticks, and spread ones), through the world's own ticks, every viewer is
// sent on every tick exactly the PlayerMoves the rule written plainly
// owes it (plainMoves): a move missing, extra, sent twice or on another
// tick fails. Movers stop and start at random, so moves of this tick and
// far moves of an older state both occur; half the viewers take spans.
func TestMovesMatchThePlainRule(t *testing.T) {
	for _, tc := range []struct {
		name    string
		players int
		radius  float64
		seed    uint64
	}{
		{"dense", 240, 45, 1},
		{"dense-large", 300, 70, 2},
		{"spread", 220, 160, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, nil)
			r := rand.New(rand.NewPCG(tc.seed, 81))
			type walker struct {
				p       *Player
				c       *moveConn
				pos     grid.Vec
				dx, dy  float32
				stopped bool
			}
			var ws []*walker
			for i := range tc.players {
				c := &moveConn{testConn: newConn(t), w: f.w}
				var conn Conn = c
				if i%2 == 1 {
					conn = spanMoveConn{c}
				}
				var hello wire.ServerHello
				p, ok := f.w.Join(conn, &hello)
				if !ok {
					t.Fatal("Join: server full")
				}
				a, d := r.Float64()*2*math.Pi, tc.radius*math.Sqrt(r.Float64())
				h := r.Float64() * 2 * math.Pi
				wk := &walker{p: p, c: c, pos: at(float32(d*math.Cos(a)), float32(d*math.Sin(a))),
					dx: float32(0.3 * math.Cos(h)), dy: float32(0.3 * math.Sin(h))}
				f.spawn(p, c.testConn, wk.pos)
				ws = append(ws, wk)
			}
			o := &plainMoves{shown: map[uint16]map[uint16]bool{}, cut2: map[uint16]float32{}, last: map[uint16]uint32{}}
			crowds, far, checked := 0, 0, 0
			first := f.w.ents.tick + 1
			for range 3 * CrowdSplitEvery {
				tk := f.w.ents.tick + 1
				moved := map[uint16]bool{}
				for _, wk := range ws {
					if tk == first { // the spawns' syncs: moves of the first tick
						moved[wk.p.id] = true
						o.last[wk.p.id] = tk
					}
					if r.IntN(30) == 0 {
						wk.stopped = !wk.stopped
					}
					if wk.stopped {
						continue
					}
					if r.IntN(20) == 0 || math.Hypot(float64(wk.pos.X), float64(wk.pos.Y)) > tc.radius {
						h := r.Float64() * 2 * math.Pi
						wk.dx, wk.dy = float32(0.3*math.Cos(h)), float32(0.3*math.Sin(h))
						if math.Hypot(float64(wk.pos.X), float64(wk.pos.Y)) > tc.radius { // back toward the middle
							n := float32(math.Hypot(float64(wk.pos.X), float64(wk.pos.Y))) / 0.3
							wk.dx, wk.dy = -wk.pos.X/n, -wk.pos.Y/n
						}
					}
					wk.pos.X += wk.dx
					wk.pos.Y += wk.dy
					f.sync(wk.p, wk.c.testConn, wk.pos, 1)
					moved[wk.p.id] = true
					o.last[wk.p.id] = tk
				}
				f.advance(tick)
				if f.w.ents.tick != tk {
					t.Fatalf("tick %d, want %d", f.w.ents.tick, tk)
				}
				for _, wk := range ws {
					want := o.tick(f.w, wk.p, tk, moved)
					got := slices.Sorted(slices.Values(wk.c.moves))
					wk.c.moves = wk.c.moves[:0]
					wk.c.ackAll()
					wk.c.take()
					if !slices.Equal(got, want) {
						t.Fatalf("tick %d, viewer %d: got %d moves, want %d\n got  %v\n want %v\n missing %v\n extra %v",
							tk, wk.p.id, len(got), len(want), got, want, without(want, got), without(got, want))
					}
					checked += len(got)
					if o.cut2[wk.p.id] > 0 {
						crowds++
					}
					for id, near := range o.shown[wk.p.id] {
						if !near && (tk+uint32(id))%FarMoveEvery != 0 && moved[id] {
							far++ // a move this tick not sent: the far rate at work
						}
					}
				}
			}
			t.Logf("%d moves checked; %d viewer-ticks in a crowd; %d far moves held back", checked, crowds, far)
			if tc.name != "spread" && crowds == 0 {
				t.Error("no viewer split in a crowd: the test misses the crowd's cut")
			}
			if far == 0 {
				t.Error("no far mover: the test misses the far rate")
			}
		})
	}
}

// without returns the keys of a not in b (both sorted, as many times as
// they are more in a).
func without(a, b []moveKey) []moveKey {
	var d []moveKey
	i := 0
	for _, x := range a {
		for i < len(b) && b[i] < x {
			i++
		}
		if i < len(b) && b[i] == x {
			i++
			continue
		}
		d = append(d, x)
	}
	return d
}
