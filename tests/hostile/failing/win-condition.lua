-- expect: failed 3 times and is switched off
-- A win condition that raises an error every time it is asked.
local n = 0
scryptic.win_condition {
    id = "never",
    check = function(game)
        n = n + 1
        error("always, asked " .. n)
    end,
}
