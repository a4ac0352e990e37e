-- The load run's spread world: players spawn in ten hot spots of the map
-- (a radius of 150 m each), as on a real server where players gather in a
-- few places rather than all in one. Used by `scripts/loadrun --spread`.
local spots = {
  { 2495, -1687, 13 }, { 1481, -1760, 18 }, { -1989, 138, 27 }, { 2027, 1008, 10 },
  { -2245, -1740, 480 }, { 1130, -2037, 69 }, { -1605, 720, 13 }, { 2160, 2020, 10 },
  { 400, 2500, 16 }, { -700, 950, 12 },
}
local n = 0
dlmp.on("player_connect", function(player)
  n = n + 1
  local s = spots[(n % #spots) + 1]
  local a = math.random() * 2 * math.pi
  local r = 150 * math.sqrt(math.random())
  player:spawn(s[1] + r * math.cos(a), s[2] + r * math.sin(a), s[3])
end)
dlmp.on("player_death", function(player)
  dlmp.set_timer(3000, function()
    if player:is_connected() then player:respawn(player:position()) end
  end)
end)
