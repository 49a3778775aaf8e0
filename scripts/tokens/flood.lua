-- Flood (blue jewel), docs/RULES.md section 9: plains and forest within `tokens.flood_radius` of the
-- spot become water and the letters there are destroyed; cities and mountains stay.
scryptic.token {
    id = "flood",
    name = "Flood",
    color = "#2054dc",
    invoke = function(game, token)
        game:change {
            x = token.x,
            y = token.y,
            within = game:rule("tokens.flood_radius"),
            from = { "plains", "forest" },
            spare_cities = true,
            to = "water",
            destroy_letters = true,
        }
    end,
}
