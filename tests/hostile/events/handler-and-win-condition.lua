-- expect: spent the whole budget of the event
-- A handler and a win condition each spending most of a budget: one action is one event.
local function burn(n) local i = 0 while i < n do i = i + 1 end end
scryptic.on("turn_start", function(game) burn(1500000) end)
scryptic.win_condition { id = "slow", check = function(game) burn(1500000) end }
