-- expect: nested more than 16 tables deep
-- A table that holds itself, offered through an interface and passed back into it: the copy
-- that crosses must stop, not recurse until the host's stack is gone.
local loop = {}
loop.self = loop
scryptic.provide("hostile:echo", { echo = function(v) return v end })
scryptic.use("hostile:echo").echo(loop)
