-- expect: a name or key of
local big = string.rep("e", 4 * 1024 * 1024)
scryptic.on(big, function() end)
