-- expect: instruction budget exceeded
local t = {}
for i = 1, 100000 do t[i] = "0123456789" end
while true do
  local s = table.concat(t)
end
