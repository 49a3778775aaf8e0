-- expect: not enough memory
-- Every list of cities kept, in slots made beforehand so that keeping one allocates nothing.
local keep = {}
for i = 1, 200000 do keep[i] = false end
for i = 1, #keep do
    keep[i] = game:cities()
end
