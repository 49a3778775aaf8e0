-- expect: needs an `id`
local big = string.rep("t", 4 * 1024 * 1024)
scryptic.token { id = big, invoke = function() end }
