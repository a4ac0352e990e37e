package client

import (
	"encoding/binary"
	"fmt"
	"time"

	"dlmp/client/mirror"
	"dlmp/internal/wire"
)

// SetSync sets what the next PlayerSync packets carry (token, seq and landed
// are the client's). The client sends one at its sync rate from now on, and
// detects pickup touches at its position. After a landing (SpawnPlayer,
// RespawnPlayer, TeleportPlayer) the caller moves the player to the landing
// point (World: Local().Pos) before its next SetSync.
func (c *Client) SetSync(s wire.PlayerSync) error {
	s.Token = c.hello.SessionToken
	if err := s.CheckSend(); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	seq := c.sync.Seq
	c.sync = s
	c.sync.Seq = seq
	c.hasSync, c.synced = true, true
	return nil
}

// event pushes one Go-Back-N event and sends it at once.
func (c *Client) event(p wire.Packet) error {
	if err := p.CheckSend(); err != nil {
		return err
	}
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return ErrClosed
	}
	err := c.gbn.Push(p.Append(nil))
	if err == nil {
		now := time.Now()
		c.gbn.Poll(now, func(d []byte) { c.send(d, now) })
	}
	c.mu.Unlock()
	c.flushOut()
	if err != nil {
		return fmt.Errorf("client: %w", err)
	}
	return nil
}

// Touch sends a PickupTouch of pickup id.
func (c *Client) Touch(pickup uint32) error {
	return c.event(&wire.PickupTouch{Token: c.hello.SessionToken, PickupID: pickup})
}

// Chat sends a chat line.
func (c *Client) Chat(text string) error {
	p := &wire.ClientChat{Token: c.hello.SessionToken}
	if !p.Text.Set(text) {
		return fmt.Errorf("client: chat text of %d bytes is too long or not UTF-8", len(text))
	}
	return c.event(p)
}

// Waypoint sets the player's map waypoint (a click on the map, or a
// removal): the client reports the change with PlayerWaypoint on its next
// tick, once the player has spawned (the server ignores it before).
func (c *Client) Waypoint(active bool, x, y float32) error {
	p := &wire.PlayerWaypoint{Token: c.hello.SessionToken, X: x, Y: y}
	if active {
		p.Active = 1
	}
	if err := p.CheckSend(); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return ErrClosed
	}
	c.world.SetMapWaypoint(mirror.Waypoint{Active: active, X: float64(x), Y: float64(y)})
	return nil
}

// SendEvent sends any Client → Server Go-Back-N packet (EntityEdit,
// NetvarClientSet, ...); its token is set here.
func (c *Client) SendEvent(p wire.Packet) error {
	if wire.LaneOf(p.ID()) != wire.LaneGoBackN {
		return fmt.Errorf("client: %s is not a Go-Back-N event", p.Name())
	}
	setToken(p, c.hello.SessionToken)
	return c.event(p)
}

// SendUnreliable sends a Client → Server unreliable packet (NetvarSync,
// NetvarResyncRequest) at once; its token is set here.
func (c *Client) SendUnreliable(p wire.Packet) error {
	if wire.LaneOf(p.ID()) != wire.LaneUnreliable || p.Dir() != wire.ClientToServer {
		return fmt.Errorf("client: %s is not a client unreliable packet", p.Name())
	}
	setToken(p, c.hello.SessionToken)
	if err := p.CheckSend(); err != nil {
		return err
	}
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return ErrClosed
	}
	c.send(p.Append(nil), time.Now())
	c.mu.Unlock()
	c.flushOut()
	return nil
}

// setToken writes token into a client packet's bytes 1..9.
func setToken(p wire.Packet, token uint64) {
	b := p.Append(nil)
	binary.LittleEndian.PutUint64(b[1:9], token)
	p.Parse(b)
}
