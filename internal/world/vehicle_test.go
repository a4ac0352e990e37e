package world

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"dlmp/internal/grid"
	"dlmp/internal/lane"
	"dlmp/internal/wire"
)

// vehicleShows splits the VehicleShows of ss, checking each is critical.
func vehicleShows(t *testing.T, ss []sent) (shows []*wire.VehicleShow, hides []uint16) {
	t.Helper()
	for _, s := range ss {
		vs, ok := s.pkt.(*wire.VehicleShow)
		if !ok {
			continue
		}
		if s.class != lane.Critical {
			t.Errorf("VehicleShow %d sent %v, want critical", vs.VehicleID, s.class)
		}
		if vs.Active == 1 {
			shows = append(shows, vs)
		} else {
			hides = append(hides, vs.VehicleID)
		}
	}
	return shows, hides
}

// drive sends a driver's PlayerSync of vehicle id at pos.
func (f *fixture) drive(p *Player, c *testConn, id uint16, pos grid.Vec, health uint16) {
	f.t.Helper()
	f.syncWith(p, c, pos, func(s *wire.PlayerSync) {
		s.State, s.VehicleID, s.QW, s.VehicleHealth, s.VX = 2, id, 1, health, 5
	})
}

func TestCreateVehicleUsesWireRules(t *testing.T) {
	f := newFixture(t, nil)
	tests := []struct {
		name string
		vp   VehicleParams
		arg  string
	}{
		{"model below 400", VehicleParams{Model: 399}, "model"},
		{"model above 611", VehicleParams{Model: 612}, "model"},
		{"outside the world", VehicleParams{Model: 411, Pos: grid.Vec{X: 6001}}, "x"},
		{"not a unit quaternion", VehicleParams{Model: 411, Rot: Quat{W: 0.5}}, "qw"},
		{"negative respawn", VehicleParams{Model: 411, Respawn: -time.Second}, "respawn"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := f.w.CreateVehicle(tc.vp)
			wantArgErr(t, err, "create_vehicle", tc.arg)
		})
	}
	if f.w.Vehicles() != 0 {
		t.Fatalf("got %d vehicles after refusals, want 0", f.w.Vehicles())
	}
}

func TestVehicleStreamingAndIDs(t *testing.T) {
	f := newFixture(t, nil)
	a, ac := f.joinE()
	f.spawn(a, ac.testConn, at(0, 0))
	v1 := f.vehicle(VehicleParams{Pos: at(50, 0), Color1: 3, Color2: 7})
	v2 := f.vehicle(VehicleParams{Pos: at(VehicleStreamDistance+20, 0)})
	v3 := f.vehicle(VehicleParams{Pos: at(60, 0), Scope: grid.Scope{World: 2}})
	if v1 != 1 || v2 != 2 || v3 != 3 {
		t.Fatalf("got ids %d %d %d, want 1 2 3", v1, v2, v3)
	}
	f.advance(tick)
	shows, _ := vehicleShows(t, ac.take())
	if len(shows) != 1 || shows[0].VehicleID != v1 || shows[0].Model != 411 || shows[0].Color1 != 3 ||
		shows[0].Color2 != 7 || shows[0].X != 50 || shows[0].QW != 1 || shows[0].Health != MaxVehicleHealth {
		t.Fatalf("got shows %+v, want vehicle 1 only (in scope, within distance), as created", shows)
	}
	if !f.w.StreamedTo(KindVehicle, uint32(v1), a) || f.w.StreamedTo(KindVehicle, uint32(v2), a) {
		t.Error("StreamedTo disagrees with the shows")
	}
	if err := f.w.DeleteVehicle(v1); err != nil {
		t.Fatal(err)
	}
	f.advance(tick)
	if _, hides := vehicleShows(t, ac.take()); !slices.Equal(hides, []uint16{v1}) {
		t.Fatalf("got hides %v, want vehicle 1's", hides)
	}
	if v := f.vehicle(VehicleParams{Pos: at(1, 1)}); v != v1 {
		t.Errorf("got id %d, want the lowest free id %d", v, v1)
	}
	if err := f.w.DeleteVehicle(v1 + 100); err == nil {
		t.Error("deleting a vehicle that does not exist: got no error")
	}
}

func TestDriverSyncMovesVehicle(t *testing.T) {
	f := newFixture(t, nil)
	a, ac := f.joinE()
	d, dc := f.joinE()
	o, oc := f.joinE()
	f.spawn(a, ac.testConn, at(0, 0))
	f.spawn(d, dc.testConn, at(20, 0))
	f.spawn(o, oc.testConn, at(25, 0))
	v := f.vehicle(VehicleParams{Pos: at(22, 0)})
	f.advance(tick)
	ac.take()
	ac.takeMoves()
	dc.takeMoves()

	f.now = f.now.Add(tick)
	f.drive(d, dc.testConn, v, at(24, 1), 900)
	f.advance(tick)
	veh := f.w.Vehicle(v)
	if veh.Position() != at(24, 1) || veh.Health() != 900 || veh.Driver() != d {
		t.Fatalf("got vehicle at %v health %d driver %v, want moved by its driver's sync", veh.Position(), veh.Health(), veh.Driver())
	}
	var vm []*wire.VehicleMove
	for _, m := range ac.takeMoves() {
		if x, ok := m.(*wire.VehicleMove); ok {
			vm = append(vm, x)
		}
	}
	if len(vm) != 1 || vm[0].VehicleID != v || vm[0].X != 24 || vm[0].Health != 900 || vm[0].VX != 5 {
		t.Fatalf("got VehicleMoves %+v, want one with the driver's pose", vm)
	}
	for _, m := range dc.takeMoves() {
		if _, ok := m.(*wire.VehicleMove); ok {
			t.Fatal("the driver received its own vehicle's VehicleMove")
		}
	}
	if got := ac.take(); len(only[*wire.VehicleShow](got)) != 0 {
		t.Fatal("a driver's move resent the show")
	}

	// Another player claiming the same vehicle, and a driver far from it, do not move it.
	before := f.w.Stats().DriverRefused
	f.now = f.now.Add(tick)
	f.drive(o, oc.testConn, v, at(25, 0), 100)
	f.walk(d, dc.testConn, at(24, 100)) // d is out of the vehicle now (state 1), 99 m away
	f.now = f.now.Add(tick)
	f.drive(d, dc.testConn, v, at(24, 100), 1000) // claims it from there
	if got := f.w.Stats().DriverRefused - before; got != 2 {
		t.Fatalf("got %d refused driver syncs, want 2 (another driver, too far)", got)
	}
	if veh.Position() != at(24, 1) || veh.Health() != 900 {
		t.Fatalf("got vehicle at %v health %d, want unchanged", veh.Position(), veh.Health())
	}
}

func TestVehicleRespawn(t *testing.T) {
	f := newFixture(t, nil)
	a, ac := f.joinE()
	d, dc := f.joinE()
	f.spawn(a, ac.testConn, at(0, 0))
	f.spawn(d, dc.testConn, at(20, 0))
	v := f.vehicle(VehicleParams{Pos: at(21, 0), Respawn: 10 * time.Second})
	f.advance(tick)
	ac.take()
	f.now = f.now.Add(tick)
	f.drive(d, dc.testConn, v, at(23, 0), 500)
	f.walk(d, dc.testConn, at(23, 3)) // gets out
	f.advance(9 * time.Second)
	if got := only[*wire.VehicleShow](ac.take()); len(got) != 0 {
		t.Fatalf("respawned before the delay: %+v", got)
	}
	f.advance(time.Second)
	shows, _ := vehicleShows(t, ac.take())
	if len(shows) != 1 || shows[0].X != 21 || shows[0].Health != MaxVehicleHealth {
		t.Fatalf("got shows %+v, want the vehicle back at its spawn, intact, after 10 s idle", shows)
	}
	f.advance(20 * time.Second)
	if got := only[*wire.VehicleShow](ac.take()); len(got) != 0 {
		t.Fatalf("a vehicle at its spawn respawned again: %+v", got)
	}

	if err := f.w.SetVehiclePose(v, at(40, 0), Quat{Z: 0.7071068, W: 0.7071068}, grid.Scope{}); err != nil {
		t.Fatal(err)
	}
	wantArgErr(t, f.w.SetVehiclePose(v, at(7000, 0), Quat{}, grid.Scope{}), "set_vehicle_pose", "x")
	f.advance(tick)
	shows, _ = vehicleShows(t, ac.take())
	if len(shows) != 1 || shows[0].X != 40 || shows[0].QZ != 0.7071068 {
		t.Fatalf("got shows %+v, want the new pose", *shows[0])
	}
	if err := f.w.RespawnVehicle(v); err != nil {
		t.Fatal(err)
	}
	f.advance(tick)
	if shows, _ = vehicleShows(t, ac.take()); len(shows) != 1 || shows[0].X != 21 {
		t.Fatalf("got shows %+v after RespawnVehicle, want the spawn pose", shows)
	}
}

// TestReusedVehicleIDIsShownAnew: a vehicle created on the id of one
// deleted in the same tick replaces it on the clients that had it shown.
func TestReusedVehicleIDIsShownAnew(t *testing.T) {
	f := newFixture(t, nil)
	a, ac := f.joinE()
	f.spawn(a, ac.testConn, at(0, 0))
	v := f.vehicle(VehicleParams{Model: 411, Pos: at(10, 0)})
	f.advance(tick)
	ac.take()
	if err := f.w.DeleteVehicle(v); err != nil {
		t.Fatal(err)
	}
	if v2 := f.vehicle(VehicleParams{Model: 560, Pos: at(12, 0)}); v2 != v {
		t.Fatalf("got id %d, want the reused %d", v2, v)
	}
	f.advance(tick)
	shows, _ := vehicleShows(t, ac.take())
	if len(shows) != 1 || shows[0].Model != 560 {
		t.Fatalf("got shows %+v, want the new vehicle (model 560) on the reused id", shows)
	}
}

// TestVehicleViewsEqualScan checks the steady vehicle view (vehiclesSteady)
// and its steps (vehicleStep): players standing (some in a second scope)
// while vehicles are created, deleted, placed (in place, nearby, into the
// other scope and back) and respawned at random, and walking a few meters
// or a few centimeters in some rounds; every round every vehicle view is
// due, and after the tick each view shows exactly the vehicles a scan of
// every vehicle finds (same scope, within VehicleStreamDistance), each at
// its current rev. It fails unless some views were found steady, some
// patched by a step in the rounds players moved, and some computed again.
func TestVehicleViewsEqualScan(t *testing.T) {
	other := grid.Scope{World: 3}
	for seed := range int64(3) {
		rng := rand.New(rand.NewPCG(uint64(seed), 7))
		f := newFixture(t, nil)
		var ps []*Player
		var cs []*testConn
		for i := range 6 {
			p, c := f.join()
			sc := grid.Scope{}
			if i%3 == 2 {
				sc = other
			}
			f.spawnIn(p, c, at(float32(i*90-200), float32(i*40-100)), sc)
			ps, cs = append(ps, p), append(cs, c)
		}
		spot := func() grid.Vec { return at(float32(rng.IntN(900)-450), float32(rng.IntN(900)-450)) }
		scope := func() grid.Scope {
			if rng.IntN(4) == 0 {
				return other
			}
			return grid.Scope{}
		}
		for range 40 {
			f.vehicle(VehicleParams{Pos: spot(), Scope: scope(), Respawn: time.Hour})
		}
		steady0 := f.w.caches.vehicleSteady
		computed, movedSteps := 0, uint64(0)
		for round := range 60 {
			moved := round%3 == 1
			if moved { // some walk a step, some shift a little, some stand
				for i, p := range ps {
					step := []float32{0, 0.01, 0.5, 3, 12}[rng.IntN(5)]
					f.sync(p, cs[i], grid.Vec{X: p.pos.X + step, Y: p.pos.Y - step/2, Z: p.pos.Z}, 1)
				}
			}
			if round%4 != 3 { // every fourth round nothing changes
				for range 1 + rng.IntN(3) {
					id := uint16(1 + rng.IntN(50))
					v := f.w.Vehicle(id)
					switch op := rng.IntN(5); {
					case v == nil:
						f.vehicle(VehicleParams{Pos: spot(), Scope: scope(), Respawn: time.Hour})
					case op == 0:
						if err := f.w.DeleteVehicle(id); err != nil {
							t.Fatal(err)
						}
					case op == 1: // in place: only the rev changes
						if err := f.w.SetVehiclePose(id, v.pos, v.rot, v.scope); err != nil {
							t.Fatal(err)
						}
					case op == 2:
						if err := f.w.SetVehiclePose(id, spot(), v.rot, scope()); err != nil {
							t.Fatal(err)
						}
					case op == 3:
						if err := f.w.RespawnVehicle(id); err != nil {
							t.Fatal(err)
						}
					default:
						if err := f.w.SetVehiclePose(id, grid.Vec{X: v.pos.X + 1, Y: v.pos.Y, Z: v.pos.Z}, v.rot, v.scope); err != nil {
							t.Fatal(err)
						}
					}
				}
			}
			for _, p := range ps {
				p.ent.vehicleAt.Invalidate()
			}
			before, stepsBefore := f.w.ents.passes[1], f.w.prims.vehicleSteps
			f.advance(tick)
			computed += int(f.w.ents.passes[1] - before)
			if moved {
				movedSteps += f.w.prims.vehicleSteps - stepsBefore
			}
			for _, p := range ps {
				want := map[uint16]uint32{}
				for _, v := range f.w.ents.vehicles {
					if v != nil && v.scope == p.scope && grid.Dist2(v.pos, p.pos) <= VehicleStreamDistance*VehicleStreamDistance {
						want[v.id] = v.rev
					}
				}
				if got := p.ent.vehiclesV.Len(); got != len(want) {
					t.Fatalf("seed %d round %d player %d: got %d vehicles shown, want %d", seed, round, p.id, got, len(want))
				}
				for id, rev := range want {
					if got, ok := p.ent.vehiclesV.Shown(uint32(id)); !ok || got != rev {
						t.Fatalf("seed %d round %d player %d: vehicle %d shown %v at rev %d, want rev %d", seed, round, p.id, id, ok, got, rev)
					}
				}
			}
		}
		if steady := f.w.caches.vehicleSteady - steady0; steady == 0 || steady == uint64(computed) {
			t.Errorf("seed %d: %d of %d vehicle passes found steady, want some but not all", seed, steady, computed)
		}
		if movedSteps == 0 {
			t.Errorf("seed %d: no vehicle view patched by a step in the rounds players moved", seed)
		}
	}
}

// TestVehicleAnnounceMakesViewsDue: a vehicle the gamemode places near a
// standing player (whose own view is not due: they did not move) is shown
// to them on the next tick, and hidden when it is placed or respawned away.
// Only the vehicle's own announce (announceVehicle, at its new point) makes
// the view due for the show: without it the player would not see the
// vehicle until they moved.
func TestVehicleAnnounceMakesViewsDue(t *testing.T) {
	f := newFixture(t, nil)
	a, ac := f.joinE()
	f.spawn(a, ac.testConn, at(0, 0))
	v := f.vehicle(VehicleParams{Pos: at(2*VehicleStreamDistance, 0), Respawn: time.Hour})
	for range 3 {
		f.advance(tick)
	}
	if shows, hides := vehicleShows(t, ac.take()); len(shows)+len(hides) != 0 {
		t.Fatalf("got shows %+v and hides %v of a vehicle out of reach, want none", shows, hides)
	}
	for i, step := range []struct {
		place func() error
		show  bool
	}{
		{func() error { return f.w.SetVehiclePose(v, at(100, 0), Quat{}, grid.Scope{}) }, true},
		{func() error { return f.w.RespawnVehicle(v) }, false},
		{func() error { return f.w.SetVehiclePose(v, at(0, VehicleStreamDistance-1), Quat{}, grid.Scope{}) }, true},
		{func() error { return f.w.SetVehiclePose(v, at(0, VehicleStreamDistance+1), Quat{}, grid.Scope{}) }, false},
	} {
		if err := step.place(); err != nil {
			t.Fatal(err)
		}
		f.advance(tick)
		shows, hides := vehicleShows(t, ac.take())
		if step.show && (len(shows) != 1 || shows[0].VehicleID != v || len(hides) != 0) {
			t.Fatalf("step %d: got shows %+v, hides %v, want vehicle %d shown", i, shows, hides, v)
		}
		if !step.show && (len(shows) != 0 || !slices.Equal(hides, []uint16{v})) {
			t.Fatalf("step %d: got shows %+v, hides %v, want vehicle %d hidden", i, shows, hides, v)
		}
	}
}

// TestVehicleStepAcrossScopes: a player walks among vehicles (their views
// patched by steps), then is teleported to another scope where other
// vehicles stand at the same points and walks on. Each tick the view shows
// exactly the vehicles of the player's scope within the stream distance.
// It fails when a step is taken from the answer of another scope's grid
// (the view's shell is that grid's).
func TestVehicleStepAcrossScopes(t *testing.T) {
	f := newFixture(t, nil)
	p, c := f.join()
	f.spawn(p, c, at(0, 0))
	other := grid.Scope{World: 5}
	rng := rand.New(rand.NewPCG(3, 271))
	for range 40 {
		pos := at(float32(rng.IntN(700)-350), float32(rng.IntN(700)-350))
		f.vehicle(VehicleParams{Pos: pos})
		f.vehicle(VehicleParams{Pos: pos, Scope: other})
	}
	check := func(what string) {
		t.Helper()
		var want []uint32
		for _, v := range f.w.ents.vehicles {
			if v != nil && v.scope == p.scope && grid.Dist2(v.pos, p.pos) <= VehicleStreamDistance*VehicleStreamDistance {
				want = append(want, uint32(v.id))
			}
		}
		var got []uint32
		for _, id := range want {
			if _, ok := p.ent.vehiclesV.Shown(id); ok {
				got = append(got, id)
			}
		}
		if n := p.ent.vehiclesV.Len(); n != len(want) || len(got) != len(want) {
			t.Fatalf("%s: %d vehicles shown, %d of the %d wanted", what, n, len(got), len(want))
		}
	}
	pos := at(0, 0)
	walk := func(what string) {
		t.Helper()
		for range 6 {
			pos.X += 5
			f.sync(p, c, pos, 1)
			f.advance(tick)
			c.ackAll()
			check(what)
		}
	}
	walk("walking")
	steps := f.w.prims.vehicleSteps
	if steps == 0 {
		t.Fatal("no vehicle step while walking")
	}
	if err := f.w.Teleport(p, Landing{Pos: pos, World: uint32(other.World)}); err != nil {
		t.Fatal(err)
	}
	c.ackAll()
	f.advance(tick)
	f.sync(p, c, pos, 1)
	f.advance(tick)
	check("after the teleport")
	walk("walking in the other scope")
}
