package world

// identify gives a newly admitted player the next UserID. UserIDs only
// climb: the n-th player admitted since the world started is n (from 1),
// whatever slot they take, so a recycled player id never carries an old
// identity (network-vars.md, "Storage and the recycled-index bug").
func (w *World) identify(p *Player) {
	w.joins++
	p.uid = w.joins
}

// UserID returns the player's identity: 1 for the first player the world
// admitted, climbing by one per join, never reused.
func (p *Player) UserID() uint32 { return p.uid }

// AppendPlayerIDs appends the ids of the connected players, in id order.
func (w *World) AppendPlayerIDs(dst []uint16) []uint16 {
	for _, p := range w.players {
		if p != nil && !p.left {
			dst = append(dst, p.id)
		}
	}
	return dst
}
