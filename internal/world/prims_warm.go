package world

import "dlmp/internal/stream"

// A view pass's shows of gang zones and blips read each shown one by its
// id: the map's group, its slot, then the zone or blip it points to,
// three lines that a tick's other passes have swept from the caches, each
// load waiting on the one before. In the send loop each show also waits
// on its packet's encoding and queueing, so the shows' misses came one
// after the other. warmZones and warmBlips load them first, in a loop of
// loads alone, whose iterations do not depend on each other: their misses
// overlap (as sendPickupOps' rows do, decision 0234). What they load is
// summed into prims.warmSum, that the loads stay.

// warmZones loads the zones of ops' shows.
func (w *World) warmZones(ops []stream.Op) {
	pr := &w.prims
	sum := uint32(0)
	for _, op := range ops {
		if op.Show {
			if z := pr.zones[op.ID]; z != nil {
				sum += z.rev
			}
		}
	}
	pr.warmSum += sum
}

// warmBlips loads the blips of ops' shows.
func (w *World) warmBlips(ops []stream.Op) {
	pr := &w.prims
	sum := uint32(0)
	for _, op := range ops {
		if op.Show {
			if b := pr.blips[op.ID]; b != nil {
				sum += b.params.Color ^ b.rev // both ends of what fill reads
			}
		}
	}
	pr.warmSum += sum
}
