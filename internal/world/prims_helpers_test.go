package world

import (
	"fmt"
	"math"
	"slices"
	"testing"
	"time"

	"dlmp/internal/grid"
	"dlmp/internal/lane"
	"dlmp/internal/wire"
)

func (r *recorder) crossed(p *Player, ev string, id uint32) {
	r.crossings = append(r.crossings, fmt.Sprintf("p%d %s %d", p.ID(), ev, id))
	if r.onCross != nil {
		r.onCross(p, ev, id)
	}
}

// takeCrossings returns the crossing events since the last call.
func (f *fixture) takeCrossings() []string {
	s := f.gm.crossings
	f.gm.crossings = nil
	return s
}

// walk moves p to pos with an accepted sync as soon as the speed allowance
// lets them get there, without running a tick.
func (f *fixture) walk(p *Player, c *testConn, pos grid.Vec) {
	f.t.Helper()
	from, _ := p.Position()
	d := math.Sqrt(float64(grid.Dist2(from, pos)))
	f.now = f.now.Add(time.Duration(max(d-SyncSlack, 0)/MaxSpeed*float64(time.Second)) + time.Millisecond)
	f.sync(p, c, pos, 1)
	if got, _ := p.Position(); got != pos {
		f.t.Fatalf("walk to %v: sync not accepted, player at %v", pos, got)
	}
}

// slowPass runs ticks over one SlowPass, so that every player's slow pass
// has run once.
func (f *fixture) slowPass() {
	for range SlowPass / tick {
		f.advance(tick)
	}
}

// mirror is the client's state of the per-player primitives, built from the
// packets it was sent: what it shows, by id. apply fails the test on a
// packet that is not critical, a hide of something not shown, or a client
// holding more than a kind's limit.
type mirror struct {
	labels map[uint32]*wire.Label3D
	blips  map[uint32]*wire.Blip
	zones  map[uint32]*wire.GangZone
	cps    map[uint32]*wire.Checkpoint
	cols   map[uint32]*wire.ColshapeShape
}

func newMirror() *mirror {
	return &mirror{labels: map[uint32]*wire.Label3D{}, blips: map[uint32]*wire.Blip{}, zones: map[uint32]*wire.GangZone{},
		cps: map[uint32]*wire.Checkpoint{}, cols: map[uint32]*wire.ColshapeShape{}}
}

func mirrorOne[T wire.Packet](t *testing.T, m map[uint32]T, id uint32, active uint8, pkt T, limit int) {
	t.Helper()
	if active == 1 {
		m[id] = pkt
	} else {
		if _, ok := m[id]; !ok {
			t.Fatalf("%s: hide of %d, not shown", pkt.Name(), id)
		}
		delete(m, id)
	}
	if len(m) > limit {
		t.Fatalf("%s: client holds %d, limit %d", pkt.Name(), len(m), limit)
	}
}

// apply applies what c was sent since the last take and returns it.
func (m *mirror) apply(t *testing.T, c *testConn) []sent {
	t.Helper()
	ss := c.take()
	for _, s := range ss {
		switch p := s.pkt.(type) {
		case *wire.Label3D:
			mirrorOne(t, m.labels, p.LabelID, p.Active, p, 256)
		case *wire.Blip:
			mirrorOne(t, m.blips, p.BlipID, p.Active, p, 100)
		case *wire.GangZone:
			mirrorOne(t, m.zones, p.ZoneID, p.Active, p, 1024)
		case *wire.Checkpoint:
			mirrorOne(t, m.cps, p.CheckpointID, p.Active, p, 16)
		case *wire.ColshapeShape:
			mirrorOne(t, m.cols, p.ColshapeID, p.Active, p, 256)
		default:
			continue
		}
		if s.class != lane.Critical {
			t.Fatalf("%s sent %v, want critical", s.pkt.Name(), s.class)
		}
	}
	return ss
}

// ids returns the sorted keys of a mirror map.
func ids[T any](m map[uint32]T) []uint32 {
	out := make([]uint32, 0, len(m))
	for id := range m {
		out = append(out, id)
	}
	slices.Sort(out)
	return out
}

// wantIDs fails unless got holds exactly want.
func wantIDs(t *testing.T, what string, got []uint32, want ...uint32) {
	t.Helper()
	if want == nil {
		want = []uint32{}
	}
	slices.Sort(want)
	if slices.Equal(got, want) {
		return
	}
	if len(got) < 20 && len(want) < 20 {
		t.Fatalf("%s: got %v, want %v", what, got, want)
	}
	var extra, missing []uint32
	for _, id := range got {
		if _, ok := slices.BinarySearch(want, id); !ok {
			extra = append(extra, id)
		}
	}
	for _, id := range want {
		if _, ok := slices.BinarySearch(got, id); !ok {
			missing = append(missing, id)
		}
	}
	t.Fatalf("%s: got %d ids, want %d; extra %v, missing %v", what, len(got), len(want), extra, missing)
}

func (f *fixture) label(lp LabelParams) uint32 {
	f.t.Helper()
	if lp.Text == "" {
		lp.Text = "hello"
	}
	if lp.DrawDistance == 0 {
		lp.DrawDistance = 50
	}
	id, err := f.w.CreateLabel(lp)
	if err != nil {
		f.t.Fatal(err)
	}
	return id
}

func (f *fixture) blip(bp BlipParams) uint32 {
	f.t.Helper()
	id, err := f.w.CreateBlip(bp)
	if err != nil {
		f.t.Fatal(err)
	}
	return id
}

func (f *fixture) zone(zp ZoneParams) uint32 {
	f.t.Helper()
	if zp.Max == ([2]float32{}) {
		zp.Min, zp.Max = [2]float32{0, 0}, [2]float32{100, 100}
	}
	id, err := f.w.CreateGangZone(zp)
	if err != nil {
		f.t.Fatal(err)
	}
	return id
}

func (f *fixture) checkpoint(p *Player, cp CheckpointParams) uint32 {
	f.t.Helper()
	if cp.Radius == 0 {
		cp.Radius = 5
	}
	id, err := f.w.CreateCheckpoint(p, cp)
	if err != nil {
		f.t.Fatal(err)
	}
	return id
}

func (f *fixture) colshape(cp ColshapeParams) uint32 {
	f.t.Helper()
	id, err := f.w.CreateColshape(cp)
	if err != nil {
		f.t.Fatal(err)
	}
	return id
}
