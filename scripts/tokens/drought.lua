-- Drought (amber jewel), docs/RULES.md section 9: water within `tokens.drought_radius` of the spot
-- (a straight-line distance) becomes plains. Letters are unharmed.
scryptic.token {
    id = "drought",
    name = "Drought",
    color = "#e89818",
    invoke = function(game, token)
        game:change {
            x = token.x,
            y = token.y,
            within = game:rule("tokens.drought_radius"),
            from = { "water" },
            to = "plains",
        }
    end,
}
