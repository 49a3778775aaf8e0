-- Volcano (red jewel), RULES.md section 9: lava spreads over `tokens.volcano_cells` cells,
-- grown at random from the token's spot one neighbouring cell at a time; letters and cities
-- it covers are destroyed.
scryptic.token {
    id = "volcano",
    name = "Volcano",
    color = "#cc1828",
    invoke = function(game, token)
        local size = game:rule("tokens.volcano_cells")
        local width = game:width()
        local function key(x, y) return y * width + x end
        local lava, taken, frontier = {}, {}, {}
        local function add_neighbours(x, y)
            for _, n in ipairs(game:neighbours(x, y)) do
                local k = key(n.x, n.y)
                if not taken[k] then
                    taken[k] = true
                    frontier[#frontier + 1] = n
                end
            end
        end
        if size < 1 then return end
        taken[key(token.x, token.y)] = true
        lava[1] = { x = token.x, y = token.y }
        add_neighbours(token.x, token.y)
        while #lava < size and #frontier > 0 do
            local i = math.random(#frontier)
            local next = frontier[i]
            frontier[i] = frontier[#frontier]
            frontier[#frontier] = nil
            lava[#lava + 1] = next
            add_neighbours(next.x, next.y)
        end
        for _, c in ipairs(lava) do
            game:set_terrain(c.x, c.y, "lava")
            if game:letter(c.x, c.y) then game:destroy_letter(c.x, c.y) end
            if game:city(c.x, c.y) then game:destroy_city(c.x, c.y) end
        end
    end,
}
