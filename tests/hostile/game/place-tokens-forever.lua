-- expect: instruction budget exceeded
-- Token spots placed without end, each refusal caught: the board holds one spot a cell.
for i = 1, math.maxinteger do
    pcall(game.place_token, game, "spot_" .. i, "flood", i % 8, (i // 8) % 8)
end
