-- Alternative win condition from the design document: with an infinite pool of letters (set
-- `letters: (infinite_pool: true)` in the level's rules), the first player to reach a target
-- score wins. The target is 150 unless the level sets `storage.target_score`.
scryptic.win_condition {
    id = "first_to_score",
    check = function(game)
        local target = storage.target_score or 150
        local gold = game:score("gold")
        local silver = game:score("silver")
        if gold >= target and gold >= silver then return "gold" end
        if silver >= target then return "silver" end
        return nil
    end,
}
