-- expect: (no error)
-- Each message is cut to its first bytes before it is copied, and one event sends 32 at most.
local big = string.rep("m", 2 * 1024 * 1024)
for i = 1, 100 do game:message(big) end
