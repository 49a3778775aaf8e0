-- expect: failed 3 times and is switched off
-- A timer that raises an error every turn.
scryptic.every(1, function(game, ev)
    error("always, turn " .. ev.turn)
end)
