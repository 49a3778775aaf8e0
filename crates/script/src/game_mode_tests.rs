//! A game whose rules are Lua: the engine asks a seat's moves of its view, plays a move on a
//! copy, keeps secret choices apart until all are made, and ends the game when the rules say.

use super::*;
use crate::board::Player;
use crate::game::{Action, ActionError, Event, Place};
use crate::map::Map;
use crate::rules::RuleSet;
use crate::save::ScriptSource;

/// Two seats, one piece each, chosen in secret onto the board; then gold may peek, fail,
/// or win.
const PEEK: &str = r#"
scryptic.game_mode{
    setup = function(game)
        game:add{owner = "gold", kind = "stone", value = 2, pit = "hand"}
        game:add{owner = "silver", kind = "stone", value = 5, pit = "hand"}
        game:set("phase", "choose")
        game:choose_in_secret()
    end,
    moves = function(game, player)
        if game:secret() then
            if game:count(player, "hand") > 0 then return {"place"} end
            return {"ready"}
        end
        local other = game:piece(player == "gold" and 1 or 0)
        return {"peek " .. tostring(other.value), "fail", "win"}
    end,
    play = function(game, player, move)
        if move == "place" then
            local id = game:pit(player, "hand")[1].id
            game:move(id, id, player == "gold" and 0 or 2)
        elseif move == "ready" then
            game:done(player)
        elseif move == "fail" then
            game:set("phase", "broken")
            error("this move always fails")
        elseif move == "win" then
            game:set("won", player)
        else
            game:show(player == "gold" and 0 or 1)
            game:turn(player == "gold" and "silver" or "gold")
        end
    end,
    revealed = function(game)
        game:set("phase", "play")
        game:turn("gold")
    end,
    end_if = function(game)
        local won = game:get("won")
        if won then return won, won .. " said so" end
    end,
}
"#;

/// A scripted game on a plain 6 by 6 board with `scripts` (name, text), and what starting it
/// reported.
fn scripted_game(scripts: &[(&str, &str)]) -> (ScriptedGame, Vec<ScriptError>) {
    let mut rules = RuleSet::preset("classic").unwrap();
    rules.flow.scripted = true;
    let scripts = scripts
        .iter()
        .map(|(name, source)| ScriptSource {
            name: name.to_string(),
            source: source.to_string(),
        })
        .collect();
    let lexicon = std::sync::Arc::new(crate::lexicon::Lexicon::english().clone());
    ScriptedGame::start(&Map::new("table", 6, 6), rules, lexicon, 7, scripts, None).unwrap()
}

fn peek_game() -> ScriptedGame {
    let (game, errors) = scripted_game(&[("peek.lua", PEEK)]);
    assert!(errors.is_empty(), "{errors:?}");
    game
}

/// Both seats make their secret choice: their piece placed, then ready.
fn both_choose(game: &mut ScriptedGame) {
    for p in [Player::Gold, Player::Silver] {
        game.apply(mv(p, "place")).unwrap();
        game.apply(mv(p, "ready")).unwrap();
    }
}

fn mv(player: Player, text: &str) -> Action {
    Action::Move {
        player,
        mv: text.into(),
    }
}

#[test]
fn a_seat_lists_its_moves_from_its_own_view() {
    let mut game = peek_game();
    both_choose(&mut game);
    // Gold may not see silver's 5: its moves say so.
    assert_eq!(
        game.game().legal_moves(Player::Gold).unwrap(),
        ["peek nil", "fail", "win"]
    );
    assert_eq!(
        game.game().legal_moves(Player::Silver).unwrap(),
        Vec::<String>::new()
    );
    assert_eq!(
        game.game()
            .table_for(Some(Player::Gold))
            .piece(1)
            .unwrap()
            .value,
        None
    );
    assert_eq!(game.game().table().piece(1).unwrap().value, Some(5));
    let events = game.apply(mv(Player::Gold, "peek nil")).unwrap();
    // Gold showed its own piece to silver: silver now sees the 2, gold still not the 5.
    assert_eq!(
        game.game().legal_moves(Player::Silver).unwrap(),
        ["peek 2", "fail", "win"]
    );
    let shown = events
        .iter()
        .find(|e| matches!(e, Event::PieceShown { .. }))
        .unwrap();
    assert!(matches!(
        shown.seen_by(Some(Player::Silver)),
        Event::PieceShown { value: Some(2), .. }
    ));
    // Shown to every seat, the value is public: a shared screen sees it too.
    assert!(matches!(
        shown.seen_by(None),
        Event::PieceShown { value: Some(2), .. }
    ));
}

#[test]
fn secret_choices_stay_apart_until_every_one_is_made() {
    let mut game = peek_game();
    let events = game.apply(mv(Player::Silver, "place")).unwrap();
    // Silver's placement is on silver's own copy only.
    assert_eq!(
        game.game().table().piece(1).unwrap().place,
        Place::Pit("hand".into())
    );
    assert_eq!(
        game.game()
            .table_for(Some(Player::Silver))
            .piece(1)
            .unwrap()
            .place,
        Place::Cell(crate::board::Pos::new(1, 2))
    );
    assert_eq!(
        game.game()
            .table_for(Some(Player::Gold))
            .piece(1)
            .unwrap()
            .place,
        Place::Pit("hand".into())
    );
    let seen = events[0].seen_by(Some(Player::Gold));
    assert_eq!(
        seen,
        Event::Moved {
            player: Player::Silver,
            mv: String::new(),
            secret: true
        }
    );
    game.apply(mv(Player::Silver, "ready")).unwrap();
    let refused = game.apply(mv(Player::Silver, "ready")).unwrap_err();
    assert!(
        matches!(refused, ActionError::NotYourMove { .. }),
        "{refused}"
    );
    game.apply(mv(Player::Gold, "place")).unwrap();
    let events = game.apply(mv(Player::Gold, "ready")).unwrap();
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::ChoicesRevealed { .. }))
    );
    assert_eq!(
        game.game().table().piece(1).unwrap().place,
        Place::Cell(crate::board::Pos::new(1, 2))
    );
    assert_eq!(
        game.game().table().to_move().seats().collect::<Vec<_>>(),
        [Player::Gold]
    );
}

#[test]
fn a_failing_move_or_one_not_listed_changes_nothing() {
    let mut game = peek_game();
    both_choose(&mut game);
    let before = game.save();
    let failed = game.apply(mv(Player::Gold, "fail")).unwrap_err();
    assert!(
        failed.to_string().contains("this move always fails"),
        "{failed}"
    );
    assert!(failed.to_string().contains("peek.lua:"), "{failed}");
    assert_eq!(
        game.game().table().var("phase"),
        Some(&crate::game::Var::Text("play".into()))
    );
    let not_listed = game.apply(mv(Player::Gold, "peek 5")).unwrap_err();
    assert!(
        not_listed.to_string().contains("are: peek nil, fail, win"),
        "{not_listed}"
    );
    let not_theirs = game.apply(mv(Player::Silver, "win")).unwrap_err();
    assert!(
        not_theirs.to_string().contains("gold to move"),
        "{not_theirs}"
    );
    assert_eq!(game.save().actions, before.actions);
}

#[test]
fn the_rules_end_the_game_and_saves_replay_it() {
    let mut game = peek_game();
    both_choose(&mut game);
    game.apply(mv(Player::Gold, "peek nil")).unwrap();
    let events = game.apply(mv(Player::Silver, "win")).unwrap();
    let result = game.game().result().unwrap();
    assert_eq!(result.winner, Some(Player::Silver));
    assert!(events.iter().any(|e| matches!(e, Event::GameOver { .. })));
    let lexicon = std::sync::Arc::new(crate::lexicon::Lexicon::english().clone());
    let (replayed, _) = ScriptedGame::from_save(&game.save(), lexicon).unwrap();
    assert_eq!(replayed.game().result(), game.game().result());
    assert_eq!(
        replayed.game().table().pieces(),
        game.game().table().pieces()
    );
}

#[test]
fn a_scripted_game_without_a_mode_says_so() {
    let (mut game, errors) = scripted_game(&[]);
    assert!(
        errors[0].message.contains("scryptic.game_mode"),
        "{errors:?}"
    );
    let refused = game.apply(mv(Player::Gold, "anything")).unwrap_err();
    assert!(
        refused.to_string().contains("scryptic.game_mode"),
        "{refused}"
    );
    let crossword = game.apply(Action::EndTurn).unwrap_err();
    assert!(crossword.to_string().contains("rules' own"), "{crossword}");
}

#[test]
fn every_method_of_the_table_in_the_registry_exists() {
    let names: Vec<String> = super::api::MODE_GAME
        .iter()
        .map(|f| format!("'{}'", f.name))
        .collect();
    let probe = format!(
        "scryptic.game_mode{{ setup = function(game) for _, name in ipairs({{{}}}) do \
         assert(game[name], 'game:' .. name) end game:set('probed', true) game:turn('gold') end, \
         moves = function() return {{}} end, play = function() end }}",
        names.join(", ")
    );
    let (game, errors) = scripted_game(&[("probe.lua", &probe)]);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(
        game.game().table().var("probed"),
        Some(&crate::game::Var::Bool(true))
    );
}

/// A hostile mode: listing too many moves, a move that never ends, a setup that adds pieces
/// without end. Each is stopped with a message, and the game is unchanged.
#[test]
fn a_hostile_mode_is_stopped_and_changes_nothing() {
    const HOSTILE: &str = r#"
scryptic.game_mode{
    setup = function(game)
        game:add{owner = "gold", kind = "stone", value = 1, x = 0, y = 0}
        game:turn("gold")
    end,
    moves = function(game, player)
        if game:get("flood") then
            local all = {}
            for i = 1, 20000 do all[i] = "m" .. i end
            return all
        end
        return {"loop", "flood", "pile"}
    end,
    play = function(game, player, move)
        if move == "loop" then while true do end end
        if move == "flood" then game:set("flood", true) return end
        for i = 1, 100000 do game:add{owner = "gold", kind = "stone", pit = "heap"} end
    end,
}
"#;
    let (mut game, errors) = scripted_game(&[("hostile.lua", HOSTILE)]);
    assert!(errors.is_empty(), "{errors:?}");
    let looped = game.apply(mv(Player::Gold, "loop")).unwrap_err();
    assert!(looped.to_string().contains("instruction"), "{looped}");
    let piled = game.apply(mv(Player::Gold, "pile")).unwrap_err();
    assert!(piled.to_string().contains("at most 4096 pieces"), "{piled}");
    assert_eq!(game.game().table().pieces().len(), 1);
    game.apply(mv(Player::Gold, "flood")).unwrap();
    let flooded = game.game().legal_moves(Player::Gold).unwrap_err();
    assert!(flooded.to_string().contains("at most 10000"), "{flooded}");
    assert_eq!(game.game().log().len(), 1);
}
