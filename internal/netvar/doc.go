// Package netvar is the network-vars library of ../spec/network-vars.md on
// dlmp's protocol: a registry with the spec's builder chain, the sealed
// manifest, bit-packed codecs, var entries and groups, the resync queues
// with their merge lattice, and the server store (Filter, Invalidate,
// masking defaults, Debounce, the ClientSet floodgate), and the client's
// [Mirror] (manifest binding, the player identity guard, Predictable and
// ClientOwned local sets) that the SDK wraps. It has no network and no
// Lua: the world is behind the [World] interface and payloads go out
// through send functions.
//
// # Ownership
//
// Nothing here is safe for concurrent use. A [Registry] is built while the
// gamemode loads and sealed once it has ("the Initialize hook"); a [Store]
// belongs to the goroutine that owns the world and is driven by its tick
// (time is passed in); a [Mirror] belongs to the client's receive loop.
// Send functions must not call back into the store or mirror.
//
// # Values
//
// Values are Go `any`, one form per Lua type: nil; bool; float64 for every
// number (as Lua's are: integer codecs carry float64 integers); string;
// []byte for Data (Lua strings are bytes; a string is accepted on set);
// [Vector] (also Normal), [Angle], [Color]; [Ref] for Entity and Player;
// [Table] (map[any]any) for Table. Go integers, float32 and []any/map forms
// are normalized on set. Stored values are in the form the client decodes
// (a Float rounded to f32, a Normal quantized, Data padded), so the delta
// guard and both sides agree.
//
// # Translation from the Garry's Mod spec
//
//   - PVS is the set of players the entity is currently streamed to.
//   - PAS is every ready player within Config.PASRadius of the entity in the
//     same virtual world and interior (default 2 × the 200-unit stream
//     distance of SA-MP/open.mp).
//   - SetWeapon is refused with a logged error: dlmp has no weapon entities.
//   - ConVars are [Config] fields with the spec's defaults:
//     network_resync_rate 32, network_resync_rate_player 8,
//     network_sync_bytes 8192 (the 64 KiB reliable-message limit leaves
//     the same headroom as the spec's), network_clientset_rate 30.
//   - Bool is one bit (the payload is bit-packed, not byte-packed).
//
// # Payload bit layout
//
// The framing (docs/protocol.md) carries each message as a length-prefixed
// payload; this package owns the payload. Bits are least-significant first
// (package bits); a payload is zero-padded to a whole byte.
//
//	entry     = id:IDBits present:1 ( value | isDefault:1 )
//	            present=0 isDefault=0 is nil; present=0 isDefault=1 is the
//	            var's default (a default value costs no value bits)
//	target    = kind:2 [ id:16 [ userid:16 if kind=player ] if kind≠none ]
//	Update    = target entry
//	Resync    = { 1 target { 1 entry }* 0 }* 0
//	ClientSet = entry                (applied to the sender)
//	Sync      = manifest, then the Resync group list (the bootstrap)
//	manifest  = version:u8 idBits:5 count:17
//	            { name NUL-terminated, scope:3, codec:5, arg:16,
//	              clientOwned:1, hasDefault:1 [ Auto default ] }*
//	            zero padding to a byte, FNV-1a 32 hash (LE) of all before it
//
// Codec values: Bool/Bit 1 bit; Nibble…UInt and Integer(n) their width,
// two's complement; Float f32; Double/Long f64; String bytes then NUL;
// String(max) len:16 (CodecArgBits, never derived from max) then the bytes;
// Data(n) exactly n bytes; Vector/Angle per component 1 then a 16-bit
// integer when it is one that fits, else 0 then f32; Normal 3 × 16-bit
// fixed point over ±1; Color r:8 g:8 b:8 hasAlpha:1 [a:8 when ≠ 255];
// Entity kind:2 id:16; Player id:10; Auto tag:4 then the value (tags in
// auto.go; integers in int32 as 32 bits, other numbers f64); Table
// count:16 then Auto key, Auto value pairs in canonical key order.
//
// # Enums
//
// An all-integer Enum is sent as the value itself, sized to min/max with
// Integer/UInteger (signed only if a value is negative, no offset) and
// batchable; unless the index (ceil(log2 n) bits) beats that by more than
// [ResyncGroupOverheadBits], or the list holds anything else, in which case
// the index is sent by a generated Custom codec, alone in its own payload.
package netvar
