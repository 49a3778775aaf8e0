-- expect: failed 3 times and is switched off
-- A strength modifier that raises an error every time a word's strength is reckoned (it was
-- asked, and failed, at every combat of the game).
local n = 0
scryptic.strength_modifier {
    id = "never",
    apply = function(game, word, role)
        n = n + 1
        error("always, asked " .. n)
    end,
}
