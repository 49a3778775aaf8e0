-- expect: instruction budget exceeded
local s = string.rep("ab", 50000)
for w in s:gmatch("(a.-)-(b.-)-$") do end
