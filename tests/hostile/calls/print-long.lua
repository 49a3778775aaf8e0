-- expect: (no error)
-- A printed line keeps its first bytes only, and the console its latest lines.
local big = string.rep("p", 2 * 1024 * 1024)
for i = 1, 1000 do print(big, big, big) end
