-- expect: instruction budget exceeded
-- Four lazy quantifiers on 100,000 characters: about 10^20 steps.
local s = string.rep("a", 100000)
string.find(s, ".-.-.-.-b")
