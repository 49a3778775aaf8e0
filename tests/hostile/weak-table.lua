-- expect: weak tables (__mode) are not available
-- A weak table shows when the collector ran: a replay would differ from the game.
local cache = setmetatable({}, { __mode = "v" })
cache[1] = {}
