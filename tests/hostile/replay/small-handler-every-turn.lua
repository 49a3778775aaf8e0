-- expect: more than a replay may do
-- A small handler every turn: cheap in a game, but a save of a million actions made it replay
-- for 52 s and 436 MB, printing two million events.
scryptic.on("turn_start", function(game, ev)
    local next = ev.turn + 1
end)
