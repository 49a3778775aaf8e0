-- expect: is longer than the most
local big = string.rep("x", 4 * 1024 * 1024)
game:setting(big)
