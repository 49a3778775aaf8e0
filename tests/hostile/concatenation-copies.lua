-- expect: time limit exceeded
-- The `..` operator copies 4 MiB per instruction: only the deadline sees it.
local s = string.rep("x", 4 * 1024 * 1024)
while true do
  local t = s .. "y"
end
