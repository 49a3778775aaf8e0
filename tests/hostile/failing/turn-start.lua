-- expect: failed 3 times and is switched off
-- A handler that raises an error at every turn's start.
scryptic.on("turn_start", function(game, ev)
    error("always, turn " .. ev.turn)
end)
