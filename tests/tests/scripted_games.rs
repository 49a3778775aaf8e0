//! Games with scripts: events reach handlers, commands go through the engine, win conditions
//! end games, storage carries from one campaign map to the next, and scripted games replay.
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

use scryptic::board::{Owner, Player, Pos};
use scryptic::game::{Action, EndReason, Game, Placement};
use scryptic::lexicon::Lexicon;
use scryptic::map::Map;
use scryptic::script::{ConsoleLine, ScriptHost, ScriptLimits, ScriptedGame};
use scryptic_tests::random_play::RandomPlayer;
use scryptic_tests::root;
use std::sync::{Arc, OnceLock};

fn lexicon() -> Arc<Lexicon> {
    static LEXICON: OnceLock<Arc<Lexicon>> = OnceLock::new();
    LEXICON.get_or_init(|| Arc::new(Lexicon::english())).clone()
}

fn script(path: &str) -> (String, String) {
    (
        path.to_string(),
        std::fs::read_to_string(root().join(path)).unwrap(),
    )
}

/// An 8x8 map: gold's Wending at A1, neutral Millbrook at B1, silver's camp at D1 and a
/// second silver city far away; gold holds the letters for SEAT and TOWN.
fn ford_map() -> Map {
    let mut map = Map::new("Ford", 8, 8);
    let city = scryptic_tests::city;
    map.cities = vec![
        city("wending", 0, 0, Owner::Gold),
        city("millbrook", 1, 0, Owner::Neutral),
        city("raider_camp", 3, 0, Owner::Silver),
        city("frostgate", 7, 7, Owner::Silver),
    ];
    map.scenario.racks.insert(Player::Gold, "SEATOWN".into());
    map.scenario.racks.insert(Player::Silver, "AEIOU".into());
    map
}

fn scripted(map: &Map, scripts: &[(String, String)], storage: Option<&str>) -> ScriptedGame {
    let mut host = ScriptHost::with_standard_tokens(ScriptLimits::default(), 9).unwrap();
    if let Some(json) = storage {
        host.set_storage_json(json).unwrap();
    }
    for (name, source) in scripts {
        host.load(name, source).unwrap_or_else(|e| panic!("{e}"));
    }
    let game = Game::new(map, map.rule_set().unwrap(), lexicon(), 9);
    let (scripted, errors) = ScriptedGame::new(game, host);
    assert!(errors.is_empty(), "{errors:?}");
    scripted
}

fn across(word: &str, x: u32, y: u32) -> Action {
    Action::Commit {
        letters: word
            .chars()
            .enumerate()
            .map(|(i, c)| Placement {
                at: Pos::new(x + i as u32, y),
                letter: c,
            })
            .collect(),
    }
}

fn notices(game: &ScriptedGame) -> Vec<String> {
    game.host()
        .drain_console()
        .into_iter()
        .filter_map(|l| match l {
            ConsoleLine::Notice(n) | ConsoleLine::Message(n) => Some(n),
            _ => None,
        })
        .collect()
}

/// Every console line since the last look, as the console shows it.
fn console(game: &ScriptedGame) -> Vec<String> {
    let lines = game.host().drain_console();
    lines.iter().map(ToString::to_string).collect()
}

#[test]
fn the_first_chapter_tells_its_story_and_ends_when_the_camp_falls() {
    let chapter1 = script("packs/wending/scripts/1-the-ford.lua");
    let mut game = scripted(&ford_map(), &[chapter1], None);
    assert!(notices(&game)[0].starts_with("Chapter 1: the Ford at Wending."));
    game.apply(across("SEAT", 0, 0)).unwrap();
    let said = notices(&game);
    assert!(
        said.iter()
            .any(|n| n.contains("The people of millbrook join your cause")),
        "{said:?}"
    );
    assert!(
        said.iter().any(|n| n.contains("The raiders flee north")),
        "{said:?}"
    );
    let result = game.game().result().expect("the chapter ends");
    assert_eq!(result.winner, Some(Player::Gold));
    assert_eq!(
        result.reason,
        EndReason::Script {
            reason: "the raiders' camp has fallen".into()
        }
    );
    assert_eq!(
        game.game().rack_letters(Player::Gold),
        "OWNE",
        "the village's gift arrives"
    );

    let carried = game.host().storage_json().unwrap();
    assert!(
        carried.contains(r#"["chapter",2]"#) && carried.contains(r#"["villages",1]"#),
        "{carried}"
    );
    let chapter2 = script("packs/wending/scripts/2-the-frozen-pass.lua");
    let next = scripted(&ford_map(), &[chapter2], Some(&carried));
    assert_eq!(
        next.game().rack_letters(Player::Gold),
        "SEATOWNA",
        "one village sends supplies"
    );
}

/// The notices of `game` that contain `text`, after each of `actions`.
fn said_after(game: &mut ScriptedGame, actions: &[Action], text: &str) -> Vec<usize> {
    notices(game);
    actions
        .iter()
        .map(|action| {
            game.apply(action.clone()).unwrap();
            notices(game).iter().filter(|n| n.contains(text)).count()
        })
        .collect()
}

#[test]
fn the_campaigns_filtered_handlers_fire_only_on_what_they_name() {
    // Chapter 1: the villager whispers at the start of gold's turn 5 and at no other.
    let chapter1 = script("packs/wending/scripts/1-the-ford.lua");
    let mut game = scripted(&ford_map(), &[chapter1], None);
    let ends = vec![Action::EndTurn; 4];
    assert_eq!(
        said_after(&mut game, &ends, "A villager whispers"),
        [0, 0, 0, 1],
        "turns 2 to 5 start"
    );

    // Chapter 2: gold's word starting on ice makes the ice groan; one on plains does not.
    let chapter2 = script("packs/wending/scripts/2-the-frozen-pass.lua");
    let mut icy = ford_map();
    icy.terrain
        .set(Pos::new(0, 0), scryptic::board::Terrain::Ice);
    for (map, groans) in [(ford_map(), 0), (icy, 1)] {
        let mut game = scripted(&map, std::slice::from_ref(&chapter2), None);
        let said = said_after(&mut game, &[across("SEAT", 0, 0)], "The ice groans");
        assert_eq!(said, [groans]);
    }

    // Chapter 3: the war ends when gold holds both the Ember Throne and the Slag Tower.
    let chapter3 = script("packs/wending/scripts/3-the-burning-throne.lua");
    let mut keep = ford_map();
    keep.cities[0].id = "slag_tower".into();
    keep.cities[2].id = "ember_throne".into();
    let mut game = scripted(&keep, &[chapter3], None);
    assert_eq!(
        said_after(
            &mut game,
            &[across("SEAT", 0, 0)],
            "The war of Wending is over"
        ),
        [1]
    );
    let result = game.game().result().expect("the war ends");
    assert_eq!(result.winner, Some(Player::Gold));
    assert!(
        game.host()
            .storage_json()
            .unwrap()
            .contains(r#"["finished",true]"#)
    );
}

#[test]
fn a_win_condition_ends_the_game() {
    let win = script("scripts/win/first_to_score.lua");
    let mut game = scripted(&ford_map(), &[win], Some(r#"{"target_score": 6}"#));
    game.apply(across("TOWN", 0, 0)).unwrap();
    let result = game.game().result().expect("TOWN scores 6");
    assert_eq!(result.winner, Some(Player::Gold));
    assert_eq!(
        result.reason,
        EndReason::Script {
            reason: "win condition `first_to_score`".into()
        }
    );
}

#[test]
fn a_win_condition_that_keeps_failing_is_switched_off_and_the_game_goes_on() {
    // Broken from the second turn on (`scripted` wants a clean start).
    let broken = "scryptic.win_condition { id = 'broken', check = function(game)\n\
                    if game:turn() > 1 then return game:no_such_method() end\n\
                  end }";
    let mut map = ford_map();
    // Empty pools, so that passing never fills a rack past its limit.
    map.scenario.pools.insert(Player::Gold, String::new());
    map.scenario.pools.insert(Player::Silver, String::new());
    let mut game = scripted(&map, &[("broken.lua".into(), broken.into())], None);
    let mut checks_after_it_broke = 0;
    while game.game().result().is_none() {
        game.apply(Action::EndTurn).unwrap();
        checks_after_it_broke += 1;
    }
    assert!(checks_after_it_broke > 3, "{checks_after_it_broke}");
    let notices: Vec<String> = game
        .host()
        .drain_console()
        .iter()
        .map(ToString::to_string)
        .collect();
    let failures = notices
        .iter()
        .filter(|n| n.contains("broken.lua:2") && n.contains("no_such_method"))
        .count();
    let off: Vec<&String> = notices
        .iter()
        .filter(|n| n.contains("switched off"))
        .collect();
    // The same error three times over: written once, then counted.
    assert_eq!(failures, 1, "{notices:?}");
    assert!(
        notices.iter().any(|n| n == "* the same again 2 more times"),
        "{notices:?}"
    );
    assert_eq!(off.len(), 1, "{notices:?}");
    assert!(
        off[0].contains("the win condition `broken` of broken.lua failed 3 times"),
        "{}",
        off[0]
    );
}

#[test]
fn what_scripts_register_during_play_takes_part_from_then_on() {
    // At the first turn end, a handler of turn starts and a win condition are registered;
    // the game must ask both from the next action on.
    let late = "scryptic.on('turn_end', function(game, ev)\n\
                  if storage.registered then return end\n\
                  storage.registered = true\n\
                  scryptic.on('turn_start', function(game, ev) print('late start ' .. ev.turn) end)\n\
                  scryptic.win_condition { id = 'late', check = function(game)\n\
                    if game:turn() >= 3 then return 'silver' end\n\
                  end }\n\
                end)";
    let mut game = scripted(&ford_map(), &[("late.lua".into(), late.into())], None);
    game.apply(Action::EndTurn).unwrap();
    assert_eq!(console(&game), vec!["[late.lua] late start 2"]);
    game.apply(Action::EndTurn).unwrap();
    let result = game
        .game()
        .result()
        .expect("the late win condition ends the game");
    assert_eq!(result.winner, Some(Player::Silver));
}

#[test]
fn a_failed_reload_keeps_the_old_handlers_taking_part() {
    let old = "scryptic.on('turn_start', function(game, ev) print('old ' .. ev.turn) end)";
    let mut game = scripted(&ford_map(), &[("s.lua".into(), old.into())], None);
    // The new text registers a handler of another event, then fails.
    let broken = "scryptic.on('turn_end', function() end)\nerror('not yet')";
    game.reload_script("s.lua", broken)
        .expect_err("the new text fails");
    game.host().drain_console();
    game.apply(Action::EndTurn).unwrap();
    assert_eq!(console(&game), vec!["[s.lua] old 2"]);
}

/// A script reloaded in the middle of a game: the save logs the reload with the new text, and
/// its replay runs the old text until that moment and the new one after. A reload that fails
/// is not logged and changes nothing.
#[test]
fn a_save_after_a_reload_replays_each_version_from_its_moment() {
    let version = |points: i64| {
        format!("scryptic.on('turn_end', function(game, ev) game:award(ev.player, {points}) end)")
    };
    let map = ford_map();
    let script = scryptic::save::ScriptSource {
        name: "award.lua".into(),
        source: version(1),
    };
    let (mut live, _) = ScriptedGame::start(
        &map,
        map.rule_set().unwrap(),
        lexicon(),
        9,
        vec![script],
        None,
    )
    .unwrap();
    live.apply(Action::EndTurn).unwrap();
    live.reload_script("award.lua", "error('half written')")
        .expect_err("a broken text is refused");
    live.reload_script("award.lua", &version(10)).unwrap();
    live.apply(Action::EndTurn).unwrap();
    let (gold, silver) = (Player::Gold, Player::Silver);
    assert_eq!(live.game().score(gold).base, 1);
    assert_eq!(live.game().score(silver).base, 10);
    let save = live.save();
    let reloads: Vec<&Action> = save.actions.iter().filter(|a| a.is_reload()).collect();
    assert_eq!(reloads.len(), 1, "{:?}", save.actions);
    let (replayed, _) = ScriptedGame::from_save(&save, lexicon()).unwrap();
    for p in Player::BOTH {
        assert_eq!(replayed.game().score(p), live.game().score(p), "{p}");
    }
    // Through the save file, as a player loads it.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("reloaded.save.ron");
    save.save(&path).unwrap();
    let loaded = scryptic::save::SaveFile::load(&path).unwrap();
    let (again, _) = ScriptedGame::from_save(&loaded, lexicon()).unwrap();
    assert_eq!(again.game().score(silver).base, 10);
}

#[test]
fn total_control_needs_every_city() {
    let win = script("scripts/win/total_control.lua");
    let mut map = ford_map();
    map.cities.truncate(3);
    map.cities
        .push(scryptic_tests::city("keep", 3, 2, Owner::Silver));
    let mut game = scripted(&map, &[win], None);
    game.apply(across("SEAT", 0, 0)).unwrap();
    assert!(
        game.game().result().is_none(),
        "silver still holds its keep"
    );
}

#[test]
fn failing_handlers_and_refused_commands_leave_the_game_going() {
    // The handlers fail from the first turn on (`turn_start` fires as the game starts).
    let bad = ("bad.lua".to_string(), "scryptic.on('turn_start', function(game) game:give_letters('gold', 'A1') end)\nscryptic.on('turn_end', function() error('oops') end)".to_string());
    let mut host = ScriptHost::with_standard_tokens(ScriptLimits::default(), 9).unwrap();
    host.load(&bad.0, &bad.1).unwrap();
    let map = ford_map();
    let (mut game, at_start) =
        ScriptedGame::new(Game::new(&map, map.rule_set().unwrap(), lexicon(), 9), host);
    assert!(
        at_start
            .iter()
            .any(|e| e.to_string().contains("'1' is not a letter")),
        "{at_start:?}"
    );
    for _ in 0..4 {
        game.apply(Action::EndTurn).unwrap();
    }
    assert_eq!(game.game().turn(), 5);
    let console = game.host().drain_console();
    let errors: Vec<String> = console
        .iter()
        .filter_map(|l| match l {
            ConsoleLine::Error(e) => Some(e.to_string()),
            _ => None,
        })
        .collect();
    assert!(
        errors
            .iter()
            .any(|e| e.contains("script bad.lua:1 in event turn_start")
                && e.contains("'1' is not a letter")),
        "{errors:?}"
    );
    assert!(
        errors
            .iter()
            .any(|e| e.contains("bad.lua:2 in event turn_end") && e.contains("oops")),
        "{errors:?}"
    );
}

#[test]
fn a_scripted_game_replays_identically() {
    let map = Map::load(&root().join("packs/wending/campaigns/wending/3-the-burning-throne.ron"))
        .unwrap();
    let chapter3 = script("packs/wending/scripts/3-the-burning-throne.lua");
    let play = |actions: Option<&[Action]>| {
        let mut game = scripted(&map, std::slice::from_ref(&chapter3), None);
        let mut player = RandomPlayer::new(3);
        let mut log = Vec::new();
        for i in 0..120 {
            if game.game().result().is_some() {
                break;
            }
            let action = match actions {
                Some(list) if i < list.len() => list[i].clone(),
                Some(_) => break,
                None => player.choose(game.game()),
            };
            game.apply(action.clone()).unwrap();
            log.push(action);
        }
        (game, log)
    };
    let (first, log) = play(None);
    let (second, _) = play(Some(&log));
    for p in Player::BOTH {
        assert_eq!(first.game().score(p), second.game().score(p));
        assert_eq!(first.game().rack_letters(p), second.game().rack_letters(p));
    }
    assert_eq!(first.game().board().letters, second.game().board().letters);
    assert!(
        first.game().score(Player::Silver).base >= 5,
        "the throne's fires flared at least once"
    );
}

/// A script whose awards depend on what `tostring` shows of fresh tables and functions and on
/// the order `pairs` visits string keys: the same in the live game and in its replay from the
/// save (addresses and the string hash seed would differ between the two states).
#[test]
fn awards_from_names_and_iteration_order_replay_exactly() {
    let fickle = "scryptic.on('turn_end', function(game, ev)\n\
                    local t, points = {}, 0\n\
                    for i = 1, 40 do t['k' .. i] = i end\n\
                    local step = 0\n\
                    for k, v in pairs(t) do step = step + 1; points = points + step * v end\n\
                    local shown = tostring({}) .. tostring(function() end)\n\
                    for i = 1, #shown do points = points + shown:byte(i) * i end\n\
                    game:award(ev.player, points % 97)\n\
                  end)";
    let play = |actions: &[Action]| {
        let map = ford_map();
        let script = scryptic::save::ScriptSource {
            name: "fickle.lua".into(),
            source: fickle.into(),
        };
        let rules = map.rule_set().unwrap();
        let (mut game, errors) =
            ScriptedGame::start(&map, rules, lexicon(), 9, vec![script], None).unwrap();
        assert!(errors.is_empty(), "{errors:?}");
        for action in actions {
            game.apply(action.clone()).unwrap();
        }
        game
    };
    let live = play(&[across("SEAT", 0, 0), Action::EndTurn, Action::EndTurn]);
    let (replayed, _) = ScriptedGame::from_save(&live.save(), lexicon()).unwrap();
    for p in Player::BOTH {
        assert!(live.game().score(p).base > 0);
        assert_eq!(live.game().score(p), replayed.game().score(p), "{p}");
    }
}

#[test]
fn the_throne_flares_on_silvers_turns_its_filter_names_and_no_others() {
    use scryptic::game::Event;
    let map = Map::load(&root().join("packs/wending/campaigns/wending/3-the-burning-throne.ron"))
        .unwrap();
    let chapter3 = script("packs/wending/scripts/3-the-burning-throne.lua");
    let mut game = scripted(&map, &[chapter3], None);
    notices(&game);
    let mut player = RandomPlayer::new(7);
    let (mut flares_due, mut turns_seen) = (0, 0);
    while game.game().turn() < 40 && game.game().result().is_none() {
        let before = game.game().score(Player::Silver).base;
        let events = game.apply(player.choose(game.game())).unwrap();
        let due = events.iter().any(|e| {
            matches!(e, Event::TurnStarted { player: Player::Silver, turn, .. } if turn % 6 == 0)
        });
        turns_seen += events
            .iter()
            .filter(|e| matches!(e, Event::TurnStarted { .. }))
            .count();
        let flared = notices(&game)
            .iter()
            .filter(|n| n.contains("fires flare"))
            .count();
        assert_eq!(flared, usize::from(due), "turn {}", game.game().turn());
        if due {
            flares_due += 1;
            assert!(game.game().score(Player::Silver).base >= before + 5);
        }
    }
    assert!(
        turns_seen >= 30 && flares_due >= 3,
        "{turns_seen} turns, {flares_due} flares"
    );
}

#[test]
fn saving_and_loading_keeps_storage() {
    let counter = ("count.lua".to_string(), "storage.turns = storage.turns or 0\nscryptic.on('turn_start', function() storage.turns = storage.turns + 1 end)".to_string());
    let map = ford_map();
    let (mut game, errors) = ScriptedGame::start(
        &map,
        map.rule_set().unwrap(),
        lexicon(),
        4,
        vec![scryptic::save::ScriptSource {
            name: counter.0,
            source: counter.1,
        }],
        Some(r#"{"carried": "from chapter 1"}"#),
    )
    .unwrap();
    assert!(errors.is_empty());
    for _ in 0..3 {
        game.apply(Action::EndTurn).unwrap();
    }
    let before = game.host().storage_json().unwrap();
    // The first turn's start counts too: it fires as the game starts.
    assert!(
        before.contains(r#"["turns",4]"#) && before.contains("from chapter 1"),
        "{before}"
    );
    let text = game.save().to_ron();
    let save: scryptic::save::SaveFile = scryptic::ronfile::options().from_str(&text).unwrap();
    let (loaded, _) = ScriptedGame::from_save(&save, lexicon()).unwrap();
    assert_eq!(loaded.host().storage_json().unwrap(), before);
}

#[test]
fn every_command_changes_the_game_as_it_says() {
    let commands = (
        "commands.lua".to_string(),
        r#"
        scryptic.on("game_start", function(game)
            game:set_terrain(5, 5, "forest")
            game:give_letters("silver", "QZ")
            game:take_letters("silver", "A")
            game:place_token("quake_1", "volcano", 6, 6)
            game:set_city_owner("millbrook", "silver")
            game:award("gold", 7)
            game:message("all set: " .. game:width() .. "x" .. game:height() .. ", turn " .. game:turn() .. ", " .. game:active())
            local total, word, base = game:score("gold")
            print(total, word, base, game:rack("silver"), game:pool_size("silver"), game:city_owner("millbrook"), game:terrain(5, 5), game:rule("turn.rack_limit"))
            local ok, err = pcall(game.set_city_owner, game, "atlantis", "gold")
            print(err)
        end)
        scryptic.on("turn_end", function(game, ev)
            if ev.player == "silver" then game:end_game(nil, "the scripts call it a draw") end
        end)
        "#
        .to_string(),
    );
    let mut game = scripted(&ford_map(), &[commands], None);
    let g = game.game();
    assert_eq!(
        g.board().terrain[Pos::new(5, 5)],
        scryptic::board::Terrain::Forest
    );
    assert_eq!(g.rack_letters(Player::Silver), "EIOUQZ");
    assert!(
        g.board()
            .tokens
            .iter()
            .any(|t| &*t.id == "quake_1" && t.at == Pos::new(6, 6))
    );
    assert_eq!(
        g.board()
            .cities
            .iter()
            .find(|c| &*c.id == "millbrook")
            .unwrap()
            .owner,
        Owner::Silver
    );
    assert_eq!(g.score(Player::Gold).base, 7);
    let console = game.host().drain_console();
    let text: Vec<String> = console.iter().map(|l| format!("{l:?}")).collect();
    assert!(
        text.iter()
            .any(|l| l.contains("all set: 8x8, turn 1, gold")),
        "{text:?}"
    );
    assert!(
        text.iter()
            .any(|l| l.contains("7\\t0\\t7\\tEIOUQZ\\t") && l.contains("silver\\tforest\\t10")),
        "{text:?}"
    );
    assert!(
        text.iter()
            .any(|l| l.contains("there is no city `atlantis`")),
        "{text:?}"
    );
    game.apply(Action::EndTurn).unwrap();
    assert!(game.game().result().is_none());
    game.apply(Action::EndTurn).unwrap();
    let result = game.game().result().unwrap();
    assert_eq!(
        (result.winner, &result.reason),
        (
            None,
            &EndReason::Script {
                reason: "the scripts call it a draw".into()
            }
        )
    );
}

#[test]
fn a_strength_modifier_changes_defence_and_is_named() {
    use scryptic::game::strength::Modifier;
    use scryptic::map::{Direction, PlacedWord};
    let frost = ("frost.lua".to_string(), "scryptic.strength_modifier { id = 'frost', apply = function(game, word, role)\n  if role == 'defence' and word.player == 'silver' and game:terrain(word.x, word.y) == 'plains' then return 2 end\nend }".to_string());
    let mut map = Map::new("Frost", 6, 7);
    let city = scryptic_tests::city;
    map.cities = vec![
        city("gold", 0, 3, Owner::Gold),
        city("silver", 3, 5, Owner::Silver),
    ];
    map.scenario.words = vec![
        PlacedWord {
            player: Player::Gold,
            at: Pos::new(0, 3),
            dir: Direction::Across,
            text: "AT".into(),
        },
        PlacedWord {
            player: Player::Silver,
            at: Pos::new(2, 5),
            dir: Direction::Across,
            text: "ON".into(),
        },
    ];
    map.scenario.racks.insert(Player::Gold, "WOEEE".into());
    let game = scripted(&map, &[frost], None);
    let attack = vec![
        Placement {
            at: Pos::new(1, 4),
            letter: 'W',
        },
        Placement {
            at: Pos::new(1, 5),
            letter: 'O',
        },
    ];
    let preview = game.game().preview_commit(&attack).unwrap();
    let (_, word, defence) = &preview.defenders[0];
    assert_eq!(word, "ON");
    assert!(
        defence.modifiers.contains(&Modifier::Script {
            id: "frost".into(),
            factor: 2.0
        }),
        "{defence:?}"
    );
    assert_eq!(
        defence.value,
        2 * 2 + 2,
        "ON: 2 x 2 (frost), + 2 on its own city (classic)"
    );
    assert_eq!(preview.attack.value, 5, "the attacker is not frozen");
    assert!(
        game.game().has_strength_modifiers(),
        "the spy weighs every placement"
    );
    let plain = scripted(&map, &[], None);
    assert!(
        !plain.game().has_strength_modifiers(),
        "scripts defining no modifier leave the spy its bounded search"
    );
}

#[test]
fn every_event_reaches_its_handlers_with_the_registrys_fields() {
    // One handler per event prints the event's name and its fields' names, sorted.
    let source: String = scryptic::script::events()
        .map(|e| {
            format!(
                "scryptic.on('{e}', function(game, ev)\n\
                   local line = '{e}'\n\
                   for k in scryptic.sorted_pairs(ev) do line = line .. ' ' .. k end\n\
                   print(line)\n\
                 end)\n"
            )
        })
        .collect();
    // A draw called at turn 60, unless the game ends first: a game end without a winner.
    let draw = "scryptic.on('turn_start', function(game, ev)\n\
                  if ev.turn >= 60 then game:end_game(nil, 'time is up') end\n\
                end)";
    let map = Map::load(&root().join("packs/wending/campaigns/wending/3-the-burning-throne.ron"))
        .unwrap();
    let scripts = [
        ("every.lua".into(), source),
        ("draw.lua".into(), draw.into()),
    ];
    let mut seen = std::collections::BTreeSet::new();
    // Every event but `on_reload`, which only a reload runs (see hot_reload.rs).
    let expected: Vec<&str> = scryptic::script::events()
        .filter(|e| *e != "on_reload")
        .collect();
    // Games until every event has happened (one captures a city, another fights).
    for seed in 1..=64 {
        if expected.iter().all(|e| seen.contains(*e)) {
            break;
        }
        let mut game = scripted(&map, &scripts, None);
        let mut player = RandomPlayer::new(seed);
        while game.game().result().is_none() {
            let action = player.choose(game.game());
            game.apply(action).unwrap();
        }
        for line in game.host().drain_console() {
            seen.insert(check_event_line(&line));
        }
    }
    for event in expected {
        assert!(
            seen.contains(event),
            "{event} never reached a handler: {seen:?}"
        );
    }
}

/// The event a handler's console line (`event field field ...`) names, after checking that
/// its fields are the registry's: every field that is not optional, and no other.
fn check_event_line(line: &ConsoleLine) -> String {
    let ConsoleLine::Output { text, .. } = line else {
        panic!("no errors or notices expected: {line}");
    };
    let mut words = text.split(' ');
    let event = words.next().unwrap_or_default().to_string();
    let got: Vec<&str> = words.collect();
    let (_, _, fields) = scryptic::script::api::EVENT_FIELDS
        .iter()
        .find(|(e, _, _)| *e == event)
        .unwrap_or_else(|| panic!("`{event}` is not an event"));
    for (name, ty, _) in *fields {
        let optional = ty.ends_with('?');
        assert!(
            optional || got.contains(name),
            "{event} lacks `{name}`: {text}"
        );
    }
    assert!(
        got.iter()
            .all(|g| fields.iter().any(|(name, _, _)| name == g)),
        "{event} has a field the registry does not list: {text}"
    );
    event
}

/// An 8x8 map where gold's JAZZ along row 1 attacks silver's AT and ON, so silver must order
/// the defence; gold keeps two letters.
fn ambush_map() -> Map {
    let mut map = Map::new("Ambush", 8, 8);
    map.cities = vec![
        scryptic_tests::city("aurum", 0, 0, Owner::Gold),
        scryptic_tests::city("argentum", 7, 7, Owner::Silver),
    ];
    let silver_word = |x: u32, text: &str| scryptic::map::PlacedWord {
        player: Player::Silver,
        at: Pos::new(x, 1),
        dir: scryptic::map::Direction::Down,
        text: text.into(),
    };
    map.scenario.words = vec![silver_word(1, "AT"), silver_word(3, "ON")];
    map.scenario.racks.insert(Player::Gold, "JAZZES".into());
    map
}

/// Plays JAZZ into the ambush with `script` taking part: the game must still be on while
/// silver orders the defence, and end once the attack is resolved; returns how it ended.
/// The game then saves and replays to the same end.
fn ended_after_the_combat(script: &str) -> scryptic::game::GameResult {
    let source = ("ending.lua".to_string(), script.to_string());
    let mut game = scripted(&ambush_map(), &[source], None);
    let events = game.apply(across("JAZZ", 0, 0)).unwrap();
    assert!(game.game().result().is_none(), "{events:?}");
    assert!(game.game().combat_pending());
    assert_eq!(game.game().to_act(), Player::Silver);
    let events = game.apply(Action::Defend { order: None }).unwrap();
    let result = game
        .game()
        .result()
        .cloned()
        .expect("the game ends after the combat");
    assert!(
        events
            .iter()
            .any(|e| matches!(e, scryptic::game::Event::AttackSucceeded { .. })),
        "{events:?}"
    );
    let mut save = game.save();
    // `scripted` loads the scripts into the host itself, so the save learns them here.
    save.scripts = vec![scryptic::save::ScriptSource {
        name: "ending.lua".into(),
        source: script.to_string(),
    }];
    let (replayed, _) = ScriptedGame::from_save(&save, lexicon()).unwrap();
    assert_eq!(replayed.game().result(), Some(&result));
    assert_eq!(replayed.game().board().letters, game.game().board().letters);
    result
}

/// docs/RULES.md 11: no ending cuts a combat in half. A script that ends the game when a word is
/// committed waits until the defender has ordered the defence and the attack is resolved.
#[test]
fn a_script_ending_the_game_waits_for_the_combat_it_interrupts() {
    let result = ended_after_the_combat(
        r#"scryptic.on("word_committed", function(game, ev)
  game:end_game("silver", "the ambush is sprung")
end)"#,
    );
    assert_eq!(result.winner, Some(Player::Silver));
    assert_eq!(
        result.reason,
        EndReason::Script {
            reason: "the ambush is sprung".into()
        }
    );
}

/// A win condition is not asked while a combat waits for its order: here it would be met.
#[test]
fn win_conditions_wait_for_the_combat_to_resolve() {
    let result = ended_after_the_combat(
        r#"scryptic.on("word_committed", function(game, ev) storage.committed = true end)
scryptic.win_condition { id = "first_word", check = function(game)
  if storage.committed then return "gold" end
end }"#,
    );
    assert_eq!(result.winner, Some(Player::Gold));
    assert_eq!(
        result.reason,
        EndReason::Script {
            reason: "win condition `first_word`".into()
        }
    );
}

#[test]
fn messages_are_escaped_cut_and_capped_per_event() {
    let flood = (
        "flood.lua".to_string(),
        r#"
        scryptic.on("game_start", function(game)
            game:message("\27[2J" .. string.rep("x", 5000))
            for i = 2, 100 do game:message("message " .. i) end
        end)
        "#
        .to_string(),
    );
    let game = scripted(&ford_map(), &[flood], None);
    let notices: Vec<String> = game
        .host()
        .drain_console()
        .into_iter()
        .filter_map(|line| match line {
            scryptic::script::ConsoleLine::Message(text) => Some(text),
            _ => None,
        })
        .collect();
    // 32 messages, then one line saying the rest were dropped.
    assert_eq!(notices.len(), 33, "{notices:?}");
    assert!(
        notices[0].starts_with("\\x1b[2Jxxx"),
        "{}",
        &notices[0][..20]
    );
    assert!(
        notices[0].ends_with("... (3983 more bytes)"),
        "{}",
        &notices[0][1000..]
    );
    assert_eq!(notices[31], "message 32");
    assert!(
        notices[32].contains("the rest are dropped"),
        "{}",
        notices[32]
    );
}

/// What modders asked for: `turn_start` on the first turn, `combat_resolved` with the attacking
/// word, its player and the strengths, and handlers that look around (`neighbours`, `within`)
/// and ask what a word means (`connotations`).
#[test]
fn handlers_hear_the_first_turn_and_the_whole_combat_and_look_around() {
    let script = (
        "listen.lua".to_string(),
        r#"
        scryptic.on("turn_start", function(game, ev)
            game:message("turn " .. ev.turn .. ": " .. ev.player)
        end)
        scryptic.on("combat_resolved", function(game, ev)
            game:message(ev.player .. " attacked with " .. ev.word .. " at " .. ev.attack
                .. " against " .. ev.defence .. ": " .. ev.result)
            game:message("around: " .. #game:neighbours(0, 0) .. " " .. #game:within(3, 3, 1)
                .. " " .. table.concat(game:connotations("swords"), ","))
        end)
        "#
        .to_string(),
    );
    let mut game = scripted(&ambush_map(), &[script], None);
    assert_eq!(notices(&game), ["turn 1: gold"]);
    game.apply(across("JAZZ", 0, 0)).unwrap();
    game.apply(Action::Defend { order: None }).unwrap();
    let heard = notices(&game);
    let combat = heard
        .iter()
        .find(|n| n.contains("attacked with"))
        .unwrap_or_else(|| panic!("{heard:?}"));
    assert!(
        combat.starts_with("gold attacked with JAZZ at "),
        "{combat}"
    );
    assert!(combat.ends_with(": won"), "{combat}");
    let attack: i64 = combat
        .split(" at ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap();
    assert!(attack > 0, "{combat}");
    let around = heard.iter().find(|n| n.starts_with("around: ")).unwrap();
    assert!(
        around.starts_with("around: 2 5 ") && around.contains("attacking"),
        "{heard:?}"
    );
}

/// Timers: `scryptic.after(n, f)` runs `f` once, n turns after the current one; `every(n, f)`
/// on every turn whose number is a multiple of n; both are handlers, kept in replays.
#[test]
fn timers_run_after_some_turns_and_every_few_turns() {
    let script = (
        "timers.lua".to_string(),
        r#"
        scryptic.after(2, function(game, ev) game:message("after at " .. ev.turn) end)
        scryptic.every(3, function(game, ev) game:message("every at " .. ev.turn) end)
        scryptic.on("turn_start", function(game, ev)
            if ev.turn == 4 then
                scryptic.after(1, function(g, e) game:message("nested at " .. e.turn) end)
            end
        end)
        "#
        .to_string(),
    );
    let mut game = scripted(&ford_map(), &[script], None);
    while game.game().turn() < 6 {
        // Racks fill up as turns pass without words: the excess is discarded.
        if let Err(scryptic::game::ActionError::MustDiscard { excess, .. }) =
            game.apply(Action::EndTurn)
        {
            let rack = game.game().rack_letters(game.game().active());
            let letters: String = rack.chars().take(excess).collect();
            game.apply(Action::Discard { letters }).unwrap();
        }
    }
    let told = notices(&game);
    assert_eq!(
        told,
        ["after at 3", "every at 3", "nested at 5", "every at 6"]
    );
    let refused = ScriptHost::with_standard_tokens(ScriptLimits::default(), 1)
        .unwrap()
        .load("bad.lua", "scryptic.after(0, function() end)")
        .unwrap_err();
    assert!(refused.message.contains("from 1, not 0"), "{refused}");
}

/// Custom events between scripts and packs: `scryptic.emit("economy:payday", fields)` reaches
/// every `scryptic.on("economy:payday", ...)` with a copy of the fields and the game; a chain
/// of handlers emitting the event they handle is stopped, and the game goes on.
#[test]
fn custom_events_reach_their_handlers_and_endless_chains_are_stopped() {
    let economy = (
        "economy.lua".to_string(),
        r#"
        scryptic.on("turn_end", function(game, ev)
            local pay = { amount = 4 }
            scryptic.emit("economy:payday", { player = ev.player, pay = pay })
            pay.amount = 1000
        end)
        "#
        .to_string(),
    );
    let town = (
        "town.lua".to_string(),
        r#"
        scryptic.on("economy:payday", function(game, ev)
            game:award(ev.player, ev.pay.amount)
            game:message(ev.player .. " is paid " .. ev.pay.amount .. " on turn " .. game:turn())
        end)
        "#
        .to_string(),
    );
    let mut game = scripted(&ford_map(), &[economy, town], None);
    let before = game.game().score(Player::Gold).base;
    game.apply(Action::EndTurn).unwrap();
    assert_eq!(game.game().score(Player::Gold).base, before + 4);
    let told = notices(&game);
    // Handlers see the game as the action left it: the next turn has begun.
    assert_eq!(told, ["gold is paid 4 on turn 2"]);

    let echo = (
        "echo.lua".to_string(),
        r#"
        scryptic.on("turn_end", function() scryptic.emit("echo:ping") end)
        scryptic.on("echo:ping", function() scryptic.emit("echo:ping") end)
        "#
        .to_string(),
    );
    let mut game = scripted(&ford_map(), &[echo], None);
    let events = game.apply(Action::EndTurn).unwrap();
    assert!(!events.is_empty(), "the game goes on");
    let errors: Vec<String> = game
        .host()
        .drain_console()
        .into_iter()
        .filter_map(|line| match line {
            ConsoleLine::Error(e) => Some(e.to_string()),
            _ => None,
        })
        .collect();
    assert!(
        errors.iter().any(|e| e.contains("custom events in a row")),
        "{errors:?}"
    );
    let refused = ScriptHost::new(ScriptLimits::default(), 1)
        .unwrap()
        .load("bad.lua", "scryptic.emit('payday')")
        .unwrap_err();
    assert!(refused.message.contains("named with a `:`"), "{refused}");
}
