-- expect: failed 3 times and is switched off
-- A handler whose error is a table, not a text.
local n = 0
scryptic.on("turn_end", function(game, ev)
    n = n + 1
    error({ always = n })
end)
