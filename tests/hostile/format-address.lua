-- expect: %p is not available
-- An address differs between a game and its replay.
local seed = string.format("%p", {})
