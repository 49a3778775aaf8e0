-- expect: spent the whole budget of the event
-- A chain of 1,024 custom events, each handler just under what one call once had to itself.
scryptic.on("hostile:next", function(game, ev)
    local i = 0
    while i < 1900000 do i = i + 1 end
    if ev.n < 1024 then scryptic.emit("hostile:next", { n = ev.n + 1 }) end
end)
scryptic.on("turn_start", function(game) scryptic.emit("hostile:next", { n = 1 }) end)
