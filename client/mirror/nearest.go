package mirror

// NearestCheckpoint returns the held checkpoint nearest to (x, y) on the
// ground plane, the lowest id of equals, and whether there is one. It is
// Checkpoints' nearest without the copies and the sort: for a caller that
// steers to it every frame (the bots, 20 times a second each).
func (m *Mirror) NearestCheckpoint(x, y float64) (Checkpoint, bool) {
	bestID, bestD, ok := uint32(0), 0.0, false
	for id, p := range m.checkpts {
		dx, dy := float64(p.X)-x, float64(p.Y)-y
		if d := dx*dx + dy*dy; !ok || d < bestD || d == bestD && id < bestID {
			bestID, bestD, ok = id, d, true
		}
	}
	if !ok {
		return Checkpoint{}, false
	}
	p := m.checkpts[bestID]
	return Checkpoint{
		ID: p.CheckpointID, Kind: p.Kind, Pos: vec32(p.X, p.Y, p.Z),
		Next: vec32(p.NextX, p.NextY, p.NextZ), Radius: float64(p.Radius), Color: p.Color,
	}, true
}

// NearestPickup returns the held pickup nearest to (x, y) on the ground
// plane, the lowest id of equals, and whether there is one: Pickups'
// nearest without the copies and the sort.
func (m *Mirror) NearestPickup(x, y float64) (Pickup, bool) {
	var best *pickup
	bestD := 0.0
	for _, pk := range m.pickups {
		pos := pk.Pos()
		dx, dy := pos.X-x, pos.Y-y
		if d := dx*dx + dy*dy; best == nil || d < bestD || d == bestD && pk.ID < best.ID {
			best, bestD = pk, d
		}
	}
	if best == nil {
		return Pickup{}, false
	}
	return best.Pickup, true
}
