-- Firestorm (green jewel), docs/RULES.md section 9: forest within `tokens.firestorm_radius` of the
-- spot burns down to plains. No letter is harmed.
scryptic.token {
    id = "firestorm",
    name = "Firestorm",
    color = "#1ca848",
    invoke = function(game, token)
        game:change {
            x = token.x,
            y = token.y,
            within = game:rule("tokens.firestorm_radius"),
            from = { "forest" },
            to = "plains",
        }
    end,
}
