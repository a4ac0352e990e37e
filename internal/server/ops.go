package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"dlmp/internal/admin"
	"dlmp/internal/grid"
	"dlmp/internal/wire"
	"dlmp/internal/world"
)

// MapEvery is how often the world publishes the live map while someone
// watches it.
const MapEvery = 250 * time.Millisecond

// opsTimeout bounds how long an admin request waits for the tick.
const opsTimeout = 2 * time.Second

// startAdmin opens the admin listener when admin.listen is set.
func (s *Server) startAdmin() error {
	if s.cfg.Admin.Listen == "" {
		return nil
	}
	adm, err := admin.New(admin.Config{Listen: s.cfg.Admin.Listen, Token: s.cfg.Admin.Token, Logger: s.log}, source{s}, &s.board, console{s})
	if err != nil {
		return err
	}
	if err := adm.Start(); err != nil {
		return err
	}
	s.admin = adm
	s.log.Info("admin listening", "addr", adm.Addr().String())
	return nil
}

// AdminAddr is the admin listener's address, or "" when it is off.
func (s *Server) AdminAddr() string {
	if s.admin == nil {
		return ""
	}
	return s.admin.Addr().String()
}

// Console is the server's console, for stdin (admin.ReadConsole).
func (s *Server) Console() admin.Console { return console{s} }

// scriptStats is what the gamemode's Lua runtime reports, if it has one.
type scriptStats interface {
	LuaStats() (errors int, spent time.Duration)
}

// source gives /metrics its counters, read on the tick goroutine.
type source struct{ s *Server }

func (src source) Stats() admin.Stats {
	s := src.s
	tr := s.tr.Stats()
	st := admin.Stats{
		DatagramsIn: tr.DatagramsIn, DatagramsOut: tr.DatagramsOut,
		BytesIn: tr.BytesIn, BytesOut: tr.BytesOut,
		Drops: tr.Drops,
	}
	ctx, cancel := context.WithTimeout(context.Background(), opsTimeout)
	defer cancel()
	s.Do(ctx, func(w *world.World) {
		st.Players = w.Players()
		st.Retransmits, st.SendQueue, st.SendQueueMax = s.tr.LaneTotals()
		if ls, ok := s.gm.Gamemode.(scriptStats); ok {
			n, d := ls.LuaStats()
			st.LuaErrors, st.LuaTime = uint64(n), d
		}
		st.NetvarBytes = map[string]uint64{}
		for name, c := range s.nv.store.Counters() {
			st.NetvarBytes[name] = c.Bytes()
		}
		st.Caches = map[string]admin.CacheStats{"vehicles": {Steady: w.VehicleViewsSteady()}}
		for k, cs := range w.CacheStats() {
			st.Caches[world.CacheKindNames[k]] = admin.CacheStats{Queries: cs.Queries, Grid: cs.Grid,
				Builds: cs.Builds + cs.Parts, Steady: cs.Steady, Boxes: cs.Boxes,
				Stepped: cs.Stepped, Shelled: cs.Shelled, Refused: cs.Refused, Banded: cs.Banded, BandRefused: cs.BandRefused}
		}
	})
	return st
}

// publishMap builds the map of every scope and publishes it, on the tick.
func (s *Server) publishMap() {
	w := s.world
	states := map[admin.Scope]*admin.MapState{{}: {}}
	at := func(sc grid.Scope) (*admin.MapState, admin.Scope) {
		as := admin.Scope{World: sc.World, Interior: sc.Interior}
		if states[as] == nil {
			states[as] = &admin.MapState{}
		}
		return states[as], as
	}
	w.EachPlayer(func(p *world.Player) {
		pos, ok := p.Position()
		if !ok {
			return
		}
		st, sc := at(p.Scope())
		st.Players = append(st.Players, admin.MapPlayer{ID: uint32(p.ID()), Scope: sc, Name: p.Name(),
			X: pos.X, Y: pos.Y, Z: pos.Z, Color: p.Color()})
	})
	w.EachVehicle(func(v *world.Vehicle) {
		st, sc := at(v.Scope())
		pos := v.Position()
		st.Vehicles = append(st.Vehicles, admin.MapVehicle{ID: uint32(v.ID()), Scope: sc, Model: uint32(v.Model()), X: pos.X, Y: pos.Y, Z: pos.Z, Color: 0xC0C0C0})
	})
	w.EachPickup(func(pk *world.Pickup) {
		st, sc := at(pk.Scope())
		pos := pk.Position()
		st.Pickups = append(st.Pickups, admin.MapPickup{ID: pk.ID(), Scope: sc, Model: pk.Model(), X: pos.X, Y: pos.Y, Z: pos.Z, Active: pk.Active()})
	})
	for b := range w.Blips() {
		bp := b.Params()
		st, sc := at(bp.Scope)
		pos := b.Position()
		size := bp.Size
		if size == 0 {
			size = 1
		}
		st.Blips = append(st.Blips, admin.MapBlip{ID: b.ID(), Scope: sc, Sprite: bp.Sprite, Color: bp.Color, X: pos.X, Y: pos.Y, Z: pos.Z, Size: size})
	}
	for z := range w.GangZones() {
		zp := z.Params()
		st, sc := at(zp.Scope)
		st.Zones = append(st.Zones, admin.MapZone{ID: z.ID(), Scope: sc, Color: zp.Color, Alpha: zp.Alpha, Flashing: zp.Flashing, FlashColor: zp.FlashColor,
			MinX: zp.Min[0], MinY: zp.Min[1], MaxX: zp.Max[0], MaxY: zp.Max[1]})
	}
	for c := range w.Checkpoints() {
		cp := c.Params()
		st, sc := at(cp.Scope)
		st.Checkpoints = append(st.Checkpoints, admin.MapCheckpoint{ID: c.ID(), Scope: sc, Player: uint32(c.Owner().ID()), Kind: cp.Kind,
			X: cp.Pos.X, Y: cp.Pos.Y, Z: cp.Pos.Z, Radius: cp.Radius, Color: cp.Color})
	}
	for l := range w.Labels() {
		lp := l.Params()
		pos, sc := lp.Pos, lp.Scope
		if lp.AttachKind == wire.AttachPlayer { // drawn where the player is
			p := w.Player(uint16(lp.AttachID))
			if p == nil {
				continue
			}
			at, ok := p.Position()
			if !ok {
				continue
			}
			pos, sc = grid.Vec{X: at.X + lp.Pos.X, Y: at.Y + lp.Pos.Y, Z: at.Z + lp.Pos.Z}, p.Scope()
		}
		st, as := at(sc)
		st.Labels = append(st.Labels, admin.MapLabel{ID: l.ID(), Scope: as, Text: lp.Text, Color: lp.Color, X: pos.X, Y: pos.Y, Z: pos.Z})
	}
	out := make([]admin.MapState, 0, len(states))
	for sc, st := range states {
		st.Scope = sc
		out = append(out, *st)
	}
	s.board.Publish(out)
}

// console runs the console's commands on the tick goroutine.
type console struct{ s *Server }

func (c console) do(f func(w *world.World)) error {
	ctx, cancel := context.WithTimeout(context.Background(), opsTimeout)
	defer cancel()
	return c.s.Do(ctx, f)
}

func (c console) Status(out io.Writer) error {
	var players int
	var retransmits uint64
	var queued int
	if err := c.do(func(w *world.World) {
		players = w.Players()
		retransmits, queued, _ = c.s.tr.LaneTotals()
	}); err != nil {
		return err
	}
	ticks := c.s.peekTicks()
	fmt.Fprintf(out, "players %d/%d, up %v, tick %d Hz, syncs %d Hz (last %d ticks: p50 %v, p99 %v), reliable events queued %d, retransmissions %d\n",
		players, c.s.cfg.Server.MaxPlayers, time.Since(c.s.started).Round(time.Second), c.s.cfg.Server.TickHz, c.s.cfg.Server.SyncHz,
		ticks.Count, ticks.P50, ticks.P99, queued, retransmits)
	return nil
}

func (c console) Kick(id uint32, out io.Writer) error {
	var err error
	if derr := c.do(func(w *world.World) {
		p := w.Player(uint16(min(id, 0xFFFF)))
		if id > 0xFFFF || p == nil {
			err = fmt.Errorf("kick: no player %d", id)
			return
		}
		w.Kick(p)
	}); derr != nil {
		return derr
	}
	if err == nil {
		fmt.Fprintf(out, "kicked player %d\n", id)
	}
	return err
}

func (c console) NetworkDump(out io.Writer) error {
	_, err := io.WriteString(out, c.s.Command("network_dump"))
	return err
}

func (c console) NetworkSelftest(out io.Writer) error {
	res := c.s.Command("network_selftest")
	io.WriteString(out, res)
	if !strings.Contains(res, " 0 failed") {
		return errors.New("network_selftest: a check failed")
	}
	return nil
}

// Reload is not offered (docs/decisions/0182): a gamemode's entities live in the world, and a
// fresh VM would not own them. Restart the server to load a new gamemode.
func (c console) Reload(out io.Writer) error {
	return errors.New("reload: not supported; restart the server to load a changed gamemode (the world keeps the old gamemode's entities)")
}
