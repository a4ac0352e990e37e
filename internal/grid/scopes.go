package grid

// Scope is where an entity lives: a virtual world and an interior. Entities
// of different scopes never see each other, so each scope has its own Grid.
type Scope struct {
	World    int32
	Interior uint8
}

// Scopes holds one Grid per scope for one kind of entity, all with the same
// cell size, created on first use. The zero value is not usable: call
// [NewScopes].
type Scopes struct {
	cell  float32
	grids map[Scope]*Grid
	// The grid of the scope last looked up (nil: none), so that a server
	// whose players are all in one scope does not hash a Scope for each
	// of the many look-ups of a tick (every sync, every view step).
	last  Scope
	lastG *Grid
}

// NewScopes returns an empty set of grids with the given cell size.
func NewScopes(cellSize float32) *Scopes {
	checkCell(cellSize)
	return &Scopes{cell: cellSize, grids: map[Scope]*Grid{}}
}

// Get returns the grid of the scope, creating it if needed.
func (s *Scopes) Get(sc Scope) *Grid {
	if s.lastG != nil && s.last == sc {
		return s.lastG
	}
	g := s.grids[sc]
	if g == nil {
		g = New(s.cell)
		s.grids[sc] = g
	}
	s.last, s.lastG = sc, g
	return g
}

// Lookup returns the grid of the scope, or nil if it has none: a query in a
// scope without entities finds nothing.
func (s *Scopes) Lookup(sc Scope) *Grid {
	if s.lastG != nil && s.last == sc {
		return s.lastG
	}
	g := s.grids[sc]
	if g != nil {
		s.last, s.lastG = sc, g
	}
	return g
}

// Prune drops the grid of the scope if it holds no entity, so that scopes
// used once (a player's private world) do not keep their directory.
func (s *Scopes) Prune(sc Scope) {
	if g := s.grids[sc]; g != nil && g.Len() == 0 {
		delete(s.grids, sc)
		if s.lastG == g {
			s.lastG = nil
		}
	}
}

// Len returns the number of scopes with a grid.
func (s *Scopes) Len() int { return len(s.grids) }
