-- Drought (amber jewel), RULES.md section 9: water within `tokens.drought_radius` of the spot
-- (a straight-line distance) becomes plains. Letters are unharmed.
scryptic.token {
    id = "drought",
    name = "Drought",
    color = "#e89818",
    invoke = function(game, token)
        for _, c in ipairs(game:within(token.x, token.y, game:rule("tokens.drought_radius"))) do
            if game:terrain(c.x, c.y) == "water" then
                game:set_terrain(c.x, c.y, "plains")
            end
        end
    end,
}
