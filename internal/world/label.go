package world

import (
	"encoding/binary"
	"fmt"
	"math"

	"dlmp/internal/grid"
	"dlmp/internal/lane"
	"dlmp/internal/stream"
	"dlmp/internal/wire"
)

// 3D text labels (world.md Label3D). A label is shown to a player in its
// scope, within its draw distance, among the 256 nearest. A label attached
// to a player or a vehicle is at the entity's position plus its offset, is
// never shown to the player it is on, and is shown to others only while the
// entity is streamed to them (their player or vehicle view:
// [World.labelsOnShown]). A label with a viewer is shown only to that
// viewer. Deleting the attached entity or the viewer (their leave) deletes
// the label. Labels reconcile on every change and on the slow pass.

// LabelParams is what create_label takes and a change replaces.
type LabelParams struct {
	Text         string     // UTF-8, at most 255 bytes, no NUL
	Color        uint32     // 0xRRGGBB
	Pos          grid.Vec   // world position; the offset from the entity when attached
	DrawDistance float32    // (0, 300]
	Scope        grid.Scope // ignored when attached: the entity's scope counts
	AttachKind   uint8      // wire.AttachNone, wire.AttachPlayer or wire.AttachVehicle
	AttachID     uint32     // the player or vehicle id when attached
	Viewer       *Player    // the only player shown the label; nil for everyone
}

// Label is one 3D text label. Read it with [World.Label].
type Label struct {
	params LabelParams
	id     uint32
	rev    uint32 // grows with every change
	h      grid.Handle
	slot   int32  // attached to a player: its place in the dense table (label_pass.go)
	encRev uint32 // the rev enc is the show of; 0: none yet
	// enc is its show, checked and encoded at encRev (sendLabelOps): in
	// the struct, after the fields a send reads, so that a show's bytes
	// are at an address known with the label's, not behind a pointer read
	// from it (decision 0397).
	enc [wire.Label3DLen]byte
}

// ID returns the label id.
func (l *Label) ID() uint32 { return l.id }

// Params returns the label's current parameters.
func (l *Label) Params() LabelParams { return l.params }

func (l *Label) attached() bool { return l.params.AttachKind != wire.AttachNone }

// Label returns the label with the id, or nil.
func (w *World) Label(id uint32) *Label { return w.prims.labels[id] }

// CreateLabel creates a label and returns its id (monotonic, never reused,
// shared with blips, gang zones and checkpoints). The parameters are checked
// with Label3D's send rules; an attached player and a viewer must be
// connected.
func (w *World) CreateLabel(lp LabelParams) (uint32, error) {
	if err := w.checkLabel("create_label", lp); err != nil {
		return 0, err
	}
	l := &Label{params: lp, id: w.prims.nextID(), rev: 1}
	w.prims.labels[l.id] = l
	w.prims.labelFind.put(l)
	w.placeLabel(l)
	w.labelChanged(l, l.params)
	return l.id, nil
}

// SetLabel replaces a label's parameters (text, color, position, distance,
// attachment, viewer): every player who sees it gets the new show, and who
// no longer should sees it hidden.
func (w *World) SetLabel(id uint32, lp LabelParams) error {
	l := w.prims.labels[id]
	if l == nil {
		return stateErr("set_label", "label", "no label %d", id)
	}
	if err := w.checkLabel("set_label", lp); err != nil {
		return err
	}
	old := l.params
	w.unplaceLabel(l)
	l.params = lp
	l.rev++
	w.placeLabel(l)
	if old.Pos == lp.Pos && old.DrawDistance == lp.DrawDistance && old.Scope == lp.Scope &&
		old.AttachKind == lp.AttachKind && old.AttachID == lp.AttachID && old.Viewer == lp.Viewer {
		// In place (its text or color): wanted by the same players; only
		// who has it shown needs the new show
		// (docs/decisions/0197-in-place-changes.md).
		w.labelShownChanged(l)
		return nil
	}
	w.labelChanged(l, old)
	return nil
}

// labelShownChanged reconciles at once the players who have l shown, and
// those with ops left by any pass but a pass of labels on players (one may
// be l's show at its old rev). The ops such a pass left, by its spread
// (label_spread.go) or for lack of room, are not: a show of l among them
// carries l as it is now (sendLabelOps encodes the current rev), and the
// next pass sends it again at its rev; a crowd whose name labels change
// every second does not reconcile every view with a pass's leftovers on
// every change.
func (w *World) labelShownChanged(l *Label) {
	for _, p := range w.players {
		if p != nil && !p.gone && p.prims.labels != nil {
			left := p.prims.labels.Pending() > 0 && p.ent.labels.spread == math.MaxInt
			if _, shown := p.prims.labels.Shown(l.id); shown || left {
				w.reconcileLabels(p)
			}
		}
	}
}

// DeleteLabel deletes a label: every player it is shown to gets a hide.
func (w *World) DeleteLabel(id uint32) error {
	l := w.prims.labels[id]
	if l == nil {
		return stateErr("delete_label", "label", "no label %d", id)
	}
	w.unplaceLabel(l)
	delete(w.prims.labels, id)
	w.prims.labelFind.forget(l)
	w.labelGone(l)
	return nil
}

// labelGone hides a deleted label from the players who show it, without a
// reconcile of everyone it may have concerned (a player's leave deletes
// the labels on them: in a crowd, one reconcile of every player per leave):
// only who shows it changes. A player whose view is full reconciles (the
// next nearest label takes the place), and so does one without room for
// the hide (it is left to send). A show of it left to send goes with that
// view's next reconcile, which runs while ops are left (tickPrims).
func (w *World) labelGone(l *Label) {
	for _, p := range w.players {
		if p == nil || p.gone || p.prims.labels == nil {
			continue
		}
		v := p.prims.labels
		if _, shown := v.Shown(l.id); !shown {
			continue
		}
		if v.Len() >= stream.Labels.Limit() || takeRoom(p) <= 0 {
			w.reconcileLabels(p)
			continue
		}
		v.Drop(l.id)
		w.sendLabelHide(p, l.id)
	}
}

func (w *World) checkLabel(fn string, lp LabelParams) error {
	var pkt wire.Label3D
	if err := pkt.SetText(lp.Text); err != nil {
		return fieldArgErr(fn, err)
	}
	fillLabel(&pkt, &Label{params: lp})
	if err := pkt.CheckSend(); err != nil {
		return fieldArgErr(fn, err)
	}
	if err := w.checkAttach(fn, lp.AttachKind, lp.AttachID); err != nil {
		return err
	}
	if v := lp.Viewer; v != nil && (v.left || w.players[v.id] != v) {
		return stateErr(fn, "viewer", "must be a connected player, player %d left", v.id)
	}
	return nil
}

// checkAttach checks an attachment: none, a connected player or a vehicle.
func (w *World) checkAttach(fn string, kind uint8, id uint32) error {
	switch kind {
	case wire.AttachNone:
		if id != 0 {
			return &ArgError{Func: fn, Arg: "attach_id", Rule: fmt.Sprintf("must be 0 when not attached, got %d", id)}
		}
		return nil
	case wire.AttachPlayer:
		if id > 0xFFFF || w.Player(uint16(id)) == nil {
			return stateErr(fn, "attach_id", "must be a connected player, got %d", id)
		}
		return nil
	case wire.AttachVehicle:
		if id > 0xFFFF || w.Vehicle(uint16(id)) == nil {
			return stateErr(fn, "attach_id", "must be a vehicle of the world, got %d", id)
		}
		return nil
	}
	return &ArgError{Func: fn, Arg: "attach_kind", Rule: fmt.Sprintf("must be 0 (none), 1 (player) or 2 (vehicle), got %d", kind)}
}

func (w *World) placeLabel(l *Label) {
	if l.attached() {
		w.prims.attLabel[l.id] = l
		w.addLabelOn(l)
		return
	}
	g := w.labelGrids(l).Get(l.params.Scope)
	l.h = g.Insert(l.id, l.params.Pos, l.params.DrawDistance)
	g.SetRev(l.h, l.rev) // the box caches' fingerprints read it
}

// labelGrids returns the grids of an unattached label: labelG, whose views
// the box caches answer, or, for a label with a viewer, labelOwnG, whose
// hits each query filters for its player.
func (w *World) labelGrids(l *Label) *grid.Scopes {
	if l.params.Viewer != nil {
		return w.prims.labelOwnG
	}
	return w.prims.labelG
}

func (w *World) unplaceLabel(l *Label) {
	if l.attached() {
		delete(w.prims.attLabel, l.id)
		w.removeLabelOn(l)
		return
	}
	s := w.labelGrids(l)
	g := s.Get(l.params.Scope)
	g.Remove(l.h)
	if g.Len() == 0 {
		s.Prune(l.params.Scope)
	}
}

// labelChanged reconciles at once every player who has the label shown or
// may see it now (before the change it had old).
func (w *World) labelChanged(l *Label, old LabelParams) {
	for _, p := range w.players {
		if p == nil || p.gone {
			continue
		}
		p.prims.init()
		_, shown := p.prims.labels.Shown(l.id)
		if shown || w.labelNear(p, &l.params) || w.labelNear(p, &old) {
			w.reconcileLabels(p)
		}
	}
}

// labelNear reports whether a label with lp may be wanted by p: roughly in
// reach, without the nearest-N cut.
func (w *World) labelNear(p *Player, lp *LabelParams) bool {
	if !p.hasPos {
		return false
	}
	if lp.AttachKind != wire.AttachNone {
		// Wanted only while its entity is streamed to p (labelWants reads
		// labelsOnShown): a name label made for each joining player
		// concerns nobody yet, not every player.
		return w.StreamedTo(Kind(lp.AttachKind), lp.AttachID, p)
	}
	r := lp.DrawDistance + 1
	return lp.Scope == p.scope && grid.Dist2(p.pos, lp.Pos) <= r*r
}

// reconcileLabels diffs p's label view against the labels p should see now.
func (w *World) reconcileLabels(p *Player) {
	if p.gone || p.left {
		return
	}
	s := &p.prims
	s.init()
	pr := &w.prims
	pr.passes[primLabels]++
	if w.passLabels(p) { // label_pass.go: only labels on players in reach
		w.sendLabelOps(p, true)
		return
	}
	if w.stepLabels(p) { // label_step.go
		w.sendLabelOps(p, true)
		return
	}
	var same bool
	pr.wants, same = w.labelWants(p, pr.wants[:0], s.labels)
	w.labelStepFrom(p)
	if same {
		return
	}
	pr.ops = s.labels.Reconcile(pr.wants, w.labelRoom(p, 0, false), stream.HidesFirst, pr.ops[:0])
	w.sendLabelOps(p, true)
}

// flushLabels sends the ops p's last label reconcile left for lack of room
// or by its spread (label_spread.go), as far as the room and the spread
// allow, without computing the wanted set again: a client that fell behind
// is not recomputed for on every tick until it catches up (the same as the
// views of players). The wanted set changes
// between slow passes only by a label's change, which reconciles whom it
// concerns at once (labelChanged, labelShownChanged), or by its deletion,
// whose show left to send is dropped here; a label whose entity is no
// longer streamed to p is not shown (the slow pass wants it again if due).
func (w *World) flushLabels(p *Player) {
	if p.gone || p.left {
		return
	}
	pr := &w.prims
	room := takeRoom(p)
	if s := p.ent.labels.spread; s > 0 { // the rate of the pass that left them (label_spread.go)
		room = min(room, s)
	}
	pr.ops = p.prims.labels.Flush(room, stream.HidesFirst, pr.ops[:0])
	w.sendLabelOps(p, false)
}

// sendLabelOps sends the label ops in w.prims.ops to p. fresh tells that
// they come from a wanted set computed in this call (a reconcile, a step
// or a pass), whose attached labels are on entities p's views show now;
// ops left from an earlier pass (a flush) are checked again.
func (w *World) sendLabelOps(p *Player, fresh bool) {
	pr := &w.prims
	for _, op := range pr.ops {
		if op.Show {
			l := w.labelByID(op.ID) // label_find.go
			if l == nil || !fresh && l.attached() && !w.StreamedTo(Kind(l.params.AttachKind), l.params.AttachID, p) {
				p.prims.labels.Drop(op.ID) // deleted, or its entity gone from p's views since
				continue
			}
			if l.encRev != l.rev {
				fillLabel(&pr.label, l)
				// Not reached: a label is checked on create and change, and
				// a Label3D is Label3DLen bytes (an Append of another length
				// would have left enc stale).
				if pr.label.CheckSend() != nil || len(pr.label.Append(l.enc[:0])) != len(l.enc) {
					continue
				}
				l.encRev = l.rev
			}
			w.sendEncoded(p, l.enc[:], lane.Critical)
			continue
		}
		w.sendLabelHide(p, op.ID)
	}
}

// labelHideTemplate is the hide of label 0, encoded (Label3D, active 0):
// every hide is it with its label id written in, not a Label3D of 291
// bytes filled, checked and encoded for each (decision 0377).
var labelHideTemplate = [wire.Label3DLen]byte(new(wire.Label3D).Append(nil))

// label3DIDAt is where Label3D's label_id is in its encoding.
const label3DIDAt = 5

// sendLabelHide sends p the hide of label id.
func (w *World) sendLabelHide(p *Player, id uint32) {
	h := &w.ents.views.labels.hideEnc
	binary.LittleEndian.PutUint32(h[label3DIDAt:], id)
	w.sendEncoded(p, h[:], lane.Critical)
}

// labelWants appends the labels p should see (before the nearest-N cut).
// With v, p's view, a wanted set equal to the shown one is recognized from
// the box cache's answer and the attached labels, without a list: then v
// did what its Reconcile would and same is true.
func (w *World) labelWants(p *Player, wants []stream.Want, v *stream.View) (_ []stream.Want, same bool) {
	if !p.hasPos {
		return wants, false
	}
	pr := &w.prims
	// The attached labels and the labels with a viewer first: the steady
	// check counts them.
	wants = w.labelExtras(p, wants)
	if w.bruteForce {
		for _, l := range pr.labels {
			if l.attached() || l.params.Scope != p.scope || l.params.Viewer != nil && l.params.Viewer != p {
				continue
			}
			if d := grid.Dist2(p.pos, l.params.Pos); d <= l.params.DrawDistance*l.params.DrawDistance {
				wants = append(wants, stream.Want{ID: l.id, Rev: l.rev, Dist2: d})
			}
		}
		return wants, false
	}
	lc := w.caches.kinds[cacheLabels]
	g, c := lc.get(p.scope)
	if c == nil {
		return wants, false
	}
	box, hits := lc.query(g, c, &p.spots[cacheLabels], p.scope, p.pos, pr.hits[:0])
	pr.hits = hits
	if v != nil {
		n, weight, sum := lc.answerSum(box, hits)
		for _, wt := range wants {
			sum += stream.Mix(wt.ID, wt.Rev)
		}
		if v.Unchanged(n+len(wants), weight+uint64(len(wants)), sum) {
			w.caches.steady[cacheLabels]++
			return wants, true
		}
	}
	pr.hits = box.AppendSure(p.pos, hits)
	for _, h := range pr.hits {
		wants = append(wants, stream.Want{ID: h.Key, Rev: h.Rev, Dist2: h.Dist2})
	}
	return wants, false
}

// fillLabel writes the label's show into s.
func fillLabel(s *wire.Label3D, l *Label) {
	*s = wire.Label3D{LabelID: l.id, Active: 1, Color: l.params.Color, X: l.params.Pos.X, Y: l.params.Pos.Y, Z: l.params.Pos.Z,
		DrawDistance: l.params.DrawDistance, AttachKind: l.params.AttachKind, AttachID: l.params.AttachID}
	s.SetText(l.params.Text) // checked on create and change
}
