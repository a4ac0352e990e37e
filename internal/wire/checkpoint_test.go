package wire

import "testing"

func validCheckpoint() Packet {
	return &Checkpoint{
		EventID: 12, CheckpointID: 33, Active: 1, Kind: CheckpointRace,
		X: 1544.5, Y: -1353.25, Z: 329.5,
		NextX: 1480, NextY: -1400.75, NextZ: 330,
		Radius: 8, Color: 0xE01010,
	}
}

func TestCheckpointExample(t *testing.T) {
	checkExample(t, "checkpoint.bin", validCheckpoint())
	checkTruncated(t, validCheckpoint().Append(nil), func() Packet { return new(Checkpoint) })
}

func checkpointCases() []ruleCase {
	cp := func(f func(*Checkpoint)) func(Packet) { return on(f) }
	cases := []ruleCase{
		{"active 0", cp(func(p *Checkpoint) { p.Active = 0 }), ""},
		{"active 2", cp(func(p *Checkpoint) { p.Active = 2 }), "active"},
		{"kind 0", cp(func(p *Checkpoint) { p.Kind = 0 }), ""},
		{"kind 4", cp(func(p *Checkpoint) { p.Kind = CheckpointAirFinish }), ""},
		{"kind 5", cp(func(p *Checkpoint) { p.Kind = 5 }), "kind"},
		{"kind 255", cp(func(p *Checkpoint) { p.Kind = 255 }), "kind"},
		{"color 0xFFFFFF", cp(func(p *Checkpoint) { p.Color = 0xFFFFFF }), ""},
		{"color 0x1000000", cp(func(p *Checkpoint) { p.Color = 0x1000000 }), "color"},
		{"next at the position", cp(func(p *Checkpoint) { p.NextX, p.NextY, p.NextZ = p.X, p.Y, p.Z }), ""},
	}
	cases = append(cases, worldCases("x", "y", "z", func(p Packet, axis int, v float32) {
		c := p.(*Checkpoint)
		*[]*float32{&c.X, &c.Y, &c.Z}[axis] = v
	})...)
	cases = append(cases, worldCases("next_x", "next_y", "next_z", func(p Packet, axis int, v float32) {
		c := p.(*Checkpoint)
		*[]*float32{&c.NextX, &c.NextY, &c.NextZ}[axis] = v
	})...)
	return append(cases, floatCases("radius", func(p Packet, v float32) { p.(*Checkpoint).Radius = v }, 0, MaxCheckpointRadius, true)...)
}

func TestCheckpointRules(t *testing.T) {
	checkRules(t, "server", validCheckpoint, send, checkpointCases())
	checkRules(t, "client", validCheckpoint, recv, checkpointCases())
	checkHide(t, validCheckpoint, 9, checkpointCases())
}

func FuzzCheckpoint(f *testing.F) {
	f.Add(validCheckpoint().Append(nil))
	hide := validCheckpoint().Append(nil)
	hide[9] = 0
	f.Add(hide)
	f.Add(make([]byte, CheckpointLen))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRoundTrip(t, data, func() Packet { return new(Checkpoint) }) })
}

func BenchmarkCheckpoint(b *testing.B) {
	benchCodec(b, validCheckpoint(), func() Packet { return new(Checkpoint) })
}
