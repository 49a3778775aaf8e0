-- expect: instruction budget exceeded
-- Each call copies 8 MiB: few instructions, much work.
while true do
  local s = string.rep("x", 8 * 1024 * 1024)
end
