-- expect: a name or key of
local big = string.rep("silver", 1024 * 1024)
game:award(big, 1)
