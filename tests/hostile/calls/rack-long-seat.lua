-- expect: a name or key of
local big = string.rep("gold", 1024 * 1024)
game:rack(big)
