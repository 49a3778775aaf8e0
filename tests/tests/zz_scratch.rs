#![allow(clippy::unwrap_used)]
use scryptic::Map;
use scryptic::ai::{AiPlayer, Level};
use scryptic::game::{Action, Event, Game};
use scryptic::lexicon::Lexicon;
use std::sync::Arc;

#[test]
fn scratch() {
    let map = Map::load(std::path::Path::new("../maps/tutorial.ron")).unwrap();
    for seed in 1..8u64 {
        let rules = map.rule_set().unwrap();
        let mut game = Game::new(&map, rules, Arc::new(Lexicon::english()), seed);
        let mut ais = [
            AiPlayer::new(Level::Hard, seed),
            AiPlayer::new(Level::Hard, seed + 1),
        ];
        let mut kinds = std::collections::BTreeMap::new();
        let mut first = None;
        for n in 0..400 {
            if game.result().is_some() {
                break;
            }
            let p = game.to_act();
            let a = ais[p.index()].choose(&game);
            let k = format!("{:?}", a)
                .split(|c: char| !c.is_alphanumeric())
                .next()
                .unwrap()
                .to_string();
            *kinds.entry(k).or_insert(0) += 1;
            let ev = game.apply(a).unwrap();
            if first.is_none() && ev.iter().any(|e| matches!(e, Event::CombatStarted { .. })) {
                first = Some((n, game.turn()));
            }
        }
        println!("seed {seed}: first combat {first:?} kinds {kinds:?}");
    }
}
