package world

import (
	"slices"
	"testing"
)

func TestUserIDClimbsAcrossRecycledSlots(t *testing.T) {
	f := newFixture(t, nil)
	a, _ := f.join()
	b, _ := f.join()
	if a.UserID() != 1 || b.UserID() != 2 {
		t.Fatalf("UserIDs = %d, %d; want 1, 2", a.UserID(), b.UserID())
	}
	f.w.Leave(a, 0)
	c, _ := f.join()
	if c.ID() != a.ID() {
		t.Fatalf("the new player took slot %d, want the freed slot %d", c.ID(), a.ID())
	}
	if c.UserID() != 3 {
		t.Errorf("the recycled slot's UserID = %d, want 3", c.UserID())
	}
	if got, want := f.w.AppendPlayerIDs(nil), []uint16{c.ID(), b.ID()}; !slices.Equal(got, want) {
		t.Errorf("AppendPlayerIDs = %v, want %v", got, want)
	}
	f.w.Leave(b, 0)
	if got, want := f.w.AppendPlayerIDs(nil), []uint16{c.ID()}; !slices.Equal(got, want) {
		t.Errorf("after a leave AppendPlayerIDs = %v, want %v", got, want)
	}
}
