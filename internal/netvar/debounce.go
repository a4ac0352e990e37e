package netvar

import (
	"time"
)

// debounceKey is one (owner, var) pair under Debounce.
type debounceKey struct {
	ent Ref
	v   *Var
}

// debounceState is a pair's window: when the last change was dispatched,
// and the single pending slot (latest wins).
type debounceState struct {
	last       time.Time
	interval   time.Duration // the floor today; the ceiling reserves escalation
	pending    any
	hasPending bool
}

// debouncedSet applies now during a quiet period, otherwise overwrites the
// pending slot, applied when the window closes (flushDebounce).
func (st *Store) debouncedSet(now time.Time, ent Ref, v *Var, value any) {
	k := debounceKey{ent, v}
	d := st.debounce[k]
	if d != nil && now.Before(d.last.Add(d.interval)) {
		d.pending, d.hasPending = value, true
		return
	}
	if st.apply(ent, v, value) {
		if d == nil {
			d = &debounceState{interval: v.debounce}
			st.debounce[k] = d
		}
		d.last = now
		d.hasPending = false
	}
}

// flushDebounce applies every pending value whose window has closed and
// forgets pairs that are quiet with nothing pending.
func (st *Store) flushDebounce(now time.Time) {
	for k, d := range st.debounce {
		if now.Before(d.last.Add(d.interval)) {
			continue
		}
		if d.hasPending {
			value := d.pending
			d.pending, d.hasPending = nil, false
			if st.apply(k.ent, k.v, value) {
				d.last = now
				continue
			}
		}
		delete(st.debounce, k)
	}
}

// floodState is one player's ClientSet count in the current second.
type floodState struct {
	start  time.Time
	count  int
	warned bool
}

// ClientSet handles a ClientSet message from p: the floodgate first
// (ClientSetRate per second, the rest of the second ignored with one
// warning), then the bare entry is decoded and, for a ClientOwned var,
// handed to the ordinary setter on p's own player. Everything dropped is
// counted; nothing here panics on the payload.
func (st *Store) ClientSet(now time.Time, p PlayerID, payload []byte) error {
	f := st.flood[p]
	if f == nil || !now.Before(f.start.Add(time.Second)) {
		if f == nil {
			f = &floodState{}
			st.flood[p] = f
		}
		*f = floodState{start: now}
	}
	f.count++
	if f.count > st.cfg.ClientSetRate {
		st.stats.ClientSetFlooded++
		if !f.warned {
			f.warned = true
			st.log.Warn("netvar: ClientSet floodgate: ignoring the rest of this second", "player", p, "rate", st.cfg.ClientSetRate)
		}
		return errFlooded
	}
	if !st.ready[p] {
		st.stats.ClientSetRejected++
		return errNotReady
	}
	v, value, err := DecodeClientSet(payload, st.s)
	if err != nil {
		st.stats.ClientSetRejected++
		st.log.Debug("netvar: ClientSet dropped", "player", p, "err", err)
		return err
	}
	if !v.clientOwned {
		st.stats.ClientSetRejected++
		st.log.Warn("netvar: ClientSet for a var that is not ClientOwned", "player", p, "var", v.name)
		return errNotClientOwned
	}
	return st.set(now, PlayerRef(uint16(p)), v, value)
}

type clientSetError string

func (e clientSetError) Error() string { return string(e) }

const (
	errFlooded        clientSetError = "netvar: ClientSet over the floodgate"
	errNotReady       clientSetError = "netvar: ClientSet before the handshake"
	errNotClientOwned clientSetError = "netvar: ClientSet for a var that is not ClientOwned"
)
