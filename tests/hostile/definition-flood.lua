-- expect: the most one script may
-- Token kinds without end.
for i = 1, math.maxinteger do
    scryptic.token { id = "kind_" .. i, invoke = function() end }
end
