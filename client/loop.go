package client

import (
	"encoding/binary"
	"errors"
	"time"

	"dlmp/client/mirror"
	"dlmp/internal/conn"
	"dlmp/internal/lane"
	"dlmp/internal/wire"
)

// readBatch is how many datagrams the reader takes from the socket in one
// system call (recvmmsg, package conn). A client that keeps up reads one or
// two a wake-up; one that fell behind (a bot process on a busy machine)
// reads its backlog at a fraction of the calls, and handles it under one
// lock.
const readBatch = 8

// readLoop reads the server's datagrams and handles each as it arrives,
// under the lock, in the batch's buffers (the lane and the mirror copy what
// they keep). It wakes the loop only when there is something for it to do
// outside the lock: datagrams to write, callbacks to run. A datagram thus
// costs no hand-off between goroutines, and a client on a busy machine
// does not judge the server silent while its datagrams wait in a queue.
// On Linux the reading is read_linux.go's; elsewhere readEach's.
func (c *Client) readLoop() {
	defer c.wg.Done()
	ms := make([]conn.Message, readBatch)
	for i := range ms {
		ms[i].Buf = make([]byte, 1500)
	}
	c.read(ms)
	c.mu.Lock()
	c.endLocked(0, ErrClosed)
	c.mu.Unlock()
	c.uc.Close()
}

// readEach reads with conn.ReadBatch until the socket is closed: a wait
// for readiness and a recvmmsg (or recvfrom) a batch, and a recvmmsg that
// finds the socket empty before each wait.
func (c *Client) readEach(ms []conn.Message) {
	for {
		n, err := c.rc.ReadBatch(ms)
		if refused(err) {
			c.refusedRead()
			continue // transient: the server-silent timeout decides
		}
		if err != nil || !c.handleBatch(ms[:n]) {
			return
		}
	}
}

// refusedRead counts a read failed by ECONNREFUSED (refused).
func (c *Client) refusedRead() {
	c.mu.Lock()
	c.stats.Refused++
	c.mu.Unlock()
}

// handleBatch handles the datagrams of one read (not the server's ones, or
// empty or too long, dropped) and wakes the loop if it has work. It
// reports whether the connection still runs.
func (c *Client) handleBatch(ms []conn.Message) bool {
	now := time.Now()
	c.mu.Lock()
	for _, m := range ms {
		if m.Addr != c.server || m.N == 0 || m.N > wire.MaxDatagram {
			continue
		}
		c.receiveLocked(m.Buf[:m.N], now)
	}
	wake := len(c.out) > 0 || len(c.pending) > 0 || len(c.nv.changes) > 0
	alive := c.err == nil
	c.mu.Unlock()
	if wake {
		select {
		case c.kick <- struct{}{}:
		default: // the loop is already due to drain
		}
	}
	return alive
}

// loop ticks (unless a Ticker does), and writes the queued datagrams and
// runs the callbacks when the reader asks.
func (c *Client) loop() {
	defer c.wg.Done()
	var tick <-chan time.Time
	if c.cfg.Ticker == nil {
		t := time.NewTicker(c.tickPeriod())
		defer t.Stop()
		tick = t.C
	}
	for {
		select {
		case <-c.kick:
			c.cb.Lock()
			c.drain()
			c.cb.Unlock()
		case now := <-tick:
			c.tick(now)
		case <-c.done:
			return
		}
	}
}

// tickPeriod is the client's tick period: the hello's sync_hz (20 Hz when
// it says 0).
func (c *Client) tickPeriod() time.Duration {
	hz := c.hello.SyncHz
	if hz == 0 {
		hz = 20
	}
	return time.Second / time.Duration(hz)
}

// tick runs one client tick: OnTick, the tick's sends, the callbacks. It
// reports false, doing nothing, once the connection ended.
func (c *Client) tick(now time.Time) bool {
	c.cb.Lock()
	defer c.cb.Unlock()
	select {
	case <-c.done:
		return false
	default:
	}
	if c.cfg.OnTick != nil {
		c.cfg.OnTick(now)
	}
	c.mu.Lock()
	c.tickLocked(now)
	c.mu.Unlock()
	c.drain()
	return true
}

// drain writes the queued datagrams and runs the callbacks, unlocked,
// under cb: the loop goroutine calls it, and a Ticker's.
func (c *Client) drain() {
	c.flushOut()
	c.mu.Lock()
	pending := c.pending
	c.pending = nil
	changes := c.takeNetvarChanges()
	c.mu.Unlock()
	if c.cfg.OnPacket != nil {
		for _, p := range pending {
			c.cfg.OnPacket(p)
		}
	}
	for _, ch := range changes {
		c.cfg.OnNetvar(ch)
	}
}

// flushOut writes the queued datagrams; any goroutine may call it. The
// writing is serialized (wmu), so the buffers written go back to the spares
// of send once written.
func (c *Client) flushOut() {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.mu.Lock()
	out := c.out
	c.out = c.written[:0]
	c.mu.Unlock()
	for _, d := range out {
		c.uc.Write(d) // connected: a refusal is transient, a loss is the lanes' to repair
	}
	c.mu.Lock()
	for i, d := range out {
		if len(c.spare) < maxSpares {
			c.spare = append(c.spare, d[:0])
		}
		out[i] = nil
	}
	c.written = out[:0]
	c.mu.Unlock()
}

// receiveLocked handles one datagram from the server.
func (c *Client) receiveLocked(d []byte, now time.Time) {
	if c.err != nil {
		return
	}
	c.stats.DatagramsIn++
	c.stats.BytesIn += len(d)
	for len(d) > 0 {
		if d[0] == wire.IDPlayerMove && len(d) >= wire.PlayerMoveLen && c.fastMove(d[:wire.PlayerMoveLen], now) {
			d = d[wire.PlayerMoveLen:] // moves.go
			continue
		}
		p, n, err := c.split.Next(d)
		if err != nil {
			c.stats.Unknown++
			return
		}
		pkt := d[:n]
		d = d[n:]
		if p.Dir() != wire.ServerToClient {
			c.stats.Unknown++
			continue
		}
		c.lastHeard = now
		switch wire.LaneOf(p.ID()) {
		case wire.LaneReliable:
			if p.ID() != wire.IDFragment && p.CheckRecv() != nil {
				c.stats.Invalid++ // dropped without an ack: the lane stalls on it
				continue
			}
			if err := c.recv.Offer(pkt, now, c.deliver); err != nil {
				c.endLocked(wire.ReasonProtocolError, err)
				return
			}
		case wire.LaneUnreliable:
			if p.CheckRecv() != nil {
				c.stats.Invalid++
				continue
			}
			if !c.world.ApplySnapshot(p, c.lastHeard) {
				c.stats.Stale++ // not newer than the last of its entity
				continue
			}
			c.keep(p, pkt)
		case wire.LaneControl:
			c.control(p, now)
		}
		if c.err != nil {
			return
		}
	}
}

// deliver receives one in-order reliable message from the lane.
func (c *Client) deliver(msg []byte) {
	p, n, err := c.events.Next(msg) // the mirror and the netvars keep copies, not the packet
	switch {
	case errors.Is(err, wire.ErrUnknown):
		c.stats.Unknown++
		return
	case err != nil || n != len(msg) || p.CheckRecv() != nil:
		c.stats.Invalid++ // a reassembled message that breaks a rule
		return
	}
	c.stats.Events++
	if id := binary.LittleEndian.Uint32(msg[1:5]); id != c.expect {
		c.stats.Lost += int(id - c.expect)
	}
	c.expect = c.recv.Next()
	switch p.ID() {
	case wire.IDSpawnPlayer, wire.IDRespawnPlayer, wire.IDTeleportPlayer:
		c.landed = binary.LittleEndian.Uint32(msg[1:5]) // PlayerSync.landed from now on
		c.synced = false                                // the app's position predates the landing
	}
	// The mirror and the netvars copy what they keep (no packet they take
	// aliases its buffer but the netvars' payloads, which they clone): the
	// packet is cloned only for OnPacket, which runs after the lane reused
	// the buffer.
	if c.cfg.OnPacket != nil {
		p = clonePacket(p)
		c.pending = append(c.pending, p)
	}
	c.world.Apply(p, c.lastHeard)
	c.deliverNetvar(p)
}

// keep queues a copy of a fresh unreliable snapshot (p, parsed from pkt by
// the splitter, applied by the mirror) for OnPacket, when there is one:
// snapshots are the bulk of the traffic, and a client without OnPacket
// allocates nothing for them.
func (c *Client) keep(p wire.Packet, pkt []byte) {
	if c.cfg.OnPacket != nil {
		q := wire.New(pkt[0])
		q.Parse(append([]byte(nil), pkt...))
		c.pending = append(c.pending, q)
	}
}

// clonePacket copies p so that no field aliases a lane buffer.
func clonePacket(p wire.Packet) wire.Packet {
	q := wire.New(p.ID())
	q.Parse(p.Append(nil))
	return q
}

// control handles the packets outside the lanes.
func (c *Client) control(p wire.Packet, now time.Time) {
	switch x := p.(type) {
	case *wire.ServerAck:
		c.gbn.OnAck(*x, now)
	case *wire.ServerKeepalive:
		if x.Echo != 0 && !c.rttPing.IsZero() && uint32(c.rttPing.UnixMilli()) == x.Echo {
			c.rtt = now.Sub(c.rttPing)
		}
	case *wire.Disconnect:
		if x.CheckRecv() == nil && x.Token == c.hello.SessionToken {
			c.endLocked(x.Reason, &DisconnectError{Reason: x.Reason})
		}
	}
}

// newGBN returns the sender of the client's own events. The server acks
// them once a tick of its own, at least sync_hz of them a second, so its
// longest hold is our tick (tickPeriod) and lane.AckSlack: lane's default
// of 40 ms is shorter than a 20 Hz server's tick.
func (c *Client) newGBN() *lane.GBNSender {
	return lane.NewGBNSender(lane.GBNConfig{MaxAckDelay: lane.AckDelayOf(c.tickPeriod())})
}

// tickLocked sends what is due: ClientAck, Go-Back-N events, PlayerSync,
// keepalive; and ends a silent or dead connection.
func (c *Client) tickLocked(now time.Time) {
	if c.err != nil {
		return
	}
	timeout := time.Duration(c.hello.TimeoutMs) * time.Millisecond
	if now.Sub(c.lastHeard) > timeout {
		c.send((&wire.ClientDisconnect{Token: c.hello.SessionToken, Reason: wire.ReasonTimeout}).Append(nil), now)
		c.endLocked(wire.ReasonTimeout, errors.New("client: the server went silent"))
		return
	}
	if err := c.gbn.Dead(); err != nil {
		c.endLocked(wire.ReasonTimeout, err)
		return
	}
	d := c.tickBuf[:0] // send copies it
	if c.recv.AckDue() {
		a := c.recv.Ack(now)
		d = a.Append(d)
	}
	rate := c.cfg.SyncRate
	if rate <= 0 {
		rate = int(c.hello.SyncHz)
	}
	period := time.Second / time.Duration(rate)
	if c.hasSync && now.Sub(c.lastSync) >= period-time.Millisecond {
		c.sync.Token = c.hello.SessionToken
		c.sync.Landed = c.landed
		c.sync.Seq++
		d = c.sync.Append(d)
		// Keep the schedule, not the tick's time: a rate that does not
		// divide the loop's would drift low (20 Hz on a 50 Hz loop, every
		// 60 ms). A loop late by a period restarts it rather than bursting.
		next := c.lastSync.Add(period)
		if now.Sub(next) >= period {
			next = now
		}
		c.lastSync = next
	}
	keepalive := time.Duration(c.hello.KeepaliveMs) * time.Millisecond
	if len(d) == 0 && now.Sub(c.lastSent) >= keepalive || now.Sub(c.rttPing) >= RTTProbe {
		c.rttPing = now
		d = (&wire.ClientKeepalive{Token: c.hello.SessionToken, Ping: uint32(now.UnixMilli())}).Append(d)
		a := c.recv.Ack(now) // a keepalive carries an ack too
		d = a.Append(d)
	}
	if len(d) > 0 {
		c.send(d, now)
	}
	c.tickBuf = d[:0]
	c.worldEvents(now)
	c.netvarTick(now)
	c.gbn.Poll(now, func(dg []byte) { c.send(dg, now) })
}

// worldEvents advances the mirror and queues the events it calls for:
// pickup touches at the synced position, waypoint reports.
func (c *Client) worldEvents(now time.Time) {
	c.world.Advance(now)
	if c.hasSync && c.synced && c.sync.State >= wire.StateOnFoot && c.sync.State < wire.StateDead {
		pos := mirror.Vec3{X: float64(c.sync.X), Y: float64(c.sync.Y), Z: float64(c.sync.Z)}
		c.world.SetLocalPose(pos, float64(c.sync.Heading))
		c.touches = c.world.Touches(c.touches[:0], pos, now)
		for _, id := range c.touches {
			if c.gbn.Push((&wire.PickupTouch{Token: c.hello.SessionToken, PickupID: id}).Append(nil)) == nil {
				c.stats.Touches++
			}
		}
	}
	if wp, ok := c.world.WaypointReport(); ok {
		wp.Token = c.hello.SessionToken
		c.gbn.Push(wp.Append(nil))
	}
}

// maxSpares bounds the written datagram buffers a client keeps for reuse.
const maxSpares = 8

// send queues a copy of one datagram for writing after the lock is
// released, in a buffer flushOut gave back when it has one.
func (c *Client) send(d []byte, now time.Time) {
	var buf []byte
	if n := len(c.spare); n > 0 {
		buf, c.spare[n-1], c.spare = c.spare[n-1], nil, c.spare[:n-1]
	}
	c.out = append(c.out, append(buf, d...))
	c.stats.DatagramsOut++
	c.stats.BytesOut += len(d)
	c.lastSent = now
}

// endLocked ends the connection once.
func (c *Client) endLocked(reason uint8, err error) {
	if c.err != nil {
		return
	}
	c.err, c.reason = err, reason
	close(c.done)
	// The reader closes the socket when it returns (readLoop); a deadline
	// in the past wakes it. Closing here, under the lock, would wait for a
	// read in progress, which may be waiting for the lock (read_linux.go).
	c.uc.SetReadDeadline(time.Unix(1, 0))
	if c.cfg.OnDisconnect != nil {
		go c.cfg.OnDisconnect(reason, err) // outside the lock and the loop, which is ending
	}
}
