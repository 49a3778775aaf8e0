-- The Wending campaign, chapter 1: The Ford at Wending (campaigns/wending/1-the-ford.ron).
-- Gold holds Wending; raiders camp across the river. Win the villages, take the camp.

scryptic.on("game_start", function(game)
    storage.campaign = storage.campaign or { chapter = 1, villages = 0 }
    game:message("Chapter 1: the Ford at Wending. Raiders camp across the river. " ..
        "Win Millbrook and Stonebridge to your side, then drive the raiders from their camp.")
end)

scryptic.on("turn_start", function(game)
    game:message("A villager whispers: the ford at the river's narrows is shallow enough to cross.")
end, { player = "gold", turn = 5 })

scryptic.on("city_captured", function(game, ev)
    if ev.player ~= "gold" then
        game:message("The raiders have taken " .. ev.city .. "!")
        return
    end
    if ev.city == "millbrook" or ev.city == "stonebridge" then
        storage.campaign.villages = storage.campaign.villages + 1
        game:message("The people of " .. ev.city .. " join your cause, and bring provisions.")
        game:give_letters("gold", "E")
    elseif ev.city == "raider_camp" then
        storage.campaign.chapter = 2
        storage.campaign.ford_won_on_turn = game:turn()
        game:message("The raiders flee north over the mountains. Wending is safe, for now.")
        game:end_game("gold", "the raiders' camp has fallen")
    end
end)
