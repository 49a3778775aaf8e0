-- Alternative win condition from the design document: the game is won by holding every city
-- on the map, neutral ones included.
scryptic.win_condition {
    id = "total_control",
    check = function(game)
        local held = {}
        for _, city in ipairs(game:cities()) do
            held[city.owner] = true
        end
        if held.neutral then return nil end
        if held.gold and not held.silver then return "gold" end
        if held.silver and not held.gold then return "silver" end
        return nil
    end,
}
