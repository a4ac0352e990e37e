package world

import (
	"encoding/binary"
	"testing"

	"dlmp/internal/lane"
)

// sharedByCopy makes countConn's SendShared a Send (the copy): the
// baseline of BenchmarkCrowdCrossingShared, side by side.
var sharedByCopy bool

// SendShared is the benchmarks' model of transport.Session's push by
// reference (decision 0406): the lane keeps a reference to the label's
// bytes and writes only its slot's head, without reading the bytes, so the
// client's queue (sink, in the -cold benchmarks) is written 16 bytes, the
// size of a reference, instead of the message's copy, and msg is not read:
// the world sends only label shows so (sendShared), and they are counted
// as such. With sharedByCopy set, or a churn count to keep (which reads
// the message), it is Send.
func (c *countConn) SendShared(msg []byte, class lane.Class) error {
	if sharedByCopy || c.churn != nil {
		return c.Send(msg, class)
	}
	if c.sink != nil {
		if c.at+16 > len(c.sink) {
			c.at = 0
		}
		binary.LittleEndian.PutUint64(c.sink[c.at:], uint64(len(msg)))
		binary.LittleEndian.PutUint64(c.sink[c.at+8:], uint64(c.at))
		c.at += 16
	}
	c.label++
	return nil
}

// BenchmarkCrowdCrossingShared is BenchmarkCrowdCrossing's crossing-cold
// with the name labels' shows pushed by reference (the model above) and,
// side by side, by copy (crossing-cold-copy: as BenchmarkCrowdCrossing
// before decision 0406). tick-mean-ms and tick-p99-ms are the world's
// tick; the lane's Poll, which reads the shared bytes, is not in it.
//
//	go test ./internal/world -run '^$' -bench CrowdCrossingShared -benchtime 400x
func BenchmarkCrowdCrossingShared(b *testing.B) {
	for _, byCopy := range []bool{false, true} {
		name := "crossing-cold"
		if byCopy {
			name += "-copy"
		}
		b.Run(name, func(b *testing.B) {
			sharedByCopy = byCopy
			defer func() { sharedByCopy = false }()
			benchCrossing(b, false, true)
		})
	}
}
