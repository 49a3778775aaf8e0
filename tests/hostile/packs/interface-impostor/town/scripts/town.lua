scryptic.on("game_start", function(game)
    game:message("the bank is " .. scryptic.use("economy:bank").owner())
end)
