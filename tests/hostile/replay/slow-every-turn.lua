-- expect: more than a replay may
-- Each action spends most of an event's budget: a save of a million of them would replay
-- for hours.
scryptic.on("turn_end", function(game, ev)
    local i = 0
    while i < 1800000 do i = i + 1 end
end)
