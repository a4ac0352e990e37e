-- dlmp.lua: a Wireshark dissector for the dlmp UDP protocol (docs/protocol.md).
--
-- Load it with
--     wireshark -X lua_script:docs/wireshark/dlmp.lua
--     tshark -X lua_script:docs/wireshark/dlmp.lua -r capture.pcap
-- or copy it into Wireshark's personal plugins folder. UDP port 7777 decodes
-- as dlmp; another port with "Decode As..." (tshark: -d udp.port==PORT,dlmp)
-- or the heuristic dissector "dlmp_udp" (on by default), which claims a UDP
-- datagram only when it splits exactly into dlmp packets.
--
-- One datagram holds one or more packets back to back. Each packet is a
-- subtree named after it, its fields filtered as dlmp.<packet>.<field> with
-- the spec's names (dlmp.pickup_sync.model, dlmp.client_chat.text, ...). An
-- unknown id, or a packet that runs past the end of the datagram, ends the
-- datagram with an expert info, as a receiver drops the rest. The info column
-- lists every packet with its lane and its event_id (or seq). Fragments of one
-- reliable message are reassembled in capture order and the message is
-- dissected as a packet of its own.
--
-- The layouts below are the codecs of internal/wire; the Go test
-- internal/dissect checks every field of every packet against them through
-- tshark.

local dlmp = Proto("dlmp", "dlmp multiplayer protocol")

local DEFAULT_PORT = 7777
local MAX_DATAGRAM = 1200
local MAX_MESSAGE = 65536

-- Field types (the second element of a field row):
--   u8 u16 u32 u64 i32 f32   little-endian numbers
--   x32 x64                  numbers shown in hex (colors, bit masks, magic)
--   bytes:N                  N raw bytes
--   text:N                   N bytes of UTF-8, NUL-terminated or NUL-padded
--   len8 len16               a length field for the variable field after it
--   vtext vbytes             the variable field: len bytes of text or payload
local fixed_size = { u8 = 1, u16 = 2, u32 = 4, u64 = 8, i32 = 4, f32 = 4, x32 = 4, x64 = 8, len8 = 1, len16 = 2 }

local lanes = {
	control = "control",
	reliable = "reliable",
	gbn = "go-back-n",
	unreliable = "unreliable",
}

local reasons = {
	[1] = "timeout", [2] = "kicked", [3] = "banned", [4] = "protocol_error",
	[5] = "send_queue_full", [6] = "no_acks", [7] = "server_shutdown",
	[8] = "version_mismatch", [9] = "server_full", [10] = "quit",
}
local player_states = { [0] = "not spawned", [1] = "on foot", [2] = "driver", [3] = "passenger", [4] = "dead" }
local attach_kinds = { [0] = "none", [1] = "player", [2] = "vehicle", [3] = "object" }
local active_values = { [0] = "hide", [1] = "show" }
local checkpoint_kinds = { [0] = "normal", [1] = "race", [2] = "race_finish", [3] = "air", [4] = "air_finish" }
local colshape_forms = { [0] = "sphere", [1] = "cylinder", [2] = "box" }
local edit_kinds = { [0] = "pickup", [1] = "gang zone", [2] = "colshape", [3] = "object" }


-- list flattens field rows and groups of rows (v3, quat, vel) into one list.
local function list(...)
	local out = {}
	for _, group in ipairs({ ... }) do
		if type(group[1]) == "table" then
			for _, f in ipairs(group) do out[#out + 1] = f end
		else
			out[#out + 1] = group
		end
	end
	return out
end

-- v3 is the three f32 fields <prefix>x, <prefix>y, <prefix>z.
local function v3(prefix)
	return { { prefix .. "x", "f32" }, { prefix .. "y", "f32" }, { prefix .. "z", "f32" } }
end
local function quat() return { { "qx", "f32" }, { "qy", "f32" }, { "qz", "f32" }, { "qw", "f32" } } end
local function vel() return { { "vx", "f32" }, { "vy", "f32" }, { "vz", "f32" } } end

-- packets: id → name, filter name, lane, size (nil for variable) and fields
-- in wire order after the id byte. Field options: vals (a value_string).
local packets = {
	[0x01] = { "ClientHello", "client_hello", "control", 1200, list(
		{ "magic", "x32" }, { "version", "u16" }, { "client_nonce", "u64" },
		{ "cookie", "bytes:20" }, { "padding", "bytes:1165" }) },
	[0x02] = { "ServerHello", "server_hello", "control", 44, list(
		{ "client_nonce", "u64" }, { "session_token", "u64" }, { "version", "u16" },
		{ "player_id", "u16" }, { "sync_hz", "u8" }, { "keepalive_ms", "u16" },
		{ "timeout_ms", "u16" }, { "clock_running", "u8" }, { "hours", "u8" },
		{ "minutes", "u8" }, { "minute_ms", "u32" }, { "weather", "u8" },
		{ "garage_open", "x64" }, { "max_players", "u16" }) },
	[0x03] = { "HelloRetry", "hello_retry", "control", 29, list(
		{ "client_nonce", "u64" }, { "cookie", "bytes:20" }) },
	[0x04] = { "Disconnect", "disconnect", "control", 10, list(
		{ "token", "u64" }, { "reason", "u8", reasons }) },
	[0x05] = { "ClientDisconnect", "client_disconnect", "control", 10, list(
		{ "token", "u64" }, { "reason", "u8", reasons }) },
	[0x06] = { "ClientKeepalive", "client_keepalive", "control", 13, list(
		{ "token", "u64" }, { "ping", "u32" }) },
	[0x07] = { "ClientChat", "client_chat", "gbn", nil, list(
		{ "token", "u64" }, { "event_id", "u32" }, { "len", "len8" }, { "text", "vtext" }) },
	[0x08] = { "ChatMessage", "chat_message", "reliable", nil, list(
		{ "event_id", "u32" }, { "from", "u16" }, { "color", "x32" },
		{ "len", "len8" }, { "text", "vtext" }) },
	[0x09] = { "ServerKeepalive", "server_keepalive", "control", 5, list({ "echo", "u32" }) },
	[0x0A] = { "Fragment", "fragment", "reliable", nil, list(
		{ "event_id", "u32" }, { "last", "u8" }, { "len", "len16" }, { "payload", "vbytes" }) },
	[0x0B] = { "PlayerSync", "player_sync", "unreliable", 75, list(
		{ "token", "u64" }, { "seq", "u32" }, { "landed", "u32" },
		{ "state", "u8", player_states }, v3(""), { "heading", "f32" }, vel(),
		{ "health", "u8" }, { "armour", "u8" }, { "weapon", "u8" }, { "interior", "u8" },
		{ "world", "u32" }, { "vehicle_id", "u16" }, { "seat", "u8" }, quat(),
		{ "vehicle_health", "u16" }) },
	[0x0C] = { "EntityEdit", "entity_edit", "gbn", 46, list(
		{ "token", "u64" }, { "event_id", "u32" }, { "kind", "u8", edit_kinds },
		{ "entity_id", "u32" }, { "rev", "u32" }, v3("a_"), v3("b_")) },
	[0x0D] = { "RespawnPlayer", "respawn_player", "reliable", 26, list(
		{ "event_id", "u32" }, v3(""), { "heading", "f32" }, { "interior", "u8" },
		{ "world", "u32" }) },
	[0x0E] = { "ClientAck", "client_ack", "control", 23, list(
		{ "token", "u64" }, { "ack", "u32" }, { "above", "x64" }, { "delay_ms", "u16" }) },
	[0x0F] = { "ServerAck", "server_ack", "control", 5, list({ "ack", "u32" }) },
	[0x10] = { "EditState", "edit_state", "reliable", 11, list(
		{ "event_id", "u32" }, { "active", "u8" }, { "kinds", "u8" }, { "entity_id", "u32" }) },
	[0x11] = { "SetWanted", "set_wanted", "reliable", 6, list(
		{ "event_id", "u32" }, { "level", "u8" }) },
	[0x12] = { "PickupSync", "pickup_sync", "reliable", 35, list(
		{ "event_id", "u32" }, { "pickup_id", "u32" }, { "active", "u8", active_values },
		{ "model", "u32" }, v3(""), { "scale", "f32" }, { "highlight", "u8" }, { "rev", "u32" }) },
	[0x13] = { "PickupTouch", "pickup_touch", "gbn", 17, list(
		{ "token", "u64" }, { "event_id", "u32" }, { "pickup_id", "u32" }) },
	[0x15] = { "TeleportPlayer", "teleport_player", "reliable", 26, list(
		{ "event_id", "u32" }, v3(""), { "heading", "f32" }, { "interior", "u8" },
		{ "world", "u32" }) },
	[0x16] = { "GiveWeapon", "give_weapon", "reliable", 8, list(
		{ "event_id", "u32" }, { "weapon", "u8" }, { "ammo", "u16" }) },
	[0x17] = { "GiveHealth", "give_health", "reliable", 6, list(
		{ "event_id", "u32" }, { "amount", "u8" }) },
	[0x18] = { "GiveArmor", "give_armor", "reliable", 6, list(
		{ "event_id", "u32" }, { "amount", "u8" }) },
	[0x19] = { "PlayerShow", "player_show", "reliable", 38, list(
		{ "event_id", "u32" }, { "player_id", "u16" }, { "active", "u8", active_values },
		{ "skin", "u16" }, { "color", "x32" }, { "name", "text:24" }) },
	[0x1A] = { "VehicleShow", "vehicle_show", "reliable", 42, list(
		{ "event_id", "u32" }, { "vehicle_id", "u16" }, { "active", "u8", active_values },
		{ "model", "u16" }, { "color1", "u8" }, { "color2", "u8" }, v3(""), quat(),
		{ "health", "u16" }) },
	[0x1B] = { "PlayerMove", "player_move", "unreliable", 42, list(
		{ "seq", "u32" }, { "player_id", "u16" }, { "state", "u8", player_states }, v3(""),
		{ "heading", "f32" }, vel(), { "health", "u8" }, { "armour", "u8" },
		{ "weapon", "u8" }, { "vehicle_id", "u16" }, { "seat", "u8" }) },
	[0x1C] = { "VehicleMove", "vehicle_move", "unreliable", 49, list(
		{ "seq", "u32" }, { "vehicle_id", "u16" }, v3(""), quat(), vel(), { "health", "u16" }) },
	[0x20] = { "SetSkin", "set_skin", "reliable", 7, list(
		{ "event_id", "u32" }, { "skin", "u16" }) },
	[0x21] = { "SetTime", "set_time", "reliable", 7, list(
		{ "event_id", "u32" }, { "hours", "u8" }, { "minutes", "u8" }) },
	[0x22] = { "SetWeather", "set_weather", "reliable", 6, list(
		{ "event_id", "u32" }, { "weather", "u8" }) },
	[0x23] = { "RunClock", "run_clock", "reliable", 11, list(
		{ "event_id", "u32" }, { "hours", "u8" }, { "minutes", "u8" }, { "minute_ms", "u32" }) },
	[0x2A] = { "SpawnPlayer", "spawn_player", "reliable", 30, list(
		{ "event_id", "u32" }, v3(""), { "heading", "f32" }, { "skin", "u16" },
		{ "interior", "u8" }, { "world", "u32" }, { "health", "u8" }, { "armour", "u8" }) },
	[0x30] = { "NetvarSync", "netvar_sync", "unreliable", 11, list(
		{ "token", "u64" }, { "attempt", "u16" }) },
	[0x31] = { "NetvarManifest", "netvar_manifest", "reliable", nil, list(
		{ "event_id", "u32" }, { "len", "len16" }, { "payload", "vbytes" }) },
	[0x32] = { "NetvarResyncRequest", "netvar_resync_request", "unreliable", nil, list(
		{ "token", "u64" }, { "len", "len16" }, { "payload", "vbytes" }) },
	[0x33] = { "NetvarResync", "netvar_resync", "reliable", nil, list(
		{ "event_id", "u32" }, { "len", "len16" }, { "payload", "vbytes" }) },
	[0x34] = { "NetvarUpdate", "netvar_update", "reliable", nil, list(
		{ "event_id", "u32" }, { "len", "len16" }, { "payload", "vbytes" }) },
	[0x35] = { "NetvarClientSet", "netvar_client_set", "gbn", nil, list(
		{ "token", "u64" }, { "event_id", "u32" }, { "len", "len16" }, { "payload", "vbytes" }) },
	[0x51] = { "GarageDoors", "garage_doors", "reliable", 13, list(
		{ "event_id", "u32" }, { "open", "x64" }) },
	[0x5A] = { "CreateExplosion", "create_explosion", "reliable", 22, list(
		{ "event_id", "u32" }, v3(""), { "type", "u8" }, { "radius", "f32" }) },
	[0x66] = { "Label3D", "label_3d", "reliable", 291, list(
		{ "event_id", "u32" }, { "label_id", "u32" }, { "active", "u8", active_values },
		{ "color", "x32" }, v3(""), { "draw_distance", "f32" },
		{ "attach_kind", "u8", attach_kinds }, { "attach_id", "u32" }, { "text", "text:256" }) },
	[0x67] = { "Checkpoint", "checkpoint", "reliable", 43, list(
		{ "event_id", "u32" }, { "checkpoint_id", "u32" }, { "active", "u8", active_values },
		{ "kind", "u8", checkpoint_kinds }, v3(""), v3("next_"), { "radius", "f32" },
		{ "color", "x32" }) },
	[0x68] = { "Blip", "blip", "reliable", 37, list(
		{ "event_id", "u32" }, { "blip_id", "u32" }, { "active", "u8", active_values },
		{ "sprite", "u8" }, { "color", "x32" }, v3(""), { "attach_kind", "u8", attach_kinds },
		{ "attach_id", "u32" }, { "size", "f32" }, { "flags", "u8" }) },
	[0x71] = { "GangZone", "gang_zone", "reliable", 40, list(
		{ "event_id", "u32" }, { "zone_id", "u32" }, { "active", "u8", active_values },
		{ "flashing", "u8" }, { "color", "x32" }, { "alpha", "u8" }, { "flash_color", "x32" },
		{ "min_x", "f32" }, { "min_y", "f32" }, { "max_x", "f32" }, { "max_y", "f32" },
		{ "rev", "u32" }) },
	[0x8A] = { "ObjectState", "object_state", "reliable", 79, list(
		{ "event_id", "u32" }, { "object_id", "u32" }, { "active", "u8", active_values },
		{ "model", "u16" }, v3(""), v3("r"), { "interior", "i32" },
		{ "attach_kind", "u8", attach_kinds }, { "attach_id", "u32" }, { "move_ms", "u32" },
		v3("to_"), v3("to_r"), { "rev", "u32" }, { "bone", "u8" }, { "broken", "u8" }) },
	[0x95] = { "ColshapeShape", "colshape_shape", "reliable", 39, list(
		{ "event_id", "u32" }, { "colshape_id", "u32" }, { "active", "u8", active_values },
		{ "form", "u8", colshape_forms }, v3("a_"), v3("b_"), { "rev", "u32" }) },
	[0x9D] = { "PlayerWaypoint", "player_waypoint", "gbn", 22, list(
		{ "token", "u64" }, { "event_id", "u32" }, { "active", "u8" },
		{ "x", "f32" }, { "y", "f32" }) },
	[0x9E] = { "SetWaypoint", "set_waypoint", "reliable", 14, list(
		{ "event_id", "u32" }, { "active", "u8" }, { "x", "f32" }, { "y", "f32" }) },
}

-- Protocol-wide fields.
local packet_names = {}
for id, p in pairs(packets) do packet_names[id] = p[1] end
local f_packet_id = ProtoField.uint8("dlmp.packet_id", "Packet id", base.HEX, packet_names)
local f_packet = ProtoField.string("dlmp.packet", "Packet")
local f_lane = ProtoField.string("dlmp.lane", "Lane")
local f_length = ProtoField.uint16("dlmp.length", "Packet length", base.DEC)
local f_rest = ProtoField.bytes("dlmp.undelimited", "Undelimited rest of the datagram")
local f_message = ProtoField.bytes("dlmp.message", "Reassembled message")
local f_message_frames = ProtoField.string("dlmp.message_frames", "Reassembled from frames")
local proto_fields = { f_packet_id, f_packet, f_lane, f_length, f_rest, f_message, f_message_frames }

local ef_unknown = ProtoExpert.new("dlmp.unknown_id", "Unknown packet id: the rest of the datagram is dropped",
	expert.group.MALFORMED, expert.severity.ERROR)
local ef_truncated = ProtoExpert.new("dlmp.truncated", "Packet runs past the end of the datagram: the rest is dropped",
	expert.group.MALFORMED, expert.severity.ERROR)
local ef_oversize = ProtoExpert.new("dlmp.oversize", "Datagram above the 1200-byte payload budget",
	expert.group.PROTOCOL, expert.severity.WARN)
local ef_message = ProtoExpert.new("dlmp.message_too_large", "Reassembled message above 65536 bytes",
	expert.group.PROTOCOL, expert.severity.ERROR)
dlmp.experts = { ef_unknown, ef_truncated, ef_oversize, ef_message }

-- Build the ProtoFields of every packet, and check each fixed size against
-- the sum of its fields (a layout typo fails at load, not silently).
for id, p in pairs(packets) do
	local name, snake, size, fields = p[1], p[2], p[4], p[5]
	local total = 1
	for _, f in ipairs(fields) do
		local fname, ftype, vals = f[1], f[2], f[3]
		local abbr = "dlmp." .. snake .. "." .. fname
		local n = tonumber(ftype:match(":(%d+)$"))
		local kind = ftype:match("^(%a+%d*)")
		local pf
		if kind == "u8" or kind == "len8" then
			pf = ProtoField.uint8(abbr, fname, base.DEC, vals)
		elseif kind == "u16" or kind == "len16" then
			pf = ProtoField.uint16(abbr, fname, base.DEC, vals)
		elseif kind == "u32" then
			pf = ProtoField.uint32(abbr, fname, base.DEC, vals)
		elseif kind == "x32" then
			pf = ProtoField.uint32(abbr, fname, base.HEX)
		elseif kind == "u64" then
			pf = ProtoField.uint64(abbr, fname, base.DEC)
		elseif kind == "x64" then
			pf = ProtoField.uint64(abbr, fname, base.HEX)
		elseif kind == "i32" then
			pf = ProtoField.int32(abbr, fname, base.DEC)
		elseif kind == "f32" then
			pf = ProtoField.float(abbr, fname)
		elseif kind == "bytes" or kind == "vbytes" then
			pf = ProtoField.bytes(abbr, fname)
		elseif kind == "text" or kind == "vtext" then
			pf = ProtoField.string(abbr, fname, base.UNICODE)
		else
			error(string.format("dlmp.lua: %s.%s: unknown field type %q", name, fname, ftype))
		end
		f.pf, f.kind = pf, kind
		f.size = n or fixed_size[kind] -- nil for vtext, vbytes
		proto_fields[#proto_fields + 1] = pf
		if f.size then total = total + f.size end
	end
	if size and total ~= size then
		error(string.format("dlmp.lua: %s (0x%02X): fields add up to %d bytes, want %d", name, id, total, size))
	end
	-- The offset of the length field and the size of everything but the
	-- variable field, for delimiting a variable-length packet.
	if not size then
		local off = 1
		for _, f in ipairs(fields) do
			if f.kind == "len8" or f.kind == "len16" then p.len_off, p.len_size = off, f.size end
			off = off + (f.size or 0)
		end
		p.head = total
	end
end
dlmp.fields = proto_fields

-- packet_size returns the size of the packet at off, or nil and the expert
-- of why it cannot be delimited.
local function packet_size(tvb, off)
	local remaining = tvb:len() - off
	local p = packets[tvb(off, 1):uint()]
	if not p then return nil, ef_unknown end
	local size = p[4]
	if not size then
		if remaining < p.head then return nil, ef_truncated end
		size = p.head + tvb(off + p.len_off, p.len_size):le_uint()
	end
	if size > remaining then return nil, ef_truncated end
	return size
end

-- Fragments are reassembled on the first pass, in capture order, per UDP
-- flow (one server → client direction): a run of consecutive event ids up to
-- the fragment with last = 1 makes one message.
local frag_state = {}  -- "src:port>dst:port" → { data = ByteArray, next_event = n, frames = {...} }
local reassembled = {} -- "frame:offset" of the last fragment → { data = ByteArray, frames = "1,2,3" }

local function flow_key(pinfo)
	return tostring(pinfo.src) .. ":" .. pinfo.src_port .. ">" .. tostring(pinfo.dst) .. ":" .. pinfo.dst_port
end

local function text_end(tvb, off, n)
	for i = 0, n - 1 do
		if tvb(off + i, 1):uint() == 0 then return i end
	end
	return n
end

local dissect_packet -- forward

-- add_fields adds the fields of packet p at off to tree and returns the
-- info summary (event_id or seq) and the fragment fields.
local function add_fields(tvb, tree, off, p)
	local pos = off + 1
	local vlen = 0
	local info = {}
	local frag = {}
	for _, f in ipairs(p[5]) do
		local kind, size = f.kind, f.size
		if kind == "vtext" or kind == "vbytes" then size = vlen end
		local r = tvb(pos, size)
		if kind == "text" then
			local n = text_end(tvb, pos, size)
			tree:add_packet_field(f.pf, tvb(pos, n), ENC_UTF_8)
			if n < size then
				tree:add(tvb(pos + n, size - n), string.format("NUL padding (%d bytes)", size - n))
			end
		elseif kind == "vtext" then
			tree:add_packet_field(f.pf, r, ENC_UTF_8)
		elseif kind == "bytes" or kind == "vbytes" then
			tree:add(f.pf, r)
			if f[1] == "payload" then frag.payload = r end
		elseif kind == "f32" then
			tree:add_le(f.pf, r)
		else
			tree:add_le(f.pf, r)
			if kind == "len8" or kind == "len16" then vlen = r:le_uint() end
			if f[1] == "event_id" or f[1] == "seq" then
				info[#info + 1] = f[1] .. "=" .. r:le_uint()
			end
			if f[1] == "event_id" then frag.event_id = r:le_uint() end
			if f[1] == "last" then frag.last = r:uint() end
		end
		pos = pos + size
	end
	return table.concat(info, " "), frag
end

-- fragment records a Fragment at off on the first pass and returns the
-- message it completes, if any, on every pass. A message past 65536 bytes
-- keeps only its size: it is a protocol error, not something to show.
local function fragment(pinfo, off, frag)
	local key = pinfo.number .. ":" .. off
	if not pinfo.visited and frag.payload and frag.event_id then
		local flow = flow_key(pinfo)
		local st = frag_state[flow]
		if not st or st.next_event ~= frag.event_id then
			st = { data = ByteArray.new(), size = 0, frames = {} }
		end
		st.size = st.size + frag.payload:len()
		if st.size > MAX_MESSAGE then
			st.data = nil
		else
			st.data:append(frag.payload:bytes())
		end
		if st.frames[#st.frames] ~= tostring(pinfo.number) then
			st.frames[#st.frames + 1] = tostring(pinfo.number)
		end
		st.next_event = frag.event_id + 1
		frag_state[flow] = st
		if frag.last == 1 then
			reassembled[key] = { data = st.data, size = st.size, frames = table.concat(st.frames, ",") }
		end
		if frag.last ~= 0 then frag_state[flow] = nil end
	end
	return reassembled[key]
end

-- dissect_message adds the message msg that the fragment at range
-- completed and returns its summary for the info column.
local function dissect_message(msg, range, pinfo, tree, depth)
	if not msg.data then
		local item = tree:add(range, string.format("Reassembled message of %d bytes from frames %s", msg.size, msg.frames))
		item:add_proto_expert_info(ef_message, string.format(
			"Reassembled message of %d bytes, above 65536: the client disconnects with protocol_error", msg.size))
		return "message too large"
	end
	if msg.data:len() == 0 then
		local item = tree:add(range, string.format("Empty reassembled message from frames %s", msg.frames))
		item:add_proto_expert_info(ef_truncated, "Empty reassembled message")
		return "message not delimited"
	end
	local mtvb = msg.data:tvb("Reassembled dlmp message")
	local item = tree:add(f_message, mtvb())
	item:add(f_message_frames, mtvb(), msg.frames):set_generated()
	local size, why = packet_size(mtvb, 0)
	if not size then
		item:add_proto_expert_info(why)
		return "message not delimited"
	end
	return dissect_packet(mtvb, pinfo, item, 0, size, depth + 1)
end

-- dissect_packet adds one packet of known size at off and returns its
-- summary for the info column.
dissect_packet = function(tvb, pinfo, tree, off, size, depth)
	local id = tvb(off, 1):uint()
	local p = packets[id]
	local lane = lanes[p[3]]
	local sub = tree:add(dlmp, tvb(off, size), p[1])
	sub:add(f_packet, tvb(off, size), p[1]):set_generated()
	sub:add(f_packet_id, tvb(off, 1))
	sub:add(f_lane, tvb(off, size), lane):set_generated()
	sub:add(f_length, tvb(off, size), size):set_generated()
	local info, frag = add_fields(tvb, sub, off, p)
	local tag = " [" .. lane .. (info ~= "" and (" " .. info) or "") .. "]"
	sub:append_text(tag)
	local summary = p[1] .. tag
	if id == 0x0A and depth == 0 then
		local msg = fragment(pinfo, off, frag)
		if msg then
			summary = summary .. " → " .. dissect_message(msg, tvb(off, size), pinfo, sub, depth)
		end
	end
	return summary
end

function dlmp.dissector(tvb, pinfo, tree)
	local len = tvb:len()
	if len == 0 then return 0 end
	pinfo.cols.protocol = "DLMP"
	local root = tree:add(dlmp, tvb(), "dlmp")
	if len > MAX_DATAGRAM then root:add_proto_expert_info(ef_oversize) end
	local summaries = {}
	local count = 0
	local off = 0
	while off < len do
		local size, why = packet_size(tvb, off)
		if not size then
			local item = root:add(f_rest, tvb(off, len - off))
			item:add_proto_expert_info(why, why == ef_unknown
				and string.format("Unknown packet id 0x%02X: the rest of the datagram (%d bytes) is dropped",
					tvb(off, 1):uint(), len - off)
				or string.format("Packet 0x%02X runs past the end of the datagram: the rest (%d bytes) is dropped",
					tvb(off, 1):uint(), len - off))
			summaries[#summaries + 1] = why == ef_unknown
				and string.format("unknown id 0x%02X", tvb(off, 1):uint())
				or string.format("truncated 0x%02X", tvb(off, 1):uint())
			break
		end
		summaries[#summaries + 1] = dissect_packet(tvb, pinfo, root, off, size, 0)
		count = count + 1
		off = off + size
	end
	root:append_text(string.format(", %d packet%s", count, count == 1 and "" or "s"))
	pinfo.cols.info = table.concat(summaries, ", ")
	return len
end

-- The heuristic claims a datagram that splits exactly into known packets,
-- within the payload budget; a ClientHello must carry the magic.
local function heuristic(tvb, pinfo, tree)
	local len = tvb:len()
	if len == 0 or len > MAX_DATAGRAM then return false end
	local off = 0
	while off < len do
		local size = packet_size(tvb, off)
		if not size then return false end
		if tvb(off, 1):uint() == 0x01 and tvb(off + 1, 4):le_uint() ~= 0x504D4C44 then return false end
		off = off + size
	end
	dlmp.dissector(tvb, pinfo, tree)
	return true
end

function dlmp.init()
	frag_state = {}
	reassembled = {}
end

DissectorTable.get("udp.port"):add(DEFAULT_PORT, dlmp)
dlmp:register_heuristic("udp", heuristic)
