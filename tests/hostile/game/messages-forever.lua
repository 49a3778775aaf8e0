-- expect: instruction budget exceeded
-- Megabyte messages without end: the host keeps a few, cut short.
local long = string.rep("x", 1024 * 1024)
for _ = 1, math.maxinteger do
    game:message(long)
end
