-- expect: more changes than the board has cells
-- An effect that lists the same cell without end.
for _ = 1, math.maxinteger do
    game:set_terrain(token.x, token.y, "ice")
end
