-- expect: not enough memory
-- A result past the memory cap is refused before it is built.
local s = string.rep("x", math.maxinteger)
