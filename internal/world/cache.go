package world

import (
	"dlmp/internal/grid"
	"dlmp/internal/stream"
	"dlmp/internal/wire"
)

// Box caches of the streaming passes (docs/decisions/0205-world-box-caches.md).
// Objects, pickups, labels, blips and gang zones answer a view's grid query
// from a grid.Cache next to each grid of their grid.Scopes (decision 0190),
// and a view whose wanted set did not change is recognized by the answer's
// count, weight and fingerprint without listing it (stream.View.Unchanged,
// decision 0191). The answers are the grid's exactly; the rules a kind
// applies on top of the grid (a viewer, an attachment, a chain, a
// hysteresis) are kept out of the cached grids (their entities in grids
// of their own, queried per player), or send the view to the listed path,
// kind by kind (see each kind's wanted set).

// Box sizes and bounds (decision 0190's measurements: 16 m boxes for the
// kinds with a stream distance, 32 m for blips and zones, whose answers
// reach far).
const (
	cacheSide     = 16
	cacheFarSide  = 32
	cacheHeight   = 8
	cacheMaxBoxes = 4096 // per scope and kind: past it, boxes unused since the last sweep go
)

// cacheKind names a cached kind, for the counters.
type cacheKind uint8

const (
	cacheObjects cacheKind = iota
	cachePickups
	cacheLabels
	cacheBlips
	cacheZones
	cacheKinds
)

// scopeCaches holds a grid.Cache for each grid of a grid.Scopes, made on
// the scope's first query and made anew when its grid was pruned and
// created again.
type scopeCaches struct {
	grids *grid.Scopes
	limit int
	side  float32
	sum   func(key, rev uint32) uint64
	m     map[grid.Scope]gridCache
	// retired adds up the counters of the caches dropped, so that the
	// totals only grow (they are counters on /metrics).
	retired grid.CacheStats
	// repeats counts the answers repeated without asking the cache.
	repeats uint64
}

type gridCache struct {
	g *grid.Grid
	c *grid.Cache
}

func newScopeCaches(grids *grid.Scopes, limit int, side float32, sum func(key, rev uint32) uint64) *scopeCaches {
	return &scopeCaches{grids: grids, limit: limit, side: side, sum: sum, m: map[grid.Scope]gridCache{}}
}

// get returns the grid of sc and its cache, or nils if sc has no grid.
func (s *scopeCaches) get(sc grid.Scope) (*grid.Grid, *grid.Cache) {
	g := s.grids.Lookup(sc)
	gc, ok := s.m[sc]
	if g == nil {
		if ok {
			s.retire(gc.c)
			delete(s.m, sc)
		}
		return nil, nil
	}
	if gc.g != g {
		if len(s.m) > 2*s.grids.Len()+8 {
			s.prune()
		}
		if old, held := s.m[sc]; held { // not dropped by prune just now
			s.retire(old.c)
		}
		gc = gridCache{g: g, c: grid.NewCache(g, s.limit, s.side, cacheHeight, s.sum, cacheMaxBoxes)}
		s.m[sc] = gc
	}
	return g, gc.c
}

// prune drops the caches of grids that are gone (scopes used once).
func (s *scopeCaches) prune() {
	for sc, gc := range s.m {
		if s.grids.Lookup(sc) != gc.g {
			s.retire(gc.c)
			delete(s.m, sc)
		}
	}
}

// retire keeps the counters of a cache about to be dropped.
func (s *scopeCaches) retire(c *grid.Cache) {
	addStats(&s.retired, c.Stats())
}

func addStats(t *grid.CacheStats, st grid.CacheStats) {
	t.Queries += st.Queries
	t.Grid += st.Grid
	t.Builds += st.Builds
	t.Parts += st.Parts
	t.Fallbacks += st.Fallbacks
	t.Counted += st.Counted
	t.Recounted += st.Recounted
}

// stats returns the counters of every cache held and dropped, added up,
// and the boxes held.
func (s *scopeCaches) stats() (grid.CacheStats, int) {
	t := s.retired
	n := 0
	for _, gc := range s.m {
		addStats(&t, gc.c.Stats())
		n += gc.c.Len()
	}
	return t, n
}

// reset drops every box.
func (s *scopeCaches) reset() {
	for _, gc := range s.m {
		gc.c.Reset()
	}
}

// cacheSpot is where a player's last query of one kind was.
type cacheSpot struct {
	at    grid.Vec
	scope grid.Scope
	ok    bool
	box   *grid.Box // the box the cache last answered from (nil: none)
	// The last answer from the cache, for a query repeated at the same
	// point in the grid g while its box holds (see query).
	g    *grid.Grid
	hits []grid.Hit
	memo bool
	// The last answer as a step's start (cache_step.go), kept across
	// queries; nil until the kind first takes a step.
	step *viewStep
}

// cacheSettle is how far, meters, a player may be from their previous
// query of a kind for the next to go to the box cache: a player standing,
// or nearly (an idle client's jitter, a slow walk between two slow passes).
const cacheSettle = 2

// noBox is the box of an answer the grid gave: no sure part.
var noBox = &grid.Box{}

// query answers the grid's query at at in sc (g, its grid, c, its cache)
// for a player whose last query of the kind was at *last: from the cache
// when the player is within cacheSettle of that query, else from the grid.
// A moving player's queries (a new point each time, a new box every few)
// then neither pay for box builds nor count toward them (a box is built on
// its third query: decision 0190); the boxes are those where players stay.
//
// A query at exactly the point of the player's last cache answer, in the
// same grid, while the box that gave it still holds (grid.Cache.Holds:
// nothing changed within its reach, it was not rebuilt), repeats that
// answer (docs/decisions/0215-repeat-unchanged-answers.md, 0233): the
// answer is a function of the entities within the box's reach and the
// point, whatever changed elsewhere, and the box's sure part is the same.
// A repeat counts as a query of the box, earning build credit.
func (s *scopeCaches) query(g *grid.Grid, c *grid.Cache, last *cacheSpot, sc grid.Scope, at grid.Vec, dst []grid.Hit) (*grid.Box, []grid.Hit) {
	settled := last.ok && last.scope == sc && grid.Dist2(last.at, at) <= cacheSettle*cacheSettle
	if settled && last.memo && last.at == at && last.g == g && c.Holds(last.box, at) {
		s.repeats++
		return last.box, append(dst, last.hits...)
	}
	prev, kept := last.box, last.hits[:0]
	*last = cacheSpot{at: at, scope: sc, ok: true, hits: kept, step: last.step}
	switch {
	case settled:
		// The box of the last answer, while valid and holding at, answers
		// without the cache's lookup (grid.Cache.QueryNear).
		st := c.Stats()
		box, hits := c.QueryNear(prev, at, dst)
		// Only a box's answer is repeated: an answer the grid gave (no box
		// yet) or a split box gave (its part not built yet) counts toward
		// the build, which repeating it would never reach.
		last.box = box
		if after := c.Stats(); after.Grid == st.Grid && after.Fallbacks == st.Fallbacks {
			last.g, last.memo = g, true
			last.hits = append(last.hits, hits[len(dst):]...)
		}
		return box, hits
	case s.limit == grid.NoLimit:
		return noBox, g.Covering(at, dst)
	}
	return noBox, g.Nearest(at, s.limit, dst)
}

// resetCaches drops every box of every cache and every repeated answer
// (the benchmarks' cold pass).
func (w *World) resetCaches() {
	for _, s := range w.caches.kinds {
		s.reset()
	}
	for _, p := range w.players {
		if p != nil {
			for k := range p.spots {
				sp := &p.spots[k]
				sp.box, sp.g, sp.memo = nil, nil, false
			}
		}
	}
}

// caches are the world's box caches, one set per cached kind.
type caches struct {
	kinds [cacheKinds]*scopeCaches
	// steady counts the views found unchanged without a list, by kind.
	steady [cacheKinds]uint64
	// vehicleSteady counts the vehicle views found unchanged without a
	// grid query (vehicle.go, vehiclesSteady).
	vehicleSteady uint64
	// The count and fingerprint of the object set last found unchanged.
	objN   int
	objSum uint64
	// objMaxW is the heaviest chain a plain root ever had (1 + its objects
	// below): an answer lighter than the limit by as much cut nothing.
	objMaxW int
	// The cut of the object answer last found unchanged (objCutOK: known
	// without listing it), for the view's next step.
	objCut   uint64
	objCutOK bool

	// objPatched: objectWants patched the view by a band step, its ops in
	// ents.ops; prevHits: the band hits of the answer before.
	objPatched bool
	prevHits   []grid.Hit

	// sendObjectOps' scratch: the objects shown and their shows.
	showObjs []*Object
	// The moving objects among the last shows sendObjectOps sent: what
	// its first pass, which loads each object, keeps of it.
	showMoving int
	showIDs    uint32 // the ids of those shows xor-ed: a read of each object's first line
	shows2     []wire.ObjectState

	// sendPickupOps' loads: the shown pickups' rows' revs xor-ed (a read
	// of each row first, as showIDs).
	pkIDs uint32

	// chainSum as a func value, made once (a method value passed on each
	// step would be allocated each time).
	chainSum func(id, rev uint32) uint64

	// Scratch of the views' steps (cache_step.go).
	step  grid.Step
	hides []uint32
	shows []stream.Want
	// stepped and refused count the steps patched and those that fell back
	// to a listed pass, by kind; shelled the steps a shell told, held those
	// told from the answer the last step held (decision 0265), widened
	// those of them whose narrow band missed the cut (scanned again).
	stepped, refused, shelled, held, widened [cacheKinds]uint64
	// bandSteps and bandRefused count the object views of settled players
	// patched from their box's band (objectBandStep), and refused.
	bandSteps, bandRefused uint64
}

// initCaches makes the caches of the world's grids.
func (w *World) initCaches() {
	pr := &w.prims
	c := &w.caches
	c.chainSum = w.chainSum
	c.kinds[cacheObjects] = newScopeCaches(w.ents.objectGrid, stream.Objects.Limit(), cacheSide, c.chainSum)
	c.kinds[cachePickups] = newScopeCaches(w.pickupGrid, grid.NoLimit, cacheSide, stream.Mix)
	c.kinds[cacheLabels] = newScopeCaches(pr.labelG, grid.NoLimit, cacheSide, stream.Mix)
	c.kinds[cacheBlips] = newScopeCaches(pr.blipG, stream.Blips.Limit(), cacheFarSide,
		func(slot, rev uint32) uint64 { return stream.Mix(pr.blipHot.v[slot], rev) })
	c.kinds[cacheZones] = newScopeCaches(pr.zoneG, stream.GangZones.Limit(), cacheFarSide,
		func(slot, rev uint32) uint64 { return stream.Mix(pr.zoneHot.v[slot], rev) })
}

// CacheStats is what the box caches of one kind did, for the metrics.
type CacheStats struct {
	grid.CacheStats
	Boxes   int    // boxes held now
	Steady  uint64 // views found unchanged from a box, without a list
	Repeats uint64 // answers repeated at the same point in an unchanged grid
	// Views of moving players told as a step from their last answer
	// (cache_step.go): patched, of which told by a shell's band or from
	// the answer the last step held (grid.Step.Held; Widened: of those,
	// scanned again with the whole band), and refused (listed as before).
	Stepped, Shelled, Held, Widened, Refused uint64
	// Object views of settled players patched from their box's band
	// (objectBandStep), and those it refused.
	Banded, BandRefused uint64
}

// CacheKindNames names the kinds of [World.CacheStats], in its order.
var CacheKindNames = [cacheKinds]string{"objects", "pickups", "labels", "blips", "zones"}

// VehicleViewsSteady returns how many vehicle views were found unchanged
// without a grid query (vehicle.go, vehiclesSteady).
func (w *World) VehicleViewsSteady() uint64 { return w.caches.vehicleSteady }

// CacheStats returns the box caches' counters: objects, pickups, labels,
// blips, gang zones (CacheKindNames). The counters only grow: those of a
// cache dropped with its scope's grid are kept.
func (w *World) CacheStats() [cacheKinds]CacheStats {
	var out [cacheKinds]CacheStats
	for k, s := range w.caches.kinds {
		out[k].CacheStats, out[k].Boxes = s.stats()
		out[k].Repeats = s.repeats
		out[k].Steady = w.caches.steady[k]
		out[k].Stepped, out[k].Shelled, out[k].Refused = w.caches.stepped[k], w.caches.shelled[k], w.caches.refused[k]
		out[k].Held, out[k].Widened = w.caches.held[k], w.caches.widened[k]
	}
	out[cacheObjects].Banded, out[cacheObjects].BandRefused = w.caches.bandSteps, w.caches.bandRefused
	return out
}

// answerSum returns the count, weight and fingerprint of a cache's answer
// (the box's sure part and the band's hits), each hit fingerprinted by the
// caches' own sum, as the box's sure part was.
func (s *scopeCaches) answerSum(box *grid.Box, hits []grid.Hit) (n int, weight, sum uint64) {
	n, weight, sum = box.Len()+len(hits), box.Weight(), box.Sum()
	for i := range hits {
		weight += uint64(hits[i].Weight)
		sum += s.sum(hits[i].Key, hits[i].Rev)
	}
	return n, weight, sum
}
