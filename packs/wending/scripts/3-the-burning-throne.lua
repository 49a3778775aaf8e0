-- The Wending campaign, chapter 3: The Burning Throne (campaigns/wending/3-the-burning-throne.ron).
-- The warlord's keep stands among the lava; on every third of silver's turns the throne's fires flare.

scryptic.on("game_start", function(game)
    storage.campaign = storage.campaign or { chapter = 3 }
    game:message("Chapter 3: the Burning Throne. Take the Ember Throne and the Slag Tower.")
end)

-- The filter leaves the other turns to the host: the handler is called on silver's turns
-- whose number is a multiple of 6 only.
scryptic.on("turn_start", function(game)
    game:message("The Ember Throne's fires flare: the warlord's keep is strengthened (+5).")
    game:award("silver", 5)
end, { player = "silver", turn = { every = 6 } })

-- One word can take several cities at once: only taking the throne or the tower ends the war,
-- so that the ending is told once.
scryptic.on("city_captured", function(game, ev)
    if ev.city ~= "ember_throne" and ev.city ~= "slag_tower" then return end
    local gold_holds_both = game:city_owner("ember_throne") == "gold" and game:city_owner("slag_tower") == "gold"
    if gold_holds_both then
        storage.campaign.finished = true
        game:message("The Ember Throne is yours. The war of Wending is over.")
        game:end_game("gold", "the Ember Throne and the Slag Tower have fallen")
    end
end, { player = "gold" })
