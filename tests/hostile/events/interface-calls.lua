-- expect: spent the whole budget of the event
-- Each call into another pack's interface once reset that pack's budget and deadline: one
-- handler ran 24 s while its error said "more than 1000 ms".
scryptic.on("turn_start", function(game)
    local helper = scryptic.use("helper:burn")
    for n = 1, 24 do helper.burn(1900000) end
end)
