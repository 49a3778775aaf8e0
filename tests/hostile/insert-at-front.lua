-- expect: instruction budget exceeded
-- Each insert at the front shifts half a million elements.
local t = {}
for i = 1, 500000 do t[i] = i end
while true do
  table.insert(t, 1, 0)
end
