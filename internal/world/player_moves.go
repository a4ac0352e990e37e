package world

import (
	"cmp"
	"slices"

	"dlmp/internal/grid"
	"dlmp/internal/wire"
)

// Player moves: the unreliable PlayerMove of every shown player, each tick
// (ADR 0126, decision 0180).

// encodeMoves encodes this tick's PlayerMove of every player with a new
// accepted sync (its state must be one PlayerMove carries), back to back
// in one buffer (moves.buf), and notes by player id the one a viewer is
// sent this tick (moves.send).
func (w *World) encodeMoves() {
	if len(w.ents.moves.send) != len(w.players) {
		w.ents.moves.send = make([]uint64, len(w.players))
		w.ents.moves.pos = make([]grid.Vec, len(w.players))
	}
	tick, far, farPh := w.ents.tick, w.rates.far, &w.rates.farPh
	farK, _ := w.tickPhases()
	send, pos, buf := w.ents.moves.send, w.ents.moves.pos, w.ents.moves.buf[:0]
	for i, p := range w.players {
		if p == nil {
			send[i], pos[i] = 0, grid.Vec{}
			continue
		}
		e := &p.ent
		ref := moveRef{off: uint32(len(buf))}
		if e.moved {
			e.moved, e.lastMoved = false, tick
			if m := p.moveOf(tick); m.CheckSend() == nil {
				buf = m.Append(buf)
				ref.near = true
			}
		}
		// Far viewers get the latest state every far interval: encoded
		// while a move is at most that old, so the last one always lands.
		// With a move this tick it is that move, seq and all.
		farTick := farPh[i] == farK
		if !ref.near && farTick && tick-e.lastMoved < far && e.lastMoved != 0 {
			if m := p.moveOf(tick); m.CheckSend() == nil {
				buf = m.Append(buf)
			}
		}
		ref.n = uint8(uint32(len(buf)) - ref.off)
		send[i], pos[i] = 0, p.pos
		if ref.n > 0 && (ref.near || farTick) {
			send[i] = ref.span()
		}
	}
	w.ents.moves.buf = buf
}

// moves is this tick's PlayerMoves, by player id.
type moves struct {
	send []uint64   // by player id: what a viewer is sent of it this tick, as a span of buf (moveRef.span); 0: nothing
	pos  []grid.Vec // by player id: the movers' positions this tick (encodeMoves)
	buf  []byte     // this tick's PlayerMoves, back to back
	run  []uint64   // sendPlayerMoves' scratch: one viewer's moves, as spans of buf

	// warmMoves' window: the viewers whose lines it loaded this tick
	// (players[:warmTo] at warmTick), and the sum of what it loaded.
	warmTick uint32
	warmTo   int
	warmSum  uint32

	// The phases of tick phaseTick (tickPhases): a player's far tick, and
	// a viewer's crowd split, come when its phase (rates.farPh, crowdPh)
	// is these.
	phaseTick    uint32
	farK, crowdK uint8
}

// moveRef is where a mover's PlayerMove of this tick is in moves.buf.
//
// What sendPlayerMoves reads of a mover is one span, kept dense by player
// id (moves.send, 8 bytes a player): a viewer's loop over the players it
// is shown touches that table, not every shown player's struct. Whether a
// mover is sent to a viewer on a tick depends on the viewer only by near
// or far, and a viewer reads a far mover only on its far tick
// ((tick + id) % rates.far == 0, the far list of that phase): on that
// tick every viewer is sent its latest state, on the others only a near
// viewer its move of the tick. So the span is the same for every viewer
// that reads it, worked out once a tick here rather than per viewer
// (decision 0371). The movers' positions, which splitMoves reads, are a
// table of their own (moves.pos): 12 bytes a player, the whole crowd's in
// the first level cache.
type moveRef struct {
	off  uint32 // where the mover's PlayerMove this tick is in moves.buf
	n    uint8  // its length; 0: none this tick, for near or far viewers
	near bool   // it is a move of this tick, for near viewers too (otherwise far viewers only)
}

// span returns where the mover's PlayerMove of this tick is in moves.buf,
// as sendSpans takes it: off | n<<32.
func (m moveRef) span() uint64 { return uint64(m.off) | uint64(m.n)<<32 }

// Player moves are sent at the full tick rate to viewers within
// NearMoveDistance, and every FarMoveInterval beyond it (decision 0180):
// the far ones are small on the screen, and most of the traffic of a crowd.
//
// In a crowd the near ones are also the NearMoveLimit nearest (decision
// 0244): with everybody within 60 m of everybody (the default world's one
// spawn point), each client was sent the moves of its 200 shown players on
// every tick, ~7 datagrams per tick per client.
//
// In a crowd (more than NearMoveLimit within NearMoveDistance at the last
// split) the near ones are worked out again every CrowdSplitFar far
// intervals rather than every one (decision 0290): a split reads the
// distance of every shown player (~200 in a crowd), and a crowd's nearest
// 50 change little in 0.8 s.
const (
	NearMoveDistance = 60
	NearMoveLimit    = 50
)

// moveOf returns p's last accepted sync as a PlayerMove with seq.
func (p *Player) moveOf(seq uint32) *wire.PlayerMove {
	s := &p.ent.last
	return &wire.PlayerMove{Seq: seq, PlayerID: p.id, State: s.State, X: s.X, Y: s.Y, Z: s.Z, Heading: s.Heading,
		VX: s.VX, VY: s.VY, VZ: s.VZ, Health: s.Health, Armour: s.Armour, Weapon: s.Weapon,
		VehicleID: s.VehicleID, Seat: s.Seat}
}

// sendPlayerMoves sends q the PlayerMove of every shown player that moved
// this tick, and of every player shown this tick. Which shown players are
// near is worked out again every far interval (every CrowdSplitFar of them
// in a crowd) and when the players shown change (splitMoves), not for
// every pair on every tick. A player is sent its latest state on its far
// tick whether near or far (once the near moves stopped, that is the one
// that lands the state it stopped in), so a split that is a few ticks old
// never loses a final state.
func (w *World) sendPlayerMoves(q *Player) {
	e := &q.ent
	tick := w.ents.tick
	farK, _ := w.tickPhases()
	if mv := &w.ents.moves; mv.warmTick != tick || int(q.id) >= mv.warmTo {
		w.warmMoves(int(q.id))
	}
	if w.splitDue(q) {
		w.splitMoves(q)
	}
	send, buf := w.ents.moves.send, w.ents.moves.buf
	// Every near player's span, and every far one's whose tick this is
	// ((tick + id) % rates.far == 0), is written to the run, and only a
	// span to send (not 0: a player who did not move, or left) moves on
	// (b2i): at 50 Hz 2 players in 5 sync a tick, and a branch on the
	// span went one way or the other at random.
	nearP, farP := e.nearP, e.farP[farK]
	run := slices.Grow(w.ents.moves.run[:0], len(nearP)+len(farP))
	run = run[:len(nearP)+len(farP)]
	n := 0
	for _, id := range nearP {
		sp := send[id]
		run[n] = sp
		n += b2i(sp != 0)
	}
	for _, id := range farP {
		sp := send[id]
		run[n] = sp
		n += b2i(sp != 0)
	}
	run = run[:n]
	for _, id := range e.freshP {
		o := w.players[id]
		if o == nil || o.ent.last.State == 0 {
			continue
		}
		// Sent above: this tick's move to a near viewer, or a move on the
		// player's far tick. A player placed far that moved off its far
		// tick is sent here, so the show's first move is never late.
		sp := send[id]
		if sp != 0 && (w.rates.farPh[id] == farK || slices.Contains(e.nearP, id)) {
			continue
		}
		if !e.shownBits.has(id) { // the view's shown set, as bits (streamPlayersNow)
			continue
		}
		if sp != 0 {
			// Its move of this tick is in buf already, the bytes moveOf(tick)
			// encodes (encodeMoves): one more span of the run, after the
			// others as before, rather than a packet copied into q's
			// connection, after which the run is packed apart (decision 0390).
			run = append(run, sp)
			continue
		}
		if m := o.moveOf(w.ents.tick); m.CheckSend() == nil {
			sendSpans(q.conn, buf, run) // the moves before it first, in order
			run = run[:0]
			w.ents.buf = m.Append(w.ents.buf[:0])
			q.conn.SendUnreliable(w.ents.buf)
		}
	}
	sendSpans(q.conn, buf, run)
	w.ents.moves.run = run[:0]
	e.freshP = e.freshP[:0]
}

// MovesWarmAhead is how many viewers, by id, warmMoves loads at once.
const MovesWarmAhead = 32

// warmMoves loads the lines sendPlayerMoves reads of the viewers
// players[from : from+MovesWarmAhead] this tick: their entity's lists, the
// near ones and the far ones of the tick's phase, the shown ones when they
// are split this tick, and their connection's (moveWarmer). Each viewer's
// are a few cold lines, each read only once its list's header is, so a
// viewer alone waited on two or three misses one after the other; in this
// loop of loads alone the viewers' misses overlap (decisions 0368, 0389).
// Nothing is written: what it loads is summed into moves.warmSum, that the
// loads stay.
func (w *World) warmMoves(from int) {
	mv := &w.ents.moves
	tick := w.ents.tick
	k, _ := w.tickPhases()
	end := min(from+MovesWarmAhead, len(w.players))
	sum := uint32(0)
	for _, p := range w.players[from:end] {
		if p == nil || p.gone {
			continue
		}
		e := &p.ent
		sum += warmIDs(e.nearP) + warmIDs(e.farP[k]) + uint32(len(e.freshP))
		if w.splitDue(p) {
			sum += warmIDs(e.shownP)
		}
		if c, ok := p.conn.(moveWarmer); ok {
			sum += c.WarmMoves()
		}
	}
	mv.warmTick, mv.warmTo, mv.warmSum = tick, end, mv.warmSum+sum
}

// warmIDs loads every cache line of ids (one id of each 64 bytes from the
// first, and the last) and returns the sum of the ids it loaded.
func warmIDs(ids []uint16) uint32 {
	sum := uint32(0)
	for j := 0; j < len(ids); j += 32 {
		sum += uint32(ids[j])
	}
	if last := len(ids) - 1; last > 0 && last%32 != 0 { // not loaded above
		sum += uint32(ids[last])
	}
	return sum
}

// moveWarmer is a connection that loads the lines its SendUnreliableSpans
// reads (transport.Session) and returns some of what it loaded.
type moveWarmer interface {
	WarmMoves() uint32
}

// spanSender is a connection that queues a run of unreliable packets at
// once, each a span of one shared buffer (transport.Session): its checks
// and buffers are read once per run. The transport copies the buffer once
// a tick and the connections' datagrams point into that copy, so a packet
// is not copied per viewer on the tick's goroutine (decision 0355).
type spanSender interface {
	// SendUnreliableSpans queues the packets buf[off : off+n], in order,
	// for each span off | n<<32 of spans. buf (moves.buf) must not change
	// until the transport's next Flush: encodeMoves writes it once a tick,
	// before the sends, and the server flushes after every world tick.
	SendUnreliableSpans(buf []byte, spans []uint64)
}

// sendSpans sends c the packets of buf at spans (off | n<<32), in order:
// in one call when c takes spans, else one by one.
func sendSpans(c Conn, buf []byte, spans []uint64) {
	if r, ok := c.(spanSender); ok {
		r.SendUnreliableSpans(buf, spans)
		return
	}
	for _, sp := range spans {
		off, n := uint32(sp), uint32(sp>>32)
		c.SendUnreliable(buf[off : off+n : off+n])
	}
}

// splitDue reports whether q's near and far movers are split again this
// tick (splitMoves), staggered by id: every far interval, and every
// CrowdSplitFar of them while q's last split found a crowd (decision 0290).
func (w *World) splitDue(q *Player) bool {
	far, crowd := w.tickPhases()
	if q.ent.nearCut2 > 0 {
		return w.rates.crowdPh[q.id] == crowd
	}
	return w.rates.farPh[q.id] == far
}

// tickPhases returns this tick's phases (phaseOf) of the far interval and
// of the crowd split, worked out once a tick rather than per viewer.
func (w *World) tickPhases() (far, crowd uint8) {
	mv := &w.ents.moves
	if t := w.ents.tick; mv.phaseTick != t {
		mv.phaseTick = t
		mv.farK, mv.crowdK = phaseOf(t, w.rates.far), phaseOf(t, w.rates.crowdSplit)
	}
	return mv.farK, mv.crowdK
}

// splitMoves sorts the players q is shown into near and far (by id) for
// sendPlayerMoves, when splitDue. Near: within NearMoveDistance
// and, when more are, within the distance of the NearMoveLimit-th nearest
// of them (ties at it are near). In between, a player shown is placed by
// that cut and a player hidden taken out (placeMove, unplaceMove): in a
// crowd the views change on most ticks, and a full split at each change
// would select the nearest on most ticks.
//
// One pass over the shown players sorts them by NearMoveDistance; in a
// crowd a second pass over the near ones alone (about a quarter of them)
// moves those past the cut to the far lists (decision 0371).
func (w *World) splitMoves(q *Player) {
	e := &q.ent
	pos, from := w.ents.moves.pos, q.pos
	near2 := float32(NearMoveDistance * NearMoveDistance)
	// Every shown player is written to the near list and to its far one,
	// and only the one it belongs to moves on (b2i): no branch on the
	// distance, which goes one way or the other at random in a crowd.
	n := len(e.shownP)
	nearP := slices.Grow(e.nearP[:0], n)[:n]
	nearD := slices.Grow(e.nearD[:0], n)[:n]
	farPh := &w.rates.farPh
	far := e.farP
	for i := range far {
		far[i] = slices.Grow(far[i][:0], n)[:n]
	}
	k, fn := 0, [maxFarPhases]int{}
	for _, id := range e.shownP {
		d := grid.Dist2(from, pos[id])
		j := farPh[id]
		nearP[k], nearD[k], far[j][fn[j]] = id, d, id
		in := b2i(d <= near2)
		k += in
		fn[j] += 1 - in
	}
	nearP, nearD = nearP[:k], nearD[:k]
	for i := range far {
		far[i] = far[i][:fn[i]]
	}
	last := e.nearCut2
	e.nearCut2 = 0 // not a crowd: NearMoveDistance
	if len(nearP) > NearMoveLimit {
		sel := append(e.nearSel[:0], nearD...) // nearCut reorders it
		cut := nearCut(sel, last)
		e.nearSel, e.nearCut2 = sel, cut
		n := 0
		for i, id := range nearP {
			if nearD[i] <= cut {
				nearP[n] = id
				n++
			} else {
				j := farPh[id]
				far[j] = append(far[j], id)
			}
		}
		nearP = nearP[:n]
	}
	e.nearP, e.nearD = nearP, nearD
}

// b2i is 1 for true, 0 for false (a SETcc, not a branch).
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// nearCut returns the NearMoveLimit-th smallest of d (more than
// NearMoveLimit squared distances), reordering d. last, when not 0, is the
// last split's cut: a crowd moves little between splits (CrowdSplitFar far
// intervals), so about NearMoveLimit of d are still within it; d is split
// at last in one pass and the selection runs in the part that holds the
// answer, the few at the edge, rather than in all of d. The answer is the
// same.
func nearCut(d []float32, last float32) float32 {
	k := NearMoveLimit - 1
	if last <= 0 {
		return nthSmallest(d, k)
	}
	m := 0 // d[:m] ≤ last < d[m:]
	for i, x := range d {
		if x <= last {
			d[m], d[i] = d[i], d[m]
			m++
		}
	}
	switch {
	case m == k+1: // the same players are the nearest: the farthest of them
		return slices.Max(d[:m])
	case m > k:
		return nthSmallest(d[:m], k)
	case m == k: // one came in or went out: the nearest past the last cut
		return slices.Min(d[m:])
	case k-m < len(few{}):
		return fewSmallest(d[m:], k-m)
	}
	return nthSmallest(d[m:], k-m)
}

// few holds the smallest values fewSmallest has seen, ascending.
type few [8]float32

// fewSmallest returns the j-th smallest of d (from 0, j < len(few{}),
// j < len(d)) in one pass: most values are past the j+1 smallest seen, one
// comparison each.
func fewSmallest(d []float32, j int) float32 {
	var s few
	n := 0
	for _, x := range d {
		if n > j && x >= s[j] {
			continue
		}
		i := min(n, j) // insert x in s[:j+1], ascending, dropping the last
		for i > 0 && s[i-1] > x {
			s[i] = s[i-1]
			i--
		}
		s[i] = x
		n = min(n+1, j+1)
	}
	return s[j]
}

// placeMove puts player id, shown now at pos, among the viewer's near or
// far movers (the viewer is at from) by the last split's cut, farPh being
// the world's far phases by id (rates.farPh). The caller takes a player
// shown again (at a new rev) out first (unplaceMove): a fresh show is in
// neither list, since a hide takes the player out of them as it clears its
// shown bit, and a split builds them from the shown ones only, so its show
// is an append without a scan (decision 0386).
func (e *playerEnt) placeMove(from grid.Vec, id uint16, pos grid.Vec, farPh *[MaxPlayers]uint8) {
	near2 := float32(NearMoveDistance * NearMoveDistance)
	if e.nearCut2 > 0 {
		near2 = min(near2, e.nearCut2)
	}
	if grid.Dist2(from, pos) <= near2 {
		e.nearP = append(e.nearP, id)
	} else {
		j := farPh[id]
		e.farP[j] = append(e.farP[j], id)
	}
}

// unplaceMove takes player id, hidden, out of the viewer's near and far
// movers.
func (e *playerEnt) unplaceMove(id uint16, farPh *[MaxPlayers]uint8) {
	e.nearP = removeID(e.nearP, id)
	j := farPh[id]
	e.farP[j] = removeID(e.farP[j], id)
}

// nthSmallest returns the k-th smallest of d (from 0), reordering d
// (quickselect: linear on average, for the ~200 players a viewer is shown).
func nthSmallest[T cmp.Ordered](d []T, k int) T {
	lo, hi := 0, len(d)-1
	for lo < hi {
		// Median of three as the pivot, then Hoare's partition.
		mid := lo + (hi-lo)/2
		if d[mid] < d[lo] {
			d[mid], d[lo] = d[lo], d[mid]
		}
		if d[hi] < d[lo] {
			d[hi], d[lo] = d[lo], d[hi]
		}
		if d[hi] < d[mid] {
			d[hi], d[mid] = d[mid], d[hi]
		}
		pivot := d[mid]
		i, j := lo, hi
		for i <= j {
			for d[i] < pivot {
				i++
			}
			for d[j] > pivot {
				j--
			}
			if i <= j {
				d[i], d[j] = d[j], d[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return d[k]
		}
	}
	return d[k]
}
