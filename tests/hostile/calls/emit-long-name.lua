-- expect: a name or key of
local big = string.rep("x:", 2 * 1024 * 1024)
scryptic.emit(big, {})
