-- expect: the replay departs from the saved game at action
-- `pairs` over a table keyed by tables visits them in the order of their addresses, which a
-- replay does not reproduce: the awards below differ from one run to the next.
scryptic.on("turn_end", function(game, ev)
    local set = {}
    for i = 1, 16 do set[{ i = i }] = i end
    for key, value in pairs(set) do
        game:award("gold", value)
        break
    end
end)
