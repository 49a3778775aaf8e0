scryptic.on("game_start", function(game) storage.gold = 5 end)
