-- expect: instruction budget exceeded
local s = string.rep("x", 1024 * 1024)
while true do
  s:gsub("x", "y")
end
