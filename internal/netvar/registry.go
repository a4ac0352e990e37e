package netvar

import (
	"fmt"
	"log/slog"
	"math"
	mbits "math/bits"
	"time"

	"dlmp/internal/bits"
)

// Scope is where a var's value lives and who gets it by default.
type Scope uint8

// The scopes, carried in the manifest in ScopeBits bits. There is no
// Weapon scope: dlmp has no weapon entities, so SetWeapon is refused.
const (
	ScopeEntity Scope = iota
	ScopePlayer
	ScopeVehicle
	ScopeLocalPlayer
	ScopeGlobal
	numScopes
	ScopeBits = 3
)

var scopeNames = [numScopes]string{"Entity", "Player", "Vehicle", "LocalPlayer", "Global"}

func (s Scope) String() string {
	if s < numScopes {
		return scopeNames[s]
	}
	return fmt.Sprintf("Scope(%d)", uint8(s))
}

// IsEntityScope reports whether s stores on an entity and frames like one:
// Entity, Player and Vehicle.
func IsEntityScope(s Scope) bool { return s == ScopeEntity || s == ScopePlayer || s == ScopeVehicle }

// Recipients is who gets a live update of an Entity-like or Global var.
type Recipients uint8

// The recipient modes.
const (
	Broadcast Recipients = iota
	SendPVS
	SendPAS
	SendOmit
	Filter
)

func (r Recipients) String() string {
	return [...]string{"Broadcast", "PVS", "PAS", "Omit", "Filter"}[r]
}

// PlayerID is a player's slot id.
type PlayerID uint16

// RecipientFunc is the callback of SendOmit (who to exclude) and Filter (who
// receives): it gets the owning entity (the zero Ref for a Global) and the
// value. It must be cheap and must not set a var or call Invalidate.
type RecipientFunc func(ent Ref, value any) []PlayerID

// Var is one registered network var. The builder methods configure it
// before the registry seals; each returns the var for chaining. A mistake is
// a logged error, never a panic.
type Var struct {
	reg  *Registry
	name string
	id   int // sequential id after Seal, -1 before

	scope      Scope
	spec       codecSpec
	codecCalls int
	recip      Recipients
	recipFn    RecipientFunc
	hook       string
	accessor   string

	predictable bool
	clientOwned bool
	noSync      bool
	debounce    time.Duration
	ceiling     time.Duration
	def         any
	hasDef      bool

	broken    error // a registration error: the var is never networked
	detached  bool  // registered after the seal: never networked
	synthetic bool  // built from a manifest entry the client did not register
	maxBits   int   // worst-case Update payload in bits, -1 when unbounded
}

// Registry holds the registered vars until Seal, then the sealed schema.
// It is not safe for concurrent use: it belongs to the goroutine that owns
// the world (registration happens while the gamemode loads).
type Registry struct {
	log      *slog.Logger
	vars     map[string]*Var
	sealed   bool
	schema   *Schema
	manifest []byte
	logged   map[string]bool // synthetic-entry names already logged
}

// NewRegistry returns an empty registry logging to slog.Default().
func NewRegistry() *Registry {
	return &Registry{log: slog.Default(), vars: map[string]*Var{}, logged: map[string]bool{}}
}

// SetLogger makes the registry (and what is built from it) log to l.
func (r *Registry) SetLogger(l *slog.Logger) { r.log = l }

// Logger returns the registry's logger.
func (r *Registry) Logger() *slog.Logger { return r.log }

// Register starts the builder chain of a var. After Seal it logs an error
// and returns a var that is never networked. Registering a name twice
// replaces the earlier registration (a gamemode reload), with a warning.
func (r *Registry) Register(name string) *Var {
	v := &Var{reg: r, name: name, id: -1}
	switch {
	case r.sealed:
		r.log.Error("netvar: register after the registry sealed: the var is never networked", "var", name)
		v.detached = true
		return v
	case name == "":
		v.broken = fmt.Errorf("empty name")
		r.log.Error("netvar: register with an empty name")
		return v
	case len(name) > 255:
		v.broken = fmt.Errorf("name longer than 255 bytes")
		r.log.Error("netvar: name longer than 255 bytes", "var", name[:32]+"…")
		return v
	}
	for i := 0; i < len(name); i++ {
		if name[i] == 0 {
			v.broken = fmt.Errorf("name holds a NUL")
			r.log.Error("netvar: name holds a NUL byte", "var", name)
			return v
		}
	}
	if _, dup := r.vars[name]; dup {
		r.log.Warn("netvar: var registered again: the new registration replaces the old", "var", name)
	}
	r.vars[name] = v
	return v
}

// Lookup returns the registered var called name.
func (r *Registry) Lookup(name string) (*Var, bool) {
	v, ok := r.vars[name]
	return v, ok
}

// Sealed reports whether Seal has run.
func (r *Registry) Sealed() bool { return r.sealed }

// fail records a registration error on v and logs it.
func (v *Var) fail(format string, args ...any) *Var {
	err := fmt.Errorf(format, args...)
	if v.broken == nil {
		v.broken = err
	}
	v.reg.log.Error("netvar: registration error: the var is never networked", "var", v.name, "err", err)
	return v
}

// Name returns the var's name.
func (v *Var) Name() string { return v.name }

// ID returns the sealed id, -1 when the var is not networked.
func (v *Var) ID() int { return v.id }

// Scope returns the var's scope.
func (v *Var) Scope() Scope { return v.scope }

// Codec returns the var's codec and its argument.
func (v *Var) Codec() (Codec, uint32) { return v.spec.codec, v.spec.arg }

// Default returns the default value and whether there is one.
func (v *Var) Default() (any, bool) { return v.def, v.hasDef }

// Hook returns the hook name run on change, "" for none.
func (v *Var) Hook() string { return v.hook }

// AccessorName returns the accessor's name, "" for none.
func (v *Var) AccessorName() string { return v.accessor }

// AccessorTarget returns the metatable the accessors attach to.
func (v *Var) AccessorTarget() string {
	switch v.scope {
	case ScopePlayer, ScopeLocalPlayer:
		return "Player"
	case ScopeVehicle:
		return "Vehicle"
	}
	return "Entity"
}

// IsPredictable, IsClientOwned and IsNoSync report the behaviour flags as
// they stand after the seal's checks.
func (v *Var) IsPredictable() bool { return v.predictable }
func (v *Var) IsClientOwned() bool { return v.clientOwned }
func (v *Var) IsNoSync() bool      { return v.noSync }

// Networked reports whether the sealed registry networks this var.
func (v *Var) Networked() bool { return v.id >= 0 }

// MaxBits returns the worst-case size of one Update carrying this var, in
// bits (target header included), or -1 when the sender decides it.
func (v *Var) MaxBits() int { return v.maxBits }

// Scopes.

func (v *Var) SetEntity() *Var      { v.scope = ScopeEntity; return v }
func (v *Var) SetPlayer() *Var      { v.scope = ScopePlayer; return v }
func (v *Var) SetVehicle() *Var     { v.scope = ScopeVehicle; return v }
func (v *Var) SetLocalPlayer() *Var { v.scope = ScopeLocalPlayer; return v }
func (v *Var) SetGlobal() *Var      { v.scope = ScopeGlobal; return v }

// SetWeapon is refused: dlmp has no weapon entities (a weapon is a slot of
// a player's inventory), so nothing could carry the var.
func (v *Var) SetWeapon() *Var {
	return v.fail("SetWeapon: dlmp has no weapon entities; use SetPlayer for per-player weapon state")
}

// Codecs.

func (v *Var) codec(c Codec, arg uint32) *Var {
	v.codecCalls++
	if v.codecCalls > 1 {
		v.reg.log.Error("netvar: more than one codec called: the last one wins", "var", v.name, "codec", c)
	}
	v.spec = codecSpec{codec: c, arg: arg}
	return v
}

func (v *Var) Bool() *Var    { return v.codec(CodecBool, 0) }
func (v *Var) Bit() *Var     { return v.codec(CodecBit, 0) }
func (v *Var) Nibble() *Var  { return v.codec(CodecNibble, 0) }
func (v *Var) UNibble() *Var { return v.codec(CodecUNibble, 0) }
func (v *Var) Byte() *Var    { return v.codec(CodecByte, 0) }
func (v *Var) UByte() *Var   { return v.codec(CodecUByte, 0) }
func (v *Var) Short() *Var   { return v.codec(CodecShort, 0) }
func (v *Var) UShort() *Var  { return v.codec(CodecUShort, 0) }
func (v *Var) Int() *Var     { return v.codec(CodecInt, 0) }
func (v *Var) UInt() *Var    { return v.codec(CodecUInt, 0) }
func (v *Var) Float() *Var   { return v.codec(CodecFloat, 0) }
func (v *Var) Double() *Var  { return v.codec(CodecDouble, 0) }

// Long is an alias of Double: a Lua number holds no integer above 2^53.
func (v *Var) Long() *Var   { return v.codec(CodecDouble, 0) }
func (v *Var) Vector() *Var { return v.codec(CodecVector, 0) }
func (v *Var) Normal() *Var { return v.codec(CodecNormal, 0) }
func (v *Var) Angle() *Var  { return v.codec(CodecAngle, 0) }
func (v *Var) Color() *Var  { return v.codec(CodecColor, 0) }
func (v *Var) Entity() *Var { return v.codec(CodecEntity, 0) }
func (v *Var) Player() *Var { return v.codec(CodecPlayer, 0) }
func (v *Var) Table() *Var  { return v.codec(CodecTable, 0) }
func (v *Var) Auto() *Var   { return v.codec(CodecAuto, 0) }

// Integer is a signed integer of 1..32 bits.
func (v *Var) Integer(n int) *Var {
	if n < 1 || n > maxIntegerWidth {
		return v.fail("Integer(%d): width outside 1..%d", n, maxIntegerWidth)
	}
	return v.codec(CodecInteger, uint32(n))
}

// UInteger is an unsigned integer of 1..32 bits.
func (v *Var) UInteger(n int) *Var {
	if n < 1 || n > maxIntegerWidth {
		return v.fail("UInteger(%d): width outside 1..%d", n, maxIntegerWidth)
	}
	return v.codec(CodecUInteger, uint32(n))
}

// String is a NUL-terminated string with no argument, or with one a bounded
// string of at most maxLen bytes behind a CodecArgBits length prefix.
func (v *Var) String(maxLen ...int) *Var {
	switch len(maxLen) {
	case 0:
		return v.codec(CodecString, 0)
	case 1:
		if maxLen[0] < 1 || maxLen[0] > MaxBoundedLen {
			return v.fail("String(%d): maxLen outside 1..%d", maxLen[0], MaxBoundedLen)
		}
		return v.codec(CodecBoundedString, uint32(maxLen[0]))
	}
	return v.fail("String takes at most one argument, got %d", len(maxLen))
}

// Data is a fixed-length byte string of maxLen bytes, zero-padded.
func (v *Var) Data(maxLen int) *Var {
	if maxLen < 1 || maxLen > MaxBoundedLen {
		return v.fail("Data(%d): maxLen outside 1..%d", maxLen, MaxBoundedLen)
	}
	return v.codec(CodecData, uint32(maxLen))
}

// Write sets a custom encoder. maxBits is the worst-case size it writes
// (0 when unknown), which the seal uses for the message-size bound.
func (v *Var) Write(fn func(w *bits.Writer, value any), maxBits int) *Var {
	if v.spec.codec != CodecCustom || v.spec.mapped {
		v.codec(CodecCustom, 0)
	}
	v.spec.write = fn
	v.spec.arg = uint32(min(max(maxBits, 0), MaxBoundedLen))
	return v
}

// Read sets a custom decoder: it fails r (r.Fail) on a malformed value.
func (v *Var) Read(fn func(r *bits.Reader) any, maxBits int) *Var {
	if v.spec.codec != CodecCustom || v.spec.mapped {
		v.codec(CodecCustom, 0)
	}
	v.spec.read = fn
	v.spec.arg = uint32(min(max(maxBits, 0), MaxBoundedLen))
	return v
}

// RESYNC_GROUP_OVERHEAD_BITS in the spec: the framing cost of a var that
// escapes batching, which a mapped enum index must beat to be chosen over a
// direct value.
const ResyncGroupOverheadBits = 24

// Enum declares the legal values, in order (the order is the wire index
// when the enum is mapped). See the package comment for the two strategies.
func (v *Var) Enum(list []any) *Var {
	if len(list) == 0 {
		return v.fail("Enum: empty list")
	}
	vals := make([]any, len(list))
	allInt := true
	lo, hi := math.Inf(1), math.Inf(-1)
	for i, e := range list {
		n, err := normalize(e)
		if err != nil || n == nil {
			return v.fail("Enum: value %d (%v) cannot be networked", i+1, e)
		}
		if _, ok := n.(Table); ok {
			return v.fail("Enum: value %d is a table", i+1)
		}
		for _, prev := range vals[:i] {
			if Equal(prev, n) {
				return v.fail("Enum: value %v listed twice", n)
			}
		}
		vals[i] = n
		f, ok := n.(float64)
		if !ok || !isInteger(f) {
			allInt = false
			continue
		}
		lo, hi = math.Min(lo, f), math.Max(hi, f)
	}
	mapped := uint32(max(1, mbits.Len(uint(len(vals)-1))))
	if allInt {
		direct, signed := directWidth(lo, hi)
		if direct <= maxIntegerWidth && !(direct-int(mapped) > ResyncGroupOverheadBits) {
			c := CodecUInteger
			if signed {
				c = CodecInteger
			}
			v.codec(c, uint32(direct))
			v.spec.enum = vals
			return v
		}
	}
	v.codec(CodecCustom, mapped)
	v.spec.enum = vals
	v.spec.mapped = true
	width := uint(mapped)
	v.spec.write = func(w *bits.Writer, value any) {
		for i, e := range vals {
			if Equal(e, value) {
				w.WriteBits(uint64(i), width)
				return
			}
		}
		w.WriteBits(0, width) // unreachable: check refused the value
	}
	v.spec.read = func(r *bits.Reader) any {
		i := r.ReadBits(width)
		if r.Err() != nil {
			return nil
		}
		if i >= uint64(len(vals)) {
			r.Fail(fmt.Errorf("enum index %d outside the %d values", i, len(vals)))
			return nil
		}
		return vals[i]
	}
	return v
}

// directWidth returns the bits an integer range needs: signed only when it
// dips below zero, no offset from the minimum.
func directWidth(lo, hi float64) (int, bool) {
	if lo < 0 {
		for n := 1; n <= 64; n++ {
			if lo >= -math.Ldexp(1, n-1) && hi <= math.Ldexp(1, n-1)-1 {
				return n, true
			}
		}
		return 65, true
	}
	for n := 1; n <= 64; n++ {
		if hi <= math.Ldexp(1, n)-1 {
			return n, false
		}
	}
	return 65, false
}

// Recipients.

func (v *Var) Broadcast() *Var { v.recip, v.recipFn = Broadcast, nil; return v }
func (v *Var) SendPVS() *Var   { v.recip, v.recipFn = SendPVS, nil; return v }
func (v *Var) SendPAS() *Var   { v.recip, v.recipFn = SendPAS, nil; return v }

// SendOmit sends to everyone fn does not return.
func (v *Var) SendOmit(fn RecipientFunc) *Var {
	if fn == nil {
		return v.fail("SendOmit: nil function")
	}
	v.recip, v.recipFn = SendOmit, fn
	return v
}

// Filter sends only to the players fn returns: the only secrecy boundary.
func (v *Var) Filter(fn RecipientFunc) *Var {
	if fn == nil {
		return v.fail("Filter: nil function")
	}
	v.recip, v.recipFn = Filter, fn
	return v
}

// Behaviour.

// SetHook names the hook run on change.
func (v *Var) SetHook(name string) *Var { v.hook = name; return v }

// AutoHook is SetHook("CityRP.Network.<name>.Changed").
func (v *Var) AutoHook() *Var { return v.SetHook("CityRP.Network." + v.name + ".Changed") }

// Accessor names the generated Get<Name>/Set<Name> pair (the Lua layer
// generates them; the Go API records the name and the target).
func (v *Var) Accessor(name string) *Var { v.accessor = name; return v }

// Predictable also generates a client-side setter. LocalPlayer only:
// checked at the seal.
func (v *Var) Predictable() *Var { v.predictable = true; return v }

// ClientOwned lets the owning client set the var. Checked at the seal.
func (v *Var) ClientOwned() *Var { v.clientOwned = true; return v }

// Debounce coalesces changes to at most one per interval; the optional
// ceiling reserves adaptive backoff (inert: the interval never moves).
func (v *Var) Debounce(seconds float64, ceiling ...float64) *Var {
	if !(seconds > 0) || seconds > 3600 {
		return v.fail("Debounce(%v): seconds outside (0, 3600]", seconds)
	}
	c := seconds
	if len(ceiling) > 0 {
		c = ceiling[0]
	}
	if !(c >= seconds) || c > 3600 {
		return v.fail("Debounce(%v, %v): ceiling below the floor or above 3600", seconds, c)
	}
	v.debounce = time.Duration(seconds * float64(time.Second))
	v.ceiling = time.Duration(c * float64(time.Second))
	return v
}

// SetNoSync excludes the var from the join bootstrap and resync.
func (v *Var) SetNoSync() *Var { v.noSync = true; return v }

// SetDefault sets what a read returns before a set, and what a filtered-out
// player is sent. Validated against the codec at the seal.
func (v *Var) SetDefault(value any) *Var {
	n, err := normalize(value)
	if err != nil {
		return v.fail("SetDefault: %v", err)
	}
	v.def, v.hasDef = n, n != nil
	return v
}
