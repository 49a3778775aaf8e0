-- expect: more changes than the board has cells
-- The whole board changed again and again in one effect, a call at a time.
for _ = 1, math.maxinteger do
    game:change { x = token.x, y = token.y, within = math.huge, to = "lava", destroy_letters = true }
end
