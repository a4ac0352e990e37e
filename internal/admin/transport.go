package admin

import "dlmp/internal/transport"

// SetTransport copies the transport's counters into st: datagrams and bytes
// in and out, and the drops by reason. The other fields are left alone.
func (st *Stats) SetTransport(ts transport.StatsSnapshot) {
	st.DatagramsIn, st.DatagramsOut = ts.DatagramsIn, ts.DatagramsOut
	st.BytesIn, st.BytesOut = ts.BytesIn, ts.BytesOut
	st.Drops = make(map[string]uint64, len(ts.Drops))
	for reason, n := range ts.Drops {
		st.Drops[reason] = n
	}
}
