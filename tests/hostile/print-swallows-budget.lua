-- expect: instruction budget exceeded
-- print used to catch the error its tostring raised, so the loop never ended.
local t = setmetatable({}, { __tostring = function() while true do end end })
while true do
  print(t)
end
