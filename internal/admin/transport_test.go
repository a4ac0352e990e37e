package admin

import (
	"maps"
	"testing"

	"dlmp/internal/transport"
)

func TestSetTransport(t *testing.T) {
	ts := transport.StatsSnapshot{
		DatagramsIn: 5, DatagramsOut: 6, BytesIn: 700, BytesOut: 800,
		Drops: map[string]uint64{"rate": 3, "bad_token": 1},
	}
	st := Stats{Players: 4, LuaErrors: 9}
	st.SetTransport(ts)
	if st.DatagramsIn != 5 || st.DatagramsOut != 6 || st.BytesIn != 700 || st.BytesOut != 800 {
		t.Errorf("datagrams %d/%d bytes %d/%d, want 5/6 and 700/800", st.DatagramsIn, st.DatagramsOut, st.BytesIn, st.BytesOut)
	}
	if !maps.Equal(st.Drops, ts.Drops) {
		t.Errorf("drops %v, want %v", st.Drops, ts.Drops)
	}
	if st.Players != 4 || st.LuaErrors != 9 {
		t.Errorf("players %d, lua errors %d: SetTransport changed fields it does not own", st.Players, st.LuaErrors)
	}
	ts.Drops["rate"] = 100
	if st.Drops["rate"] != 3 {
		t.Error("Stats.Drops shares the snapshot's map")
	}
}
