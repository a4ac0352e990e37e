package admin

import (
	"slices"
	"sync/atomic"
)

// MapBoard is a MapSource that the goroutine owning the world fills: a few
// times a second, while Server.MapWatchers is above zero, the tick builds the
// MapState of every scope and calls Publish. HTTP goroutines then read the
// last published board without touching world state. The zero value is an
// empty board, ready to use.
type MapBoard struct {
	p atomic.Pointer[board]
}

type board struct {
	states map[Scope]MapState
	scopes []Scope
}

// Publish replaces the board with states, one per scope. The board keeps the
// slices: the caller must not change them afterwards.
func (b *MapBoard) Publish(states []MapState) {
	nb := &board{states: make(map[Scope]MapState, len(states))}
	for _, st := range states {
		nb.states[st.Scope] = st
		nb.scopes = append(nb.scopes, st.Scope)
	}
	slices.SortFunc(nb.scopes, compareScope)
	b.p.Store(nb)
}

// MapState returns the last published state of the scope: empty when the
// scope was not published.
func (b *MapBoard) MapState(sc Scope) MapState {
	if cur := b.p.Load(); cur != nil {
		if st, ok := cur.states[sc]; ok {
			return st
		}
	}
	return MapState{Scope: sc}
}

// Scopes returns the scopes of the last Publish.
func (b *MapBoard) Scopes() []Scope {
	cur := b.p.Load()
	if cur == nil {
		return nil
	}
	return slices.Clone(cur.scopes)
}
