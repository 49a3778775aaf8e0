-- Firestorm (green jewel), RULES.md section 9: forest within `tokens.firestorm_radius` of the
-- spot burns down to plains. No letter is harmed.
scryptic.token {
    id = "firestorm",
    name = "Firestorm",
    color = "#1ca848",
    invoke = function(game, token)
        for _, c in ipairs(game:within(token.x, token.y, game:rule("tokens.firestorm_radius"))) do
            if game:terrain(c.x, c.y) == "forest" then
                game:set_terrain(c.x, c.y, "plains")
            end
        end
    end,
}
