-- dlmp freeroam: the default world, embedded in the server.
-- Players spawn around Grove Street, pick up weapons, health and armor,
-- chat, set a waypoint and travel to it with /go. The clock runs and the
-- weather changes every few game hours. A checkpoint race runs down Grove
-- Street, each player wears a name label, the radar shows blips and gang
-- territory, the Ganton garage opens when someone walks up to it, a jetty
-- goes back and forth, and a barrel at the gym can be blown up.

local map = dlmp.load_map("freeroam.map")
for _, p in ipairs(map.problems) do
  print("freeroam.map: " .. p.text)
end

local spawns = {}
for _, e in ipairs(map.elements) do
  if e.tag == "spawnpoint" then
    spawns[#spawns + 1] = {
      x = tonumber(e.attrs.posX), y = tonumber(e.attrs.posY), z = tonumber(e.attrs.posZ),
      heading = tonumber(e.attrs.rotZ) or 0, skin = tonumber(e.attrs.skin) or 0,
    }
  end
end
assert(#spawns > 0, "freeroam.map has no spawnpoint")

local turn = 0
local function next_spawn()
  turn = turn % #spawns + 1
  return spawns[turn]
end

-- A running clock: one game minute per real second, from 08:00.
dlmp.run_clock(8, 0, 1000)

-- The weather changes every 5 real minutes.
local weathers = { 1, 2, 8, 9, 16, 19, 10 }
local weather = 1
dlmp.set_weather(weathers[weather])
dlmp.set_timer(5 * 60 * 1000, function()
  weather = weather % #weathers + 1
  dlmp.set_weather(weathers[weather])
end, true)

local GREY, BLUE, WHITE, RED = 0xAAAAAA, 0x88CCFF, 0xFFFFFF, 0xFF6060

-- Gang territory on the radar: Grove Street, and the Ballas' Idlewood
-- flashing.
local grove = dlmp.create_gang_zone(2380, -1760, 2560, -1620, { color = 0x00C000, alpha = 96 })
local ballas = dlmp.create_gang_zone(1850, -1800, 2100, -1700,
  { color = 0x8000FF, alpha = 96, flashing = true, flash_color = 0xFF0000 })
grove:show()
ballas:show()

-- Blips: the gym, the Pay 'n' Spray, the race start.
local RACE = {
  { 2470, -1660, 13.3 }, { 2440, -1660, 13.3 }, { 2400, -1660, 13.3 }, { 2360, -1660, 13.3 }, { 2300, -1660, 13.3 },
}
dlmp.create_blip(2229.6, -1722.4, 13.6, { sprite = 54, short_range = true })
dlmp.create_blip(2071.5, -1831.4, 14.6, { sprite = 63, short_range = true })
dlmp.create_blip(RACE[1][1], RACE[1][2], RACE[1][3], { sprite = 53, short_range = true })

-- The Ganton garage (game garage 9) opens while someone stands at its
-- door.
local GARAGE = 9
local door = dlmp.create_col_tube(2505.5, -1694.5, 12.5, 3, 5)
dlmp.on("colshape_enter", function(player, shape)
  if shape == door then
    dlmp.set_garage_open(GARAGE, true)
  end
end)
local function close_garage(leaving)
  for _, p in ipairs(dlmp.players()) do
    if p ~= leaving and door:is_inside(p) then
      return
    end
  end
  dlmp.set_garage_open(GARAGE, false)
end
dlmp.on("colshape_leave", function(player, shape)
  if shape == door then
    close_garage()
  end
end)

-- A wooden jetty going back and forth along Grove Street, 8 s each way.
local jetty = dlmp.create_object(3406, 2440, -1640, 12, { rz = 90 })
local jetty_ends, jetty_to = { { 2440, -1640, 12 }, { 2440, -1610, 12 } }, 2
jetty:move(jetty_ends[2][1], jetty_ends[2][2], jetty_ends[2][3], 8000)
dlmp.on("object_move_end", function(object)
  if object == jetty then
    jetty_to = 3 - jetty_to
    local e = jetty_ends[jetty_to]
    jetty:move(e[1], e[2], e[3], 8000)
  end
end)

-- An explosive barrel at the gym: /boom next to it blows it up; it is
-- back 30 s later.
local barrel = dlmp.create_object(1225, 2240, -1722, 13.1)

-- The race: each player has one checkpoint, the next one; entering it
-- gives the one after, and the last one finishes the race.
local racing = {} -- player → { n = checkpoint number, cp = checkpoint, started = ms }
local record -- the best time since the server started, s
local function race_checkpoint(player, n)
  local p, nxt = RACE[n], RACE[n + 1]
  local r = racing[player]
  r.n = n
  r.cp = dlmp.create_checkpoint(player, p[1], p[2], p[3], {
    kind = nxt and "race" or "race_finish", radius = 5, color = 0xFFD000, next = nxt,
  })
end

dlmp.on("checkpoint_enter", function(player, cp)
  local r = racing[player]
  if not r or r.cp ~= cp then
    return
  end
  cp:delete()
  local now = os.time()
  if r.n == 1 then
    r.started = now
  end
  if r.n < #RACE then
    race_checkpoint(player, r.n + 1)
    return
  end
  -- The finisher hears its time; everyone hears a new record only. A
  -- broadcast of every finish is a chat line to every player per finish:
  -- with a crowd racing together, a flood nobody reads.
  local took = now - r.started
  player:send_chat(string.format("You finished the Grove Street race in %d s.", took), BLUE)
  if not record or took < record then
    record = took
    dlmp.broadcast_chat(string.format("%s set the Grove Street race record: %d s", player:name(), took), BLUE)
  end
  race_checkpoint(player, 1)
end)

local labels = {} -- player → their name label

dlmp.on("player_connect", function(player)
  labels[player] = dlmp.create_label(player:name(), 0, 0, 0.4, { player = player, color = 0xFFFF80, draw_distance = 40 })
  racing[player] = {}
  race_checkpoint(player, 1)
  local s = next_spawn()
  player:spawn(s.x, s.y, s.z, { heading = s.heading, skin = s.skin })
  player:send_chat("Welcome to dlmp freeroam. Set a waypoint on your map, then type /go. /help lists the commands.", BLUE)
  dlmp.broadcast_chat("player " .. player.id .. " joined", GREY)
end)

dlmp.on("player_disconnect", function(player, reason)
  if labels[player]:exists() then
    labels[player]:delete()
  end
  labels[player], racing[player] = nil, nil
  if door:is_inside(player) then
    close_garage(player)
  end
  dlmp.broadcast_chat("player " .. player.id .. " left (" .. reason .. ")", GREY)
end)

dlmp.on("player_death", function(player)
  dlmp.set_timer(3000, function()
    if player:is_connected() and player:life() == "dead" then
      local s = next_spawn()
      player:respawn(s.x, s.y, s.z, { heading = s.heading })
    end
  end)
end)

-- An information sign at the first spawn: a static pickup talks once per
-- visit and stays.
local s1 = spawns[1]
local info = dlmp.create_pickup(1239, s1.x + 3, s1.y + 3, s1.z, { behavior = "static" })

-- Map pickups carry their grant: take_pickup refuses health at 100 and
-- armor at 100, so the pickup stays for when it is needed.
dlmp.on("pickup_interact", function(player, pickup)
  if pickup == info then
    player:send_chat("dlmp freeroam: weapons, health and armor respawn. /help lists the commands.", BLUE)
  elseif pickup:grant() then
    dlmp.take_pickup(player, pickup)
  end
end)

dlmp.on("player_waypoint", function(player, x, y)
  if x then
    player:send_chat(string.format("Waypoint set at %.0f, %.0f: type /go to travel there.", x, y), BLUE)
  end
end)

local commands = {}

function commands.help(player)
  player:send_chat("/go: travel to your waypoint. /weather <0-22>, /time <h> <m>: yours only.", BLUE)
  player:send_chat("/garage <0-49>: open or close a garage. /boom: fireworks next to you (or the gym's barrel).", BLUE)
end

function commands.boom(player)
  local x, y, z = player:position()
  if not x or player:life() ~= "alive" then
    return
  end
  local bx, by, bz = barrel:position()
  if not barrel:is_broken() and player:world() == 0 and (x - bx) ^ 2 + (y - by) ^ 2 < 15 ^ 2 then
    barrel:set_broken(true)
    dlmp.create_explosion(bx, by, bz, 0, 6)
    dlmp.set_timer(30000, function() barrel:set_broken(false) end)
    return
  end
  dlmp.create_explosion(x + 8, y, z + 2, 12, 4, { world = player:world(), interior = player:interior() })
end

function commands.go(player)
  local x, y = player:waypoint()
  if not x then
    player:send_chat("Set a waypoint on your map first.", RED)
    return
  end
  if player:life() ~= "alive" then
    player:send_chat("You are not alive.", RED)
    return
  end
  player:teleport(x, y, 60)
  player:clear_waypoint()
end

function commands.weather(player, arg)
  local w = tonumber(arg)
  if not w or w < 0 or w > 22 or w % 1 ~= 0 then
    player:send_chat("Usage: /weather <0-22>", RED)
    return
  end
  player:set_weather(w)
end

function commands.time(player, arg)
  local h, m = arg:match("^(%d+)%s+(%d+)$")
  h, m = tonumber(h), tonumber(m)
  if not h or h > 23 or m > 59 then
    player:send_chat("Usage: /time <0-23> <0-59>", RED)
    return
  end
  player:set_time(h, m)
end

function commands.garage(player, arg)
  local id = tonumber(arg)
  if not id or id < 0 or id > 49 or id % 1 ~= 0 then
    player:send_chat("Usage: /garage <0-49>", RED)
    return
  end
  local open = not dlmp.is_garage_open(id)
  dlmp.set_garage_open(id, open)
  dlmp.broadcast_chat("garage " .. id .. (open and " opened" or " closed"), GREY)
end

dlmp.on("chat", function(player, text)
  if text:sub(1, 1) ~= "/" then
    dlmp.broadcast_chat(text, WHITE, player)
    return
  end
  local name, arg = text:match("^/(%S+)%s*(.-)%s*$")
  local cmd = commands[name or ""]
  if cmd then
    cmd(player, arg)
  else
    player:send_chat("Unknown command " .. text .. ": try /help", RED)
  end
end)

dlmp.on("shutdown", function()
  dlmp.broadcast_chat("The server is shutting down.", RED)
end)
