-- expect: instruction budget exceeded
-- The host turns the error object into text: its __tostring runs out of budget too.
error(setmetatable({}, { __tostring = function() while true do end end }))
