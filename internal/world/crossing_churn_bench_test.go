package world

import (
	"encoding/binary"
	"fmt"
	"math"
	"runtime"
	"slices"
	"testing"

	"dlmp/internal/grid"
	"dlmp/internal/wire"
)

// The churn of the crossing streams (issue 7, session 7): of the
// PlayerShow and Label3D events the crossing sends, how many are a flap a
// client would not miss, an event of a (viewer, player) pair whose next or
// last event (a show after a hide, a hide after a show) came within 1, 2 or
// 5 s; and where the player was in the viewer's ranking by distance when
// it was sent (rank 1 the nearest), and how far.

// churnWindows are the flap windows, ticks (1, 2 and 5 s at 20 Hz).
var churnWindows = [...]int{20, 40, 100}

// rankBands are the upper bounds of the rank bands a player event is
// counted in (the last one open): the 200 shown with the hold's 25 %.
var rankBands = [...]int{50, 150, 190, 210, 250, math.MaxInt}

// distBands are the upper bounds, meters, of the distance bands a label
// event is counted in (the labels' draw distance is 40 m).
var distBands = [...]float32{10, 30, 38, 42, 50, math.MaxFloat32}

// flapKind is what churn counts for one kind of event (PlayerShow or
// Label3D).
type flapKind struct {
	events int
	flaps  [len(churnWindows)]int // events of a flap within the window
	// by band (rank for players, distance for labels): all events, and
	// those of a flap within 2 s
	band, bandFlaps [len(rankBands)]int
	bandShows       [len(rankBands)]int // the shows among band
	// the sums of the distances, meters, of the player shown or hidden
	// and of the viewer's 200th nearest then (player events only)
	showD, hideD, cutD float64
	// the events that close a pair within the window: a hide after a
	// show (a short visit), a show after a hide (a return)
	visits, returns [len(churnWindows)]int
}

// flapLast is a (viewer, player) pair's last event: its tick+1 (0: none)
// and whether it was counted as a flap for each window already.
type flapLast struct {
	at      int32
	counted [len(churnWindows)]bool
}

// flapCount counts the flaps of every client of a oneSpot; countConn calls
// it when set.
type flapCount struct {
	c       *oneSpot
	byID    []int // player id -> index in c.ms
	players flapKind
	labels  flapKind
	lastP   [][wire.MaxPlayers]flapLast // by viewer index, by player id
	lastL   [][wire.MaxPlayers]flapLast // by viewer index, by the label's player id
	sorted  [][]float32                 // by viewer: squared distances of the others, sorted
	sortAt  []int                       // by viewer: the tick sorted was, +1
	owner   map[uint32]uint16           // label id -> the player it is attached to, as its shows say
	// by viewer, by player id: the last tick+1 the player was among the
	// viewer's lateK nearest (markNear)
	nearAt [][wire.MaxPlayers]int32
	// the players newly among a viewer's lateK nearest and not shown to
	// it yet, since when; and how long each such wait lasted, ticks: until
	// the show (late) or until the player left the lateK nearest unshown
	// (unshown)
	waits         []nearWait
	late, unshown []int32
	on            bool // counting (the measure), not warming up
}

func newFlapCount(c *oneSpot) *flapCount {
	h := &flapCount{c: c, byID: make([]int, wire.MaxPlayers), owner: map[uint32]uint16{}}
	h.lastP = make([][wire.MaxPlayers]flapLast, len(c.ms))
	h.lastL = make([][wire.MaxPlayers]flapLast, len(c.ms))
	h.sorted = make([][]float32, len(c.ms))
	h.sortAt = make([]int, len(c.ms))
	h.nearAt = make([][wire.MaxPlayers]int32, len(c.ms))
	for i, m := range c.ms {
		h.byID[m.p.id] = i
		c.conns[i].churn, c.conns[i].viewer = h, i
	}
	return h
}

// event counts one event for viewer v about the player id (a PlayerShow,
// or a Label3D attached to the player).
func (h *flapCount) event(v int, msg []byte) {
	var id uint16
	show := msg[7] == 1
	k, last := &h.players, &h.lastP[v]
	switch msg[0] {
	case wire.IDPlayerShow:
		id = binary.LittleEndian.Uint16(msg[5:])
	case wire.IDLabel3D:
		label := binary.LittleEndian.Uint32(msg[5:])
		show = msg[9] == 1
		if msg[9] == 1 { // a show names the player; a hide only the label
			if msg[30] != wire.AttachPlayer {
				return
			}
			h.owner[label] = uint16(binary.LittleEndian.Uint32(msg[31:]))
		}
		var ok bool
		if id, ok = h.owner[label]; !ok {
			return
		}
		k, last = &h.labels, &h.lastL[v]
	default:
		return
	}
	if !h.on {
		return
	}
	now := int32(*h.c.conns[v].tick) + 1
	l := &last[id]
	k.events++
	flap2 := false
	for i, win := range churnWindows {
		if l.at != 0 && now-l.at <= int32(win) {
			k.flaps[i]++
			if show {
				k.returns[i]++
			} else {
				k.visits[i]++
			}
			if !l.counted[i] {
				k.flaps[i]++ // the pair's first event
			}
			l.counted[i] = true
			if i == 1 {
				flap2 = true
			}
		} else {
			l.counted[i] = false
		}
	}
	l.at = now
	b := h.bandOf(v, id, k == &h.labels, show)
	k.band[b]++
	if show {
		k.bandShows[b]++
	}
	if flap2 {
		k.bandFlaps[b]++
	}
}

// lateK is how many nearest players a show's lateness is measured for.
const lateK = 50

// nearWait is a player newly among a viewer's lateK nearest, not shown
// to it yet.
type nearWait struct {
	v     int
	id    uint16
	since int32
}

// markNear records, between the moves and the tick, which players are
// each viewer's lateK nearest (by the world's grid); a player newly among
// them that the viewer is not shown waits until it is shown (late, counted
// by the tick of the show) or leaves them (unshown).
func (h *flapCount) markNear() {
	now := int32(*h.c.conns[0].tick) + 1
	var hits []grid.Hit
	for v, m := range h.c.ms {
		hits = h.c.w.ents.playerGrid.Lookup(m.p.scope).Nearest(m.p.pos, lateK+1, hits[:0])
		for _, x := range hits {
			id := uint16(x.Key)
			if id == m.p.id {
				continue
			}
			if _, shown := m.p.ent.players.Shown(uint32(id)); h.nearAt[v][id] != now-1 && !shown {
				h.waits = append(h.waits, nearWait{v, id, now})
			}
			h.nearAt[v][id] = now
		}
	}
	kept := h.waits[:0]
	for _, x := range h.waits {
		switch {
		case h.nearAt[x.v][x.id] != now:
			h.unshown = append(h.unshown, now-x.since)
		default:
			kept = append(kept, x)
		}
	}
	h.waits = kept
}

// shownWaits ends, after the tick, the waits of the players it showed.
func (h *flapCount) shownWaits() {
	now := int32(*h.c.conns[0].tick) + 1
	kept := h.waits[:0]
	for _, x := range h.waits {
		if _, ok := h.c.ms[x.v].p.ent.players.Shown(uint32(x.id)); ok {
			h.late = append(h.late, now-x.since)
		} else {
			kept = append(kept, x)
		}
	}
	h.waits = kept
}

// bandOf returns the band of the player id for viewer v: by its rank for
// a player event (whose distances it adds up), by its distance for a
// label one.
func (h *flapCount) bandOf(v int, id uint16, label, show bool) int {
	q, o := h.c.ms[v].p, h.c.ms[h.byID[id]].p
	d2 := grid.Dist2(q.pos, o.pos)
	if label {
		d := float32(math.Sqrt(float64(d2)))
		for i, b := range distBands {
			if d <= b {
				return i
			}
		}
	}
	now := *h.c.conns[v].tick + 1
	if h.sortAt[v] != now {
		s := h.sorted[v][:0]
		for _, m := range h.c.ms {
			if m.p != q {
				s = append(s, grid.Dist2(q.pos, m.p.pos))
			}
		}
		slices.Sort(s)
		h.sorted[v], h.sortAt[v] = s, now
	}
	rank, _ := slices.BinarySearch(h.sorted[v], d2)
	rank++
	d, cut := math.Sqrt(float64(d2)), math.Sqrt(float64(h.sorted[v][min(PlayerLimit, len(h.sorted[v]))-1]))
	if show {
		h.players.showD += d
	} else {
		h.players.hideD += d
	}
	h.players.cutD += cut
	for i, b := range rankBands {
		if rank <= b {
			return i
		}
	}
	return len(rankBands) - 1
}

// BenchmarkCrossingChurn runs the crossing streams (newCrossing) and
// reports the churn of their PlayerShow and Label3D events (see above):
// player-ops/tick and label-ops/tick, and for each the share of events in
// a flap within 1, 2 and 5 s (flap1s-%, ...); and by band, the share of
// the events (p-rank≤150-%, ... for players by rank, l-d≤30m-%, ... for
// labels by distance) and the share of those that flap within 2 s
// (p-rank≤150-flap2s-%); p-show-m, p-hide-m and p-200th-m the mean
// distances of a player shown, hidden, and of the viewer's 200th nearest
// then; near50-late-s and near50-unshown-% how long a player newly among a
// viewer's 50 nearest waits for its show, and how many leave them unshown
// (markNear); and near50-missing as BenchmarkCrowdCrossing. The
// sub-benchmarks are the hold factors (hold-0.64 is the rule's). Its time
// is not the tick's (the counting sorts every viewer's distances):
// BenchmarkCrowdCrossing measures that. Run it at -benchtime 800x.
func BenchmarkCrossingChurn(b *testing.B) {
	for _, f := range []float32{PlayerHoldFactor, 1, 0.5} {
		b.Run(fmt.Sprintf("hold-%.2f", f), func(b *testing.B) {
			defer func(f float32) { holdFactor = f }(holdFactor)
			holdFactor = f
			benchChurn(b)
		})
	}
}

func benchChurn(b *testing.B) {
	c := newCrossing(b, false)
	h := newFlapCount(c)
	for range crossingWarm {
		c.runLine()
		c.w.Tick(c.now)
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	h.on = true
	n := 0
	var missed []int
	var near [len(nearKs)]float64
	for b.Loop() {
		c.runLine()
		h.markNear()
		c.w.Tick(c.now)
		h.shownWaits()
		n++
		if n%missedEvery == 0 {
			missed, near = c.missed(missed, near)
		}
	}
	h.report(b, n)
	if len(h.late) > 0 {
		slices.Sort(h.late)
		var sum int64
		for _, t := range h.late {
			sum += int64(t)
		}
		all := len(h.late) + len(h.unshown)
		b.ReportMetric(float64(sum)/float64(len(h.late))/20, "near50-late-s")
		b.ReportMetric(float64(h.late[len(h.late)*9/10])/20, "near50-late-p90-s")
		b.ReportMetric(100*float64(len(h.unshown))/float64(all), "near50-unshown-%")
		b.ReportMetric(float64(all)/float64(len(h.c.ms))/float64(n), "near50-new/viewer-tick")
	}
	for i, k := range nearKs {
		b.ReportMetric(near[i]/float64(max(len(missed), 1)), fmt.Sprintf("near%d-missing", k))
	}
}

func (h *flapCount) report(b *testing.B, ticks int) {
	p := &h.players
	var shows, hides int
	for i := range rankBands {
		shows += p.bandShows[i]
		hides += p.band[i] - p.bandShows[i]
	}
	b.ReportMetric(p.showD/float64(max(shows, 1)), "p-show-m")
	b.ReportMetric(p.hideD/float64(max(hides, 1)), "p-hide-m")
	b.ReportMetric(p.cutD/float64(max(p.events, 1)), "p-200th-m")
	for _, k := range []struct {
		name string
		k    *flapKind
	}{{"player", &h.players}, {"label", &h.labels}} {
		e := float64(max(k.k.events, 1))
		b.ReportMetric(float64(k.k.events)/float64(ticks), k.name+"-ops/tick")
		for i, win := range churnWindows {
			b.ReportMetric(100*float64(k.k.flaps[i])/e, fmt.Sprintf("%s-flap%ds-%%", k.name[:1], win/20))
			b.ReportMetric(100*float64(k.k.visits[i])/e, fmt.Sprintf("%s-visit%ds-%%", k.name[:1], win/20))
			b.ReportMetric(100*float64(k.k.returns[i])/e, fmt.Sprintf("%s-return%ds-%%", k.name[:1], win/20))
		}
		for i := range rankBands {
			var name string
			switch {
			case k.k == &h.labels && i < len(distBands)-1:
				name = fmt.Sprintf("l-d≤%.0fm", distBands[i])
			case k.k == &h.labels:
				name = fmt.Sprintf("l-d>%.0fm", distBands[i-1])
			case i < len(rankBands)-1:
				name = fmt.Sprintf("p-rank≤%d", rankBands[i])
			default:
				name = fmt.Sprintf("p-rank>%d", rankBands[i-1])
			}
			b.ReportMetric(100*float64(k.k.band[i])/e, name+"-%")
			b.ReportMetric(100*float64(k.k.bandFlaps[i])/float64(max(k.k.band[i], 1)), name+"-flap2s-%")
			b.ReportMetric(100*float64(k.k.bandShows[i])/float64(max(k.k.band[i], 1)), name+"-shows-%")
		}
	}
}
