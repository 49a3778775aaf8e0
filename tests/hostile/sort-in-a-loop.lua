-- expect: instruction budget exceeded
local t = {}
for i = 1, 200000 do t[i] = -i end
while true do
  table.sort(t)
end
