-- expect: more bytes)
local big = string.rep("e", 1024 * 1024)
error(big)
