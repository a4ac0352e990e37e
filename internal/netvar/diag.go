package netvar

import (
	"fmt"
	"log/slog"
	"slices"
	"strings"
)

// SelfTest re-runs the library's server-local assertions (network_selftest):
// the resync queue's merge lattice, and that a failed Filter check emits a
// revoke only when the entry revokes. The assertions are pure: safe at any
// time on any server. It logs and returns a pass/fail summary.
func SelfTest(log *slog.Logger) (summary string, ok bool) {
	var failures []string
	pass := 0
	check := func(cond bool, what string, args ...any) {
		if cond {
			pass++
		} else {
			failures = append(failures, fmt.Sprintf(what, args...))
		}
	}
	ab, bc, a := NewNameSet("a", "b"), NewNameSet("b", "c"), NewNameSet("a")
	entries := []QueueEntry{{}, QueueAll, QueueBootstrap, QueueNames(ab), QueueNames(bc), QueueNames(a)}
	broader := func(x, y QueueEntry) bool {
		if y.IsZero() {
			return true
		}
		if x.IsZero() || y.Revokes() && !x.Revokes() {
			return false
		}
		for _, n := range []string{"a", "b", "c", "z"} {
			if y.Covers(n) && !x.Covers(n) {
				return false
			}
		}
		return true
	}
	same := func(x, y QueueEntry) bool { return x.kind == y.kind && broader(x, y) && broader(y, x) }
	for _, x := range entries {
		for _, y := range entries {
			m := MergeQueueEntry(x, y)
			check(broader(m, x) && broader(m, y), "merge(%v, %v) = %v is narrower than an input", x, y, m)
			check(same(m, MergeQueueEntry(y, x)), "merge(%v, %v) is not commutative", x, y)
			check(!(m.kind == entryNames && !m.Revokes()), "merge(%v, %v) produced names without revokes", x, y)
			for _, z := range entries {
				l, r := MergeQueueEntry(MergeQueueEntry(x, y), z), MergeQueueEntry(x, MergeQueueEntry(y, z))
				check(same(l, r), "merge of %v, %v, %v depends on grouping", x, y, z)
			}
		}
	}
	check(MergeQueueEntry(QueueBootstrap, QueueNames(ab)).kind == entryAll, "false + names is not true")
	m := MergeQueueEntry(QueueNames(ab), QueueNames(bc))
	check(m.names != ab && m.names != bc && ab.Len() == 2 && bc.Len() == 2, "merging widened a stored name set in place")

	// The revoke rule, on a filtered var nobody passes.
	v := &Var{name: "selftest", id: 0, recip: Filter, recipFn: func(Ref, any) []PlayerID { return nil }}
	masked := &Var{name: "selftest_masked", id: 1, recip: Filter, recipFn: v.recipFn, def: "user", hasDef: true}
	ent := Ref{KindObject, 1}
	for _, c := range []struct {
		v      *Var
		e      QueueEntry
		sends  bool
		expect any
	}{
		{v, QueueAll, true, nil},
		{v, QueueNames(NewNameSet("selftest")), true, nil},
		{v, QueueBootstrap, false, nil},
		{masked, QueueAll, true, "user"},
		{masked, QueueBootstrap, false, nil},
	} {
		got, sends := resyncValue(1, ent, c.v, "secret", c.e)
		check(sends == c.sends && Equal(got, c.expect), "failed Filter with entry %v on %s: sends=%v value=%v, want sends=%v value=%v", c.e, c.v.name, sends, got, c.sends, c.expect)
	}
	open := &Var{name: "open", recip: Filter, recipFn: func(Ref, any) []PlayerID { return []PlayerID{1} }}
	got, sends := resyncValue(1, ent, open, "truth", QueueBootstrap)
	check(sends && got == "truth", "a passed Filter did not send the value")

	ok = len(failures) == 0
	summary = fmt.Sprintf("network_selftest: %d passed, %d failed", pass, len(failures))
	if ok {
		log.Info(summary)
	} else {
		log.Error(summary, "failures", strings.Join(failures, "; "))
		summary += "\n  " + strings.Join(failures, "\n  ")
	}
	return summary, ok
}

// Dump is network_dump: the sealed registry, per connected player the
// handshake status and resync queue depth, and every (owner, var) pair
// mid-window or escalated off its debounce floor.
func (st *Store) Dump() string {
	var b strings.Builder
	fmt.Fprintf(&b, "registry: %d vars, id bits %d, manifest %d bytes, hash %08x\n", st.s.Len(), st.s.IDBits(), len(st.reg.Manifest()), st.s.Hash())
	for _, v := range st.s.Vars() {
		fmt.Fprintf(&b, "  %3d %-32s %-11s %s", v.id, v.name, v.scope, codecLabel(v))
		if v.recip != Broadcast && v.scope != ScopeLocalPlayer {
			fmt.Fprintf(&b, " %s", v.recip)
		}
		if v.recip == Filter {
			b.WriteString(" filtered")
		}
		if v.clientOwned {
			b.WriteString(" clientOwned")
		}
		if v.debounce > 0 {
			fmt.Fprintf(&b, " debounce=%g..%g", v.debounce.Seconds(), v.ceiling.Seconds())
		}
		if v.noSync {
			b.WriteString(" noSync")
		}
		if v.maxBits >= 0 {
			fmt.Fprintf(&b, " max=%dB", (v.maxBits+7)/8)
		}
		if c := st.counters[v]; c != nil {
			fmt.Fprintf(&b, " updates=%d/%dB resyncs=%d/%dB", c.Updates, c.UpdateBytes, c.Resyncs, c.ResyncBytes)
		}
		b.WriteByte('\n')
	}
	players := slices.Clone(st.world.Players())
	slices.Sort(players)
	fmt.Fprintf(&b, "players: %d\n", len(players))
	for _, p := range players {
		hs := "pending"
		if st.ready[p] {
			hs = "done"
		}
		n, narrowed, boot := st.queues.Depth(p)
		fmt.Fprintf(&b, "  %d handshake=%s queued=%d", p, hs, n)
		if narrowed > 0 || boot > 0 {
			fmt.Fprintf(&b, " (narrowed=%d bootstrap=%d)", narrowed, boot)
		}
		b.WriteByte('\n')
	}
	type row struct {
		ent  Ref
		name string
		line string
	}
	var rows []row
	for k, d := range st.debounce {
		if !d.hasPending && d.interval == k.v.debounce {
			continue
		}
		line := fmt.Sprintf("  %v %s interval=%gs", k.ent, k.v.name, d.interval.Seconds())
		if d.hasPending {
			line += fmt.Sprintf(" pending=%v", d.pending)
		}
		rows = append(rows, row{k.ent, k.v.name, line})
	}
	slices.SortFunc(rows, func(x, y row) int { return strings.Compare(x.line, y.line) })
	fmt.Fprintf(&b, "debounce: %d pending or escalated\n", len(rows))
	for _, r := range rows {
		b.WriteString(r.line)
		b.WriteByte('\n')
	}
	return b.String()
}

func codecLabel(v *Var) string {
	switch {
	case v.spec.enum != nil && v.spec.mapped:
		return fmt.Sprintf("Enum(%d, mapped %d bits)", len(v.spec.enum), v.spec.arg)
	case v.spec.enum != nil:
		return fmt.Sprintf("Enum(%d, direct %s(%d))", len(v.spec.enum), v.spec.codec, v.spec.arg)
	}
	switch v.spec.codec {
	case CodecInteger, CodecUInteger, CodecBoundedString, CodecData:
		return fmt.Sprintf("%s(%d)", v.spec.codec, v.spec.arg)
	}
	return v.spec.codec.String()
}
