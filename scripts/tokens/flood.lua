-- Flood (blue jewel), RULES.md section 9: plains and forest within `tokens.flood_radius` of the
-- spot become water and the letters there are destroyed; cities and mountains stay.
scryptic.token {
    id = "flood",
    name = "Flood",
    color = "#2054dc",
    invoke = function(game, token)
        for _, c in ipairs(game:within(token.x, token.y, game:rule("tokens.flood_radius"))) do
            local terrain = game:terrain(c.x, c.y)
            if (terrain == "plains" or terrain == "forest") and not game:city(c.x, c.y) then
                game:set_terrain(c.x, c.y, "water")
                if game:letter(c.x, c.y) then game:destroy_letter(c.x, c.y) end
            end
        end
    end,
}
