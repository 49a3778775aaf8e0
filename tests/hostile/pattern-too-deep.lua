-- expect: pattern too complex
-- 250 optional items nest 250 matching calls; Lua allows 200.
string.find(string.rep("a", 300), string.rep("a?", 250) .. "b")
