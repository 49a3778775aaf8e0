-- expect: longer than the most
-- A city id of a megabyte, asked for again and again.
local id = string.rep("c", 1024 * 1024)
for _ = 1, math.maxinteger do
    game:city_owner(id)
end
