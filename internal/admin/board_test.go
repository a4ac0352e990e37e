package admin

import (
	"slices"
	"testing"
	"time"
)

func TestMapBoard(t *testing.T) {
	var b MapBoard
	if got := b.Scopes(); got != nil {
		t.Errorf("empty board: scopes %v, want none", got)
	}
	if got := b.MapState(Scope{World: 4}); got.Scope != (Scope{World: 4}) || got.Players != nil {
		t.Errorf("empty board: state %+v, want an empty state of the scope", got)
	}
	b.Publish([]MapState{
		{Scope: Scope{World: 2}, Players: []MapPlayer{{ID: 1}}},
		{Scope: Scope{World: -1, Interior: 5}},
		{Scope: Scope{}, Players: []MapPlayer{{ID: 7}, {ID: 8}}},
	})
	want := []Scope{{World: -1, Interior: 5}, {}, {World: 2}}
	if got := b.Scopes(); !slices.Equal(got, want) {
		t.Errorf("scopes %v, want %v", got, want)
	}
	if got := len(b.MapState(Scope{}).Players); got != 2 {
		t.Errorf("world 0: %d players, want 2", got)
	}
	b.Publish([]MapState{{Scope: Scope{World: 2}}})
	if got := len(b.MapState(Scope{}).Players); got != 0 {
		t.Errorf("after a publish without world 0: %d players, want 0", got)
	}
}

func TestMapWatchers(t *testing.T) {
	var b MapBoard
	b.Publish([]MapState{{Players: []MapPlayer{{ID: 3, Name: "Dee"}}}})
	s, err := New(Config{Listen: "127.0.0.1:0", MapInterval: time.Millisecond}, nil, &b, nil)
	if err != nil {
		t.Fatal(err)
	}
	url := newHTTPTest(t, s)
	if got := s.MapWatchers(); got != 0 {
		t.Errorf("watchers %d before any stream, want 0", got)
	}
	next := events(t, url, "")
	if ev := next(); len(ev.State.Players) != 1 || ev.State.Players[0].Name != "Dee" {
		t.Errorf("players %+v, want Dee from the board", ev.State.Players)
	}
	if got := s.MapWatchers(); got != 1 {
		t.Errorf("watchers %d with one stream open, want 1", got)
	}
}
