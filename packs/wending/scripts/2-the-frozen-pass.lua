-- The Wending campaign, chapter 2: The Frozen Pass (campaigns/wending/2-the-frozen-pass.ron).
-- Whatever villages joined gold in chapter 1 send letters now.

scryptic.on("game_start", function(game)
    storage.campaign = storage.campaign or { chapter = 2, villages = 0 }
    local villages = storage.campaign.villages or 0
    game:message("Chapter 2: the Frozen Pass. The raiders fled to Frostgate, beyond the mountains.")
    if villages > 0 then
        game:message(villages .. " village(s) from the ford send supplies for the march.")
        game:give_letters("gold", string.rep("A", villages))
    end
end)

scryptic.on("word_committed", function(game, ev)
    if game:terrain(ev.x, ev.y) == "ice" then
        game:message("The ice groans under your letters. Heavy words will break it.")
    end
end, { player = "gold" })

scryptic.on("city_captured", function(game, ev)
    if ev.player == "gold" and ev.city == "monastery" then
        game:message("The monks open the pass and pray for your victory (+10).")
        game:award("gold", 10)
    elseif ev.player == "gold" and ev.city == "frostgate" then
        storage.campaign.chapter = 3
        game:message("Frostgate falls. Its warlord escapes south, to the Ember Throne.")
        game:end_game("gold", "Frostgate has fallen")
    end
end)
