-- dlmp freeroam: the default world, embedded in the server.
-- Players spawn around Grove Street, pick up weapons, health and armor,
-- chat, set a waypoint and travel to it with /go. The clock runs and the
-- weather changes every few game hours.

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

dlmp.on("player_connect", function(player)
  local s = next_spawn()
  player:spawn(s.x, s.y, s.z, { heading = s.heading, skin = s.skin })
  player:send_chat("Welcome to dlmp freeroam. Set a waypoint on your map, then type /go. /help lists the commands.", BLUE)
  dlmp.broadcast_chat("player " .. player.id .. " joined", GREY)
end)

dlmp.on("player_disconnect", function(player, reason)
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
  player:send_chat("/garage <0-49>: open or close a garage. /boom: fireworks next to you.", BLUE)
end

function commands.boom(player)
  local x, y, z = player:position()
  if not x or player:life() ~= "alive" then
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
