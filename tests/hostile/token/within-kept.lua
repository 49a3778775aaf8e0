-- expect: not enough memory
-- The whole board's cells, kept call after call in slots made beforehand.
local keep = {}
for i = 1, 200000 do keep[i] = false end
for i = 1, #keep do
    keep[i] = game:within(token.x, token.y, math.huge)
end
