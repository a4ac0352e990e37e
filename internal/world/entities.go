package world

import (
	"time"

	"dlmp/internal/config"
	"dlmp/internal/grid"
	"dlmp/internal/stream"
	"dlmp/internal/wire"
)

// entities is the world's state of players, vehicles and objects as
// streamed entities. Owned by the world goroutine.
type entities struct {
	tick uint32 // ticks run: the seq of PlayerMove and VehicleMove

	playerGrid *grid.Scopes // players with a stream center, key = player id
	playerRev  uint32       // the last rev given to a player's show

	vehicles    []*Vehicle // by vehicle id; [0] unused
	vehicleGrid *grid.Scopes
	vehicleN    int
	vehicleRev  uint32 // the last rev given to a vehicle's show

	objects    objectTable  // by object id, in place (object_table.go)
	hot        []objectHot  // by object id: what a query reads of a root, dense
	objectN    int          // objects not deleted
	objectGrid *grid.Scopes // chain roots, weight 1 + chain
	nextObject uint32
	moving     []*Object // objects with a movement in progress
	objectDist float32   // world.object_stream_distance

	passes  [3]uint64 // views computed: players, vehicles, objects (benchmarks)
	flushes uint64    // views of players that only sent ops left by their last pass
	steady  uint64    // views of players computed and found unchanged by their fingerprint
	views   viewBudget

	moves moves // this tick's PlayerMoves (player_moves.go)

	// Scratch, reused.
	hits  []grid.Hit
	wants []stream.Want
	ops   []stream.Op
	buf   []byte
	os    wire.ObjectState
	pshow wire.PlayerShow
	vshow wire.VehicleShow
}

func (e *entities) init(c config.Config) {
	e.playerGrid = grid.NewScopes(playerCell)
	e.vehicleGrid = grid.NewScopes(playerCell)
	e.vehicles = make([]*Vehicle, MaxVehicles+1)
	e.hot = make([]objectHot, 1)
	e.objectGrid = grid.NewScopes(objectCell)
	e.views.hideEnc = hideTemplate // each hide writes its id in (players_show.go)
	e.views.labels.hideEnc = labelHideTemplate
	e.objectDist = float32(c.World.ObjectStreamDistance)
	if !(e.objectDist >= 1 && e.objectDist <= MaxObjectDistance) {
		e.objectDist = DefaultObjectDistance
	}
}

// tickEntities runs the streaming of players, vehicles and objects at the
// end of a tick: movements that ended, vehicle respawns, every player's
// views, held spawns, and the unreliable moves.
func (w *World) tickEntities(now time.Time) {
	w.ents.tick++
	c0 := w.partTime()
	w.tickObjectMoves(now)
	w.tickVehicleRespawns(now)
	for _, p := range w.players {
		if p != nil && p.skin != p.ent.skin && p.ent.rev != 0 {
			w.playerChanged(p)
		}
	}
	for _, p := range w.players {
		if p == nil || p.gone {
			continue
		}
		w.streamPlayers(p, nil)
		w.streamVehicles(p)
		w.streamObjects(p)
		w.releaseHold(p)
	}
	c1 := w.partTime()
	w.encodeMoves()
	w.encodeVehicleMoves()
	c2 := w.partTime()
	defer func() { c3 := w.partTime(); w.Sub[0], w.Sub[1], w.Sub[2] = c1-c0, c2-c1, c3-c2 }()
	for _, p := range w.players {
		if p == nil || p.gone {
			continue
		}
		w.sendPlayerMoves(p)
		w.sendVehicleMoves(p)
	}
}

func addID(s []uint16, id uint16) []uint16 {
	for _, x := range s {
		if x == id {
			return s
		}
	}
	return append(s, id)
}

func removeID(s []uint16, id uint16) []uint16 {
	for i, x := range s {
		if x == id {
			s[i] = s[len(s)-1]
			return s[:len(s)-1]
		}
	}
	return s
}
