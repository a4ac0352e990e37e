package world

import (
	"encoding/binary"
	"math"
	"strings"
	"testing"
	"time"

	"dlmp/internal/grid"
	"dlmp/internal/wire"
)

// FuzzPrims drives two players with arbitrary syncs, ticks, teleports and
// gamemode changes (create, move, delete checkpoints, colshapes, labels,
// blips, zones; handlers that delete what raised them) and checks that
// nothing panics, every client stays consistent (no hide of something not
// shown, never more than a kind's limit, every op critical: see mirror) and
// each checkpoint's and colshape's events alternate enter / leave, starting
// with an enter.
func FuzzPrims(f *testing.F) {
	f.Add([]byte{0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
	f.Add([]byte{6, 200, 0, 0, 0x80, 0x7f, 0, 0, 0xc0, 0x7f, 1, 0, 3, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9})
	f.Fuzz(fuzzPrims)
}

func fuzzPrims(t *testing.T, b []byte) {
	{
		fx := newFixture(t, nil)
		ps := [2]*Player{}
		cs := [2]*testConn{}
		ms := [2]*mirror{newMirror(), newMirror()}
		for i := range ps {
			ps[i], cs[i] = fx.join()
			fx.spawn(ps[i], cs[i], grid.Vec{X: float32(i)})
		}
		inside := map[string]bool{} // "cp 3" / "col 2" of a player -> last event was an enter
		fx.gm.onCross = func(p *Player, ev string, id uint32) {
			kind, enter, _ := strings.Cut(ev, "_")
			key := string(rune('a'+p.ID())) + kind + " " + string(rune(id))
			if (enter == "enter") == inside[key] {
				t.Fatalf("player %d %s %d: %s twice in a row", p.ID(), kind, id, ev)
			}
			inside[key] = enter == "enter"
			if id%3 == 0 && kind == "cp" {
				_ = fx.w.DeleteCheckpoint(id)
				delete(inside, key)
			}
		}
		fx.gm.log = nil
		f32 := func(i int) float32 { return math.Float32frombits(binary.LittleEndian.Uint32(b[i:])) }
		small := func(i int) float32 { return float32(int8(b[i])) / 4 }
		for len(b) >= 24 {
			p, c := ps[b[0]&1], cs[b[0]&1]
			fx.now = fx.now.Add(time.Duration(b[1]) * time.Millisecond)
			at := grid.Vec{X: small(2), Y: small(3), Z: small(4)}
			switch b[0] >> 1 % 8 {
			case 0:
				fx.w.Packet(p, &wire.PlayerSync{Seq: fx.seq[p] + 1, Landed: c.landing, State: b[5] % 6,
					X: f32(6), Y: f32(10), Z: f32(14), Health: 100, Interior: p.Scope().Interior}, fx.now)
				fx.seq[p]++
			case 1:
				fx.sync(p, c, at, 1+b[5]%4)
			case 2:
				fx.w.Tick(fx.now)
			case 3:
				_ = fx.w.Teleport(p, Landing{Pos: at, Interior: b[5] % 2})
			case 4:
				_, _ = fx.w.CreateCheckpoint(p, CheckpointParams{Kind: b[5] % 6, Pos: at, Radius: f32(6), Scope: grid.Scope{Interior: b[10] % 2}})
			case 5:
				id, err := fx.w.CreateColshape(ColshapeParams{Form: b[5] % 3, A: at, B: grid.Vec{X: f32(6), Y: f32(10), Z: f32(14)}})
				if err == nil && b[18]&1 == 1 {
					_ = fx.w.ShowColshape(id, p)
				}
			case 6:
				_, _ = fx.w.CreateLabel(LabelParams{Text: "x", Pos: at, DrawDistance: f32(6), AttachKind: b[5] % 3, AttachID: uint32(b[10] % 3)})
				_, _ = fx.w.CreateBlip(BlipParams{Pos: at, DrawDistance: small(11), AttachKind: b[5] % 3, AttachID: uint32(b[10] % 3)})
				if id, err := fx.w.CreateGangZone(ZoneParams{Min: [2]float32{at.X, at.Y}, Max: [2]float32{f32(6), f32(10)}}); err == nil {
					var to *Player
					if b[12]&1 == 1 {
						to = p
					}
					_ = fx.w.ShowGangZone(id, to)
				}
			case 7:
				id := uint32(b[5] % 16)
				switch b[6] % 6 {
				case 0:
					_ = fx.w.DeleteCheckpoint(id)
				case 1:
					_ = fx.w.DeleteColshape(id)
				case 2:
					_ = fx.w.DeleteLabel(id)
				case 3:
					_ = fx.w.DeleteBlip(id)
				case 4:
					_ = fx.w.HideGangZone(id, p)
				case 5:
					_ = fx.w.SetColshape(id, ColshapeParams{Form: FormSphere, A: at, B: grid.Vec{X: 1 + small(7)*small(7)}})
				}
			}
			for i := range ms {
				ms[i].apply(t, cs[i])
			}
			b = b[24:]
		}
	}
}
