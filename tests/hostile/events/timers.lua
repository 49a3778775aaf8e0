-- expect: spent the whole budget of the event
-- 256 timers, each just under what one call once had to itself: one turn's start ran minutes.
for t = 1, 256 do
    scryptic.every(1, function()
        local i = 0
        while i < 1900000 do i = i + 1 end
    end)
end
