-- expect: instruction budget exceeded
local function f()
  local guard <close> = setmetatable({}, { __close = function() while true do end end })
  while true do end
end
while true do
  pcall(f)
end
