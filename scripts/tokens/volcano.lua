-- Volcano (red jewel), docs/RULES.md section 9: lava spreads over `tokens.volcano_cells` cells,
-- grown at random from the token's spot one neighbouring cell at a time; letters and cities
-- it covers are destroyed.
--
-- `game:change` does in one call what a loop over the cells would (see SCRIPTING.md): a
-- `region` is grown at random with the scripts' own generator, as `math.random` draws.
scryptic.token {
    id = "volcano",
    name = "Volcano",
    color = "#cc1828",
    invoke = function(game, token)
        game:change {
            x = token.x,
            y = token.y,
            region = game:rule("tokens.volcano_cells"),
            to = "lava",
            destroy_letters = true,
            destroy_cities = true,
        }
    end,
}
