-- expect: instruction budget exceeded
-- coroutine.close returns false and the error: it must not hide a spent budget.
while true do
  local co = coroutine.create(function()
    local guard <close> = setmetatable({}, { __close = function() while true do end end })
    coroutine.yield()
  end)
  coroutine.resume(co)
  coroutine.close(co)
end
