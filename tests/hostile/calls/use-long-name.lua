-- expect: a name or key of
local big = string.rep("x", 4 * 1024 * 1024)
scryptic.use(big)
