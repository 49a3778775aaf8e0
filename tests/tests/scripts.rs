//! The shipped scripts (`scripts/`) through the scripting host.
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use scryptic::board::{Owner, Player, Pos, Terrain, TokenSpot};
use scryptic::game::{
    Action, ActionError, Effect, Game, Placement, StandardElementals, TokenEffects,
};
use scryptic::lexicon::Lexicon;
use scryptic::map::{GenerateOptions, Map, generate};
use scryptic::script::{ScriptHost, ScriptLimits, ScriptTokens};
use scryptic_tests::root;
use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};

fn elementals() -> ScriptHost {
    let mut host = ScriptHost::new(ScriptLimits::default(), 1).unwrap();
    for kind in ["volcano", "drought", "flood", "firestorm"] {
        let path = root().join(format!("scripts/tokens/{kind}.lua"));
        let source = std::fs::read_to_string(&path).unwrap();
        host.load(&format!("scripts/tokens/{kind}.lua"), &source)
            .unwrap_or_else(|e| panic!("{e}"));
    }
    host
}

fn sorted(effect: &Effect) -> (BTreeSet<(Pos, Terrain)>, BTreeSet<Pos>, BTreeSet<Pos>) {
    (
        effect.terrain.iter().copied().collect(),
        effect.destroy_letters.iter().copied().collect(),
        effect.destroy_cities.iter().copied().collect(),
    )
}

/// Boards with every terrain, letters and cities, to compare the Lua and built-in effects on.
fn boards() -> Vec<Game> {
    let lexicon = Arc::new(Lexicon::english());
    (0..4)
        .map(|seed| {
            let mut map = generate(&GenerateOptions {
                name: "T".into(),
                width: 20,
                height: 16,
                seed,
                neutral_city_pairs: 3,
                token_pairs: 0,
            })
            .expect("the generated map has room for its pieces");
            for (i, word) in ["SWORD", "CASTLE", "RIVER"].iter().enumerate() {
                map.scenario.words.push(scryptic::map::PlacedWord {
                    player: Player::Gold,
                    at: Pos::new(2 + 5 * i as u32, 5),
                    dir: scryptic::map::Direction::Down,
                    text: word.to_string(),
                });
            }
            Game::new(&map, map.rule_set().unwrap(), lexicon.clone(), seed)
        })
        .collect()
}

#[test]
fn the_lua_elementals_define_the_four_standard_kinds() {
    let mut kinds = elementals().token_kinds();
    kinds.sort();
    assert_eq!(kinds, vec!["drought", "firestorm", "flood", "volcano"]);
}

#[test]
fn drought_flood_and_firestorm_in_lua_match_the_rules_exactly() {
    let mut host = elementals();
    for game in boards() {
        for kind in ["drought", "flood", "firestorm"] {
            for spot in [
                Pos::new(3, 6),
                Pos::new(10, 8),
                Pos::new(0, 0),
                Pos::new(19, 15),
            ] {
                let lua = host
                    .invoke_token(
                        &scryptic_tests::invocation(kind, spot),
                        game.board(),
                        game.rules(),
                        &mut scryptic_tests::rng(1),
                    )
                    .unwrap();
                let mut rng = ChaCha8Rng::seed_from_u64(0);
                let built_in = StandardElementals
                    .effect(
                        &scryptic_tests::invocation(kind, spot),
                        game.board(),
                        game.rules(),
                        &mut rng,
                    )
                    .unwrap();
                assert_eq!(sorted(&lua), sorted(&built_in), "{kind} at {spot}");
            }
        }
    }
}

#[test]
fn the_lua_volcano_grows_connected_lava_of_the_rule_size() {
    let mut host = elementals();
    let game = &boards()[0];
    let spot = Pos::new(9, 8);
    let effect = host
        .invoke_token(
            &scryptic_tests::invocation("volcano", spot),
            game.board(),
            game.rules(),
            &mut scryptic_tests::rng(1),
        )
        .unwrap();
    let lava: BTreeSet<Pos> = effect
        .terrain
        .iter()
        .map(|&(p, t)| {
            assert_eq!(t, Terrain::Lava);
            p
        })
        .collect();
    assert_eq!(lava.len() as i64, game.rules().tokens.volcano_cells);
    assert!(lava.contains(&spot));
    let mut reached = BTreeSet::from([spot]);
    let mut queue = vec![spot];
    while let Some(p) = queue.pop() {
        for n in game.board().terrain.neighbours4(p) {
            if lava.contains(&n) && reached.insert(n) {
                queue.push(n);
            }
        }
    }
    assert_eq!(reached, lava);
    let letters: BTreeSet<Pos> = lava
        .iter()
        .copied()
        .filter(|&p| game.board().letters[p].is_some())
        .collect();
    assert_eq!(
        effect
            .destroy_letters
            .iter()
            .copied()
            .collect::<BTreeSet<_>>(),
        letters
    );
}

/// `game:within` and `game:neighbours` hand a token every cell, once each, in row order,
/// also for lists longer than one batch of the Lua-side list builder (a radius of 9 on a 20x16
/// board covers well over a hundred cells).
#[test]
fn cell_lists_hold_every_cell_once_in_order() {
    let game = &boards()[0];
    let mut host = ScriptHost::new(ScriptLimits::default(), 1).unwrap();
    host.load(
        "cells.lua",
        "scryptic.token { id = 'cells', invoke = function(game, token)
            for _, c in ipairs(game:within(token.x, token.y, 9)) do game:set_terrain(c.x, c.y, 'ice') end
            for _, c in ipairs(game:neighbours(token.x, token.y)) do game:destroy_letter(c.x, c.y) end
        end }",
    )
    .unwrap();
    let spot = Pos::new(9, 8);
    let effect = host
        .invoke_token(
            &scryptic_tests::invocation("cells", spot),
            game.board(),
            game.rules(),
            &mut scryptic_tests::rng(1),
        )
        .unwrap();
    let within: Vec<(Pos, Terrain)> = game
        .board()
        .terrain
        .positions()
        .filter(|p| {
            let (dx, dy) = (p.x as i64 - 9, p.y as i64 - 8);
            dx * dx + dy * dy <= 81
        })
        .map(|p| (p, Terrain::Ice))
        .collect();
    assert!(within.len() > 128, "{} cells", within.len());
    assert_eq!(effect.terrain, within);
    let neighbours: Vec<Pos> = game.board().terrain.neighbours4(spot).collect();
    assert_eq!(effect.destroy_letters, neighbours);
}

fn token_game(effects: Arc<dyn TokenEffects>) -> Game {
    let mut map = Map::new("Tokens", 8, 8);
    map.cities = vec![
        scryptic_tests::city("aurum", 0, 0, Owner::Gold),
        scryptic_tests::city("argentum", 7, 7, Owner::Silver),
    ];
    map.tokens = vec![
        TokenSpot {
            id: "drought_1".into(),
            kind: "drought".into(),
            at: Pos::new(1, 0),
        },
        TokenSpot {
            id: "flood_1".into(),
            kind: "flood".into(),
            at: Pos::new(2, 0),
        },
    ];
    for p in [Pos::new(1, 2), Pos::new(1, 3), Pos::new(5, 0)] {
        map.terrain.set(p, Terrain::Water);
    }
    map.scenario.racks.insert(Player::Gold, "SEATOO".into());
    map.scenario.pools.insert(Player::Gold, String::new());
    map.scenario.pools.insert(Player::Silver, String::new());
    map.scenario.racks.insert(Player::Silver, "AEIOU".into());
    let mut game = Game::new(
        &map,
        map.rule_set().unwrap(),
        Arc::new(Lexicon::english()),
        1,
    );
    game.set_token_effects(effects);
    let seat = "SEAT"
        .chars()
        .enumerate()
        .map(|(i, c)| Placement {
            at: Pos::new(i as u32, 0),
            letter: c,
        })
        .collect();
    game.apply(Action::Commit { letters: seat }).unwrap();
    game
}

#[test]
fn a_game_with_lua_tokens_plays_like_one_with_the_built_in_ones() {
    let scripted = Arc::new(ScriptTokens::new(Arc::new(Mutex::new(elementals()))));
    let (mut lua, mut built_in) = (
        token_game(scripted),
        token_game(Arc::new(StandardElementals)),
    );
    for token in ["drought_1", "flood_1"] {
        lua.apply(Action::Invoke {
            token: token.into(),
        })
        .unwrap();
        built_in
            .apply(Action::Invoke {
                token: token.into(),
            })
            .unwrap();
        assert_eq!(
            lua.board().terrain,
            built_in.board().terrain,
            "after {token}"
        );
        assert_eq!(
            lua.board().letters,
            built_in.board().letters,
            "after {token}"
        );
    }
}

#[test]
fn a_failing_token_script_refuses_the_invoke_and_the_token_stays() {
    let mut host = ScriptHost::new(ScriptLimits::default(), 1).unwrap();
    host.load("broken_drought.lua", "scryptic.token { id = 'drought', invoke = function(game, token)\n  game:set_terrain(token.x, token.y, 'swamp')\nend }").unwrap();
    host.load(
        "endless_flood.lua",
        "scryptic.token { id = 'flood', invoke = function() while true do end end }",
    )
    .unwrap();
    let mut game = token_game(Arc::new(ScriptTokens::new(Arc::new(Mutex::new(host)))));
    let before = game.board().terrain.clone();
    match game.apply(Action::Invoke {
        token: "drought_1".into(),
    }) {
        Err(ActionError::TokenFailed { kind, message }) => {
            assert_eq!(kind, "drought");
            assert!(
                message.starts_with(
                    "script broken_drought.lua:2 in event token_invoked: unknown terrain `swamp`"
                ),
                "{message}"
            );
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
    let err = game
        .apply(Action::Invoke {
            token: "flood_1".into(),
        })
        .unwrap_err();
    assert!(
        err.to_string().contains("instruction budget exceeded"),
        "{err}"
    );
    assert_eq!(game.board().terrain, before);
    let held: Vec<String> = game
        .player(Player::Gold)
        .tokens()
        .map(|(id, _)| id.to_string())
        .collect();
    assert_eq!(held, vec!["drought_1", "flood_1"]);
}

#[test]
fn the_luals_definitions_are_generated_from_the_api_registry() {
    let committed = std::fs::read_to_string(root().join("scripts/types/scryptic.lua")).unwrap();
    assert!(
        committed == scryptic::script::api::luals_definitions(),
        "scripts/types/scryptic.lua is out of date: run `scryptic script types --out scripts/types/scryptic.lua`"
    );
}

/// The reference pages are written from the same registry as the definitions: one drifting
/// from it fails here (`SCRYPTIC_BLESS=1` writes them anew).
#[test]
fn the_api_reference_for_people_and_for_tools_is_generated_from_the_registry() {
    use scryptic::script::api_docs::{json_reference_text, markdown_reference};
    for (file, made, format) in [
        ("docs/lua-api.md", markdown_reference(), "markdown"),
        ("docs/lua-api.json", json_reference_text(), "json"),
    ] {
        let path = root().join(file);
        if std::env::var_os("SCRYPTIC_BLESS").is_some() {
            std::fs::write(&path, &made).unwrap();
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == made,
            "{file} is out of date: run `scryptic script types --format {format}`"
        );
    }
}

/// Every function, method and event the engine answers to is in the JSON reference, with
/// each parameter typed: a tool reading it knows the whole API.
#[test]
fn the_json_reference_names_every_function_event_and_type() {
    use scryptic::script::api::{EVENT_FIELDS, OBJECTS, SCRYPTIC};
    let json = scryptic::script::api_docs::json_reference();
    let names = |key: &str| -> Vec<String> {
        json[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v["name"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(names("functions").len(), SCRYPTIC.len());
    assert_eq!(names("events").len(), EVENT_FIELDS.len());
    for object in OBJECTS {
        let found = json["objects"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["name"] == object.name)
            .unwrap_or_else(|| panic!("{} missing", object.name));
        assert_eq!(
            found["methods"].as_array().unwrap().len(),
            object.methods.len()
        );
    }
    for function in json["functions"].as_array().unwrap() {
        for p in function["parameters"].as_array().unwrap() {
            assert!(!p["type"].as_str().unwrap().is_empty(), "{function}");
        }
    }
    let types = scryptic::script::api::luals_definitions();
    for class in names("classes") {
        assert!(
            types.contains(&format!("---@class {class}\n")),
            "{class} is not in the definitions"
        );
    }
    for alias in names("aliases") {
        assert!(
            types.contains(&format!("---@alias {alias} ")),
            "{alias} is not in the definitions"
        );
    }
}

#[test]
fn every_method_in_the_registry_exists() {
    use scryptic::script::api::{GAME, SCRYPTIC, TOKEN_GAME};
    let names = |list: &[scryptic::script::api::ApiFunction]| {
        list.iter()
            .map(|f| format!("'{}'", f.name))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let source = format!(
        "for _, name in ipairs({{{}}}) do assert(scryptic[name], 'scryptic.' .. name) end\n\
         scryptic.on('game_start', function(game) for _, name in ipairs({{{}}}) do assert(game[name], 'game:' .. name) end print('game ok') end)\n\
         scryptic.token {{ id = 'probe', invoke = function(game) for _, name in ipairs({{{}}}) do assert(game[name], 'token game:' .. name) end print('token ok') end }}",
        names(SCRYPTIC),
        names(GAME),
        names(TOKEN_GAME)
    );
    let map = {
        let mut m = Map::new("Probe", 8, 8);
        m.cities = vec![
            scryptic_tests::city("a", 0, 0, Owner::Gold),
            scryptic_tests::city("b", 7, 7, Owner::Silver),
        ];
        m
    };
    let scripted = started_with("probe.lua", &source, &map);
    let mut host = scripted.host();
    host.invoke_token(
        &scryptic_tests::invocation("probe", Pos::new(1, 1)),
        scripted.game().board(),
        scripted.game().rules(),
        &mut scryptic_tests::rng(1),
    )
    .unwrap();
    let said = printed(&mut host);
    assert_eq!(said, vec!["game ok", "token ok"]);
}

#[test]
fn the_scripting_guide_covers_every_event_and_method() {
    use scryptic::script::api::{EVENT_FIELDS, GAME, MODE_GAME, SCRYPTIC, TOKEN_GAME};
    let guide = std::fs::read_to_string(root().join("SCRIPTING.md")).unwrap();
    for (event, _, _) in EVENT_FIELDS {
        assert!(
            guide.contains(&format!("`{event}`")),
            "SCRIPTING.md does not mention the event {event}"
        );
    }
    for f in GAME.iter().chain(TOKEN_GAME).chain(MODE_GAME) {
        assert!(
            guide.contains(&format!("game:{}(", f.name))
                || guide.contains(&format!("game:{}{{", f.name)),
            "SCRIPTING.md does not mention game:{}",
            f.name
        );
    }
    for f in SCRYPTIC {
        assert!(
            guide.contains(&format!("scryptic.{}", f.name)),
            "SCRIPTING.md does not mention scryptic.{}",
            f.name
        );
    }
}

/// `game:change` with a `region`: the Lua volcano covers exactly `tokens.volcano_cells`
/// distinct cells, connected and grown from the spot, destroys the letters and cities on them,
/// and grows the same region again from the same seed; a misspelt field is refused by name.
#[test]
fn a_region_change_grows_connected_from_the_spot_and_follows_the_seed() {
    let game = &boards()[0];
    let spot = Pos::new(9, 8);
    let invoke = |seed: u64| {
        let mut host = ScriptHost::with_standard_tokens(ScriptLimits::default(), 1).unwrap();
        host.invoke_token(
            &scryptic_tests::invocation("volcano", spot),
            game.board(),
            game.rules(),
            &mut scryptic_tests::rng(seed),
        )
        .unwrap()
    };
    let effect = invoke(3);
    let cells: Vec<Pos> = effect.terrain.iter().map(|(p, _)| *p).collect();
    assert_eq!(cells.len() as i64, game.rules().tokens.volcano_cells);
    assert_eq!(cells[0], spot);
    assert!(effect.terrain.iter().all(|(_, t)| *t == Terrain::Lava));
    assert_eq!(cells.iter().collect::<BTreeSet<_>>().len(), cells.len());
    for (i, c) in cells.iter().enumerate().skip(1) {
        let touches = cells[..i]
            .iter()
            .any(|p| p.x.abs_diff(c.x) + p.y.abs_diff(c.y) == 1);
        assert!(touches, "{c} grew from nothing");
    }
    let lettered: Vec<Pos> = cells
        .iter()
        .copied()
        .filter(|&p| game.board().letters[p].is_some())
        .collect();
    assert_eq!(effect.destroy_letters, lettered);
    assert_eq!(invoke(3), effect, "the same seed grows the same region");
    let others: Vec<Effect> = (4..10).map(invoke).collect();
    assert!(others.iter().any(|e| *e != effect), "the seed decides");

    let mut host = ScriptHost::new(ScriptLimits::default(), 1).unwrap();
    host.load(
        "typo.lua",
        "scryptic.token { id = 'typo', invoke = function(game, token)\n\
         game:change { x = token.x, y = token.y, within = 2, to = 'water', destroy_leters = true }\n\
         end }",
    )
    .unwrap();
    let refused = match host.invoke_token(
        &scryptic_tests::invocation("typo", spot),
        game.board(),
        game.rules(),
        &mut scryptic_tests::rng(1),
    ) {
        Err(scryptic::game::EffectError::Failed(message)) => message,
        other => panic!("expected a refusal, got {other:?}"),
    };
    assert!(
        refused.contains("typo.lua:2")
            && refused
                .contains("game:change has no field destroy_leters; its fields are x, y, within"),
        "{refused}"
    );
}

/// A token's `invoke` knows who invokes it and the spot's id, and may message and award; the
/// engine applies the award and the game tells the message.
#[test]
fn a_token_knows_its_invoker_and_spot_and_may_message_and_award() {
    let mut host = elementals();
    host.load(
        "blessing.lua",
        r#"scryptic.token{ id = "blessing", invoke = function(game, token)
            game:message(token.player .. " is blessed at " .. token.id)
            game:award(token.player, 7)
        end }"#,
    )
    .unwrap();
    let game = &boards()[0];
    let call = scryptic::game::Invocation {
        kind: "blessing",
        token: "shrine",
        spot: Pos::new(2, 2),
        player: scryptic::Player::Silver,
    };
    let effect = host
        .invoke_token(
            &call,
            game.board(),
            game.rules(),
            &mut scryptic_tests::rng(1),
        )
        .unwrap();
    assert_eq!(effect.messages, ["silver is blessed at shrine"]);
    assert_eq!(effect.awards, [(scryptic::Player::Silver, 7)]);

    let mut played = game.clone();
    let before = played.score(scryptic::Player::Silver).base;
    let event = played.apply_effect(&effect, scryptic::Player::Silver, "shrine", "blessing");
    assert_eq!(played.score(scryptic::Player::Silver).base, before + 7);
    let told = scryptic::game::describe::describe(&event);
    assert!(told.contains("» silver is blessed at shrine"), "{told}");
}

/// Scripts talk through declared interfaces: `provide` offers named functions and values,
/// `use` gives a view in which values are copies and functions copy what crosses them, so no
/// script reaches another's tables; functions cannot cross; a reload drops and re-provides.
#[test]
fn scripts_talk_through_interfaces_and_only_copies_cross() {
    let mut host = ScriptHost::new(ScriptLimits::default(), 1).unwrap();
    host.load(
        "bank.lua",
        r#"
        local vault = { total = 0 }
        scryptic.provide("bank", {
            rate = { percent = 3 },
            deposit = function(n) vault.total = vault.total + n; return vault.total, { seen = n } end,
            audit = function() return vault end,
            call = function(f) return f() end,
        })
        "#,
    )
    .unwrap();
    host.load(
        "town.lua",
        r#"
        scryptic.on("turn_end", function()
            local bank = scryptic.use("bank")
            local total, receipt = bank.deposit(5)
            bank.rate.percent = 99
            local vault = bank.audit()
            vault.total = 1000000
            print(total, receipt.seen, scryptic.use("bank").rate.percent, bank.audit().total)
            print(pcall(bank.call, function() return 1 end))
            print(pcall(scryptic.use, "treasury"))
        end)
        "#,
    )
    .unwrap();
    let errors = host.dispatch_event("turn_end", Some(1), &[]);
    assert!(errors.is_empty(), "{errors:?}");
    let said = printed(&mut host);
    assert_eq!(
        said[0], "5\t5\t3\t5",
        "copies cross, not the tables themselves"
    );
    assert!(
        said[1].starts_with("false\t") && said[1].contains("not a function"),
        "{said:?}"
    );
    assert!(
        said[2].contains("no script provides interface `treasury`; provided: bank"),
        "{said:?}"
    );

    let refused = host
        .load("thief.lua", r#"scryptic.provide("bank", {})"#)
        .unwrap_err();
    assert!(
        refused.message.contains("already provided by bank.lua"),
        "{refused}"
    );
    host.reload(
        "bank.lua",
        r#"scryptic.provide("bank", { rate = { percent = 4 } })"#,
    )
    .unwrap();
    host.load(
        "reader.lua",
        r#"print(scryptic.use("bank").rate.percent, scryptic.use("bank").deposit)"#,
    )
    .unwrap();
    let said = printed(&mut host);
    assert_eq!(
        said,
        ["4\tnil"],
        "the reloaded script's interface replaced the old one"
    );
}

/// What the scripts of `host` printed since the last look.
/// Scripts see each city's own capture bonus (nil where the rule set's applies).
#[test]
fn scripts_see_a_citys_own_bonus() {
    let source = "scryptic.on('game_start', function(game)\n\
                    for _, c in ipairs(game:cities()) do print(c.id .. ' ' .. tostring(c.bonus)) end\n\
                  end)";
    let mut map = Map::new("Bonuses", 8, 8);
    let mut town = scryptic_tests::city("town", 3, 3, Owner::Neutral);
    town.bonus = Some(25);
    map.cities = vec![scryptic_tests::city("home", 0, 0, Owner::Gold), town];
    let scripted = started_with("bonus.lua", source, &map);
    assert_eq!(printed(&mut scripted.host()), ["home nil", "town 25"]);
}

/// A game on `map` started with the script `source` (as `name`) and the standard tokens; the
/// script loads and starts without an error.
fn started_with(name: &str, source: &str, map: &Map) -> scryptic::script::ScriptedGame {
    let mut host = ScriptHost::with_standard_tokens(ScriptLimits::default(), 1).unwrap();
    host.load(name, source).unwrap();
    let rules = map.rule_set().unwrap();
    let game = Game::new(map, rules, Arc::new(Lexicon::english()), 1);
    let (scripted, errors) = scryptic::script::ScriptedGame::new(game, host);
    assert!(errors.is_empty(), "{errors:?}");
    scripted
}

fn printed(host: &mut ScriptHost) -> Vec<String> {
    host.drain_console()
        .into_iter()
        .filter_map(|l| match l {
            scryptic::script::ConsoleLine::Output { text, .. } => Some(text),
            _ => None,
        })
        .collect()
}

/// SCRIPTING.md's whole game in Lua plays: gold's pawn, stepping every turn, reaches the far
/// row first and wins.
#[test]
fn the_guides_whole_game_in_lua_plays_to_its_end() {
    let guide = std::fs::read_to_string(root().join("SCRIPTING.md")).unwrap();
    let start = guide.find("```lua\n-- A whole (tiny) game").unwrap() + "```lua\n".len();
    let source = &guide[start..start + guide[start..].find("```").unwrap()];
    let mut rules = scryptic::rules::RuleSet::preset("classic").unwrap();
    rules.flow.scripted = true;
    let scripts = vec![scryptic::save::ScriptSource {
        name: "race.lua".into(),
        source: source.into(),
    }];
    let (mut game, errors) = scryptic::script::ScriptedGame::start(
        &Map::new("Race", 6, 6),
        rules,
        Arc::new(Lexicon::english()),
        1,
        scripts,
        None,
    )
    .unwrap();
    assert!(errors.is_empty(), "{errors:?}");
    while game.game().result().is_none() {
        let mover = game.game().choosing()[0];
        let action = scryptic::game::Action::Move {
            player: mover,
            mv: "step".into(),
        };
        game.apply(action).unwrap();
    }
    let result = game.game().result().unwrap();
    assert_eq!(result.winner, Some(scryptic::board::Player::Gold));
    assert_eq!(
        game.game().turn(),
        10,
        "gold's fifth step is the ninth move"
    );
}
