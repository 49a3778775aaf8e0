-- expect: the most one script may register
-- Handlers without end, each one called at every turn.
for _ = 1, math.maxinteger do
    scryptic.on("turn_start", function() end)
end
