//! Design problems of a map that loads: each [`Finding`] names the cells it concerns.

use super::Map;
use crate::board::{Grid, Owner, Player, Pos, STANDARD_TOKEN_KINDS, Terrain};
use crate::diag::Finding;
use crate::rules::RuleSet;
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::PathBuf;

/// What the validator needs to know beyond the map and its rules.
#[derive(Clone, Debug, Default)]
pub struct ValidationContext {
    /// Token kinds defined by scripts, beyond the four standard elementals.
    pub script_token_kinds: BTreeSet<String>,
    /// The folder the map's relative paths (scripts, tileset) start from; when set, missing
    /// files are reported.
    pub base_dir: Option<PathBuf>,
}

/// Every design problem of `map` under `rules`, errors first, then by cell.
pub fn validate(map: &Map, rules: &RuleSet, ctx: &ValidationContext) -> Vec<Finding> {
    let mut out = Vec::new();
    check_positions(map, &mut out);
    check_ids(map, &mut out);
    check_stacked(map, &mut out);
    check_cities(map, rules, &mut out);
    check_fair_symmetry(map, &mut out);
    check_tokens(map, ctx, &mut out);
    check_reachability(map, &mut out);
    check_cell_values(map, &mut out);
    check_scenario(map, rules, &mut out);
    check_files(map, ctx, &mut out);
    out.sort_by(|a, b| (a.severity, a.cells.first()).cmp(&(b.severity, b.cells.first())));
    out
}

fn check_positions(map: &Map, out: &mut Vec<Finding>) {
    let (w, h) = (map.width(), map.height());
    let mut outside = |what: String, at: Pos| {
        if !map.terrain.contains(at) {
            out.push(Finding::error(
                "out-of-bounds",
                format!(
                    "{what} is at {at}, outside the {w}x{h} map; move it to a cell from (0, 0) to ({}, {})",
                    w.saturating_sub(1),
                    h.saturating_sub(1)
                ),
                vec![at],
            ));
        }
    };
    for city in &map.cities {
        outside(format!("city `{}`", city.id), city.at);
    }
    for token in &map.tokens {
        outside(format!("token `{}`", token.id), token.at);
    }
    for &at in map.forest_density.keys() {
        outside("a forest density".to_string(), at);
    }
    for &at in map.ice_thickness.keys() {
        outside("an ice thickness".to_string(), at);
    }
    for word in &map.scenario.words {
        let cells: Vec<Pos> = word.letters().map(|(p, _)| p).collect();
        if cells.len() != word.text.chars().count()
            || cells.iter().any(|&p| !map.terrain.contains(p))
        {
            outside(
                format!("scenario word {}", word.text),
                cells.last().copied().unwrap_or(word.at),
            );
        }
    }
}

fn check_ids(map: &Map, out: &mut Vec<Finding>) {
    let mut seen: BTreeMap<&str, (&str, Pos)> = BTreeMap::new();
    for (piece, id, at) in pieces(map) {
        let what = piece.name();
        let well_formed = !id.is_empty()
            && id
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        if !well_formed {
            out.push(Finding::error(
                "bad-id",
                format!("{what} at {at} has the id {id:?}; ids are letters, digits, `_` and `-` (scripts name things by id)"),
                vec![at],
            ));
        }
        if let Some((first, first_at)) = seen.get(id) {
            out.push(Finding::error(
                "duplicate-id",
                format!("the id `{id}` is used by the {first} at {first_at} and the {what} at {at}; ids must be unique"),
                vec![*first_at, at],
            ));
        } else {
            seen.insert(id, (what, at));
        }
    }
}

fn check_cities(map: &Map, rules: &RuleSet, out: &mut Vec<Finding>) {
    // Only a first word on an own city needs one (and a scripted game places no words).
    let needs_city =
        rules.crossword.first_word == crate::rules::FirstWord::OwnCity && !rules.flow.scripted;
    for player in Player::BOTH {
        if needs_city && !map.cities.iter().any(|c| c.owner.player() == Some(player)) {
            out.push(Finding::error(
                "no-city",
                format!("{player} owns no city, so {player} cannot place a first word; add a city owned by {player}"),
                vec![],
            ));
        }
    }
    let min_len = u32::try_from(rules.placement.min_word_length).unwrap_or(u32::MAX);
    for city in &map.cities {
        let Some(&terrain) = map.terrain.get(city.at) else {
            continue;
        };
        if !terrain.is_land() {
            out.push(Finding::error(
                if terrain == Terrain::Lava {
                    "city-on-lava"
                } else {
                    "city-on-water"
                },
                format!(
                    "city `{}` stands on {terrain} at {}; no word can end there, so put it on land",
                    city.id, city.at
                ),
                vec![city.at],
            ));
        } else if city.owner != Owner::Neutral && !word_fits_through(&map.terrain, city.at, min_len)
        {
            out.push(Finding::error(
                "city-cannot-start",
                format!(
                    "no word of {min_len} letters fits through city `{}` at {} (lava or the map's edge is in the way both across and down)",
                    city.id, city.at
                ),
                vec![city.at],
            ));
        }
    }
}

/// Whether some run of `len` cells across or down through `pos` avoids lava and ends on land.
fn word_fits_through(terrain: &Grid<Terrain>, pos: Pos, len: u32) -> bool {
    let across = |k: i64| {
        u32::try_from(k)
            .ok()
            .and_then(|x| terrain.get(Pos::new(x, pos.y)).copied())
    };
    let down = |k: i64| {
        u32::try_from(k)
            .ok()
            .and_then(|y| terrain.get(Pos::new(pos.x, y)).copied())
    };
    longest_word_through(across, i64::from(pos.x)) >= i64::from(len)
        || longest_word_through(down, i64::from(pos.y)) >= i64::from(len)
}

/// The longest word along a line (`cell(k)` is the terrain at step k, `None` off the board)
/// that covers step `at`: it may not touch lava, and both its ends must be on land.
fn longest_word_through(cell: impl Fn(i64) -> Option<Terrain>, at: i64) -> i64 {
    let placeable = |k: i64| cell(k).is_some_and(|t| t != Terrain::Lava);
    let land = |k: i64| cell(k).is_some_and(Terrain::is_land);
    if !land(at) {
        return 0;
    }
    let (mut first, mut last) = (at, at);
    let mut k = at - 1;
    while placeable(k) {
        if land(k) {
            first = k;
        }
        k -= 1;
    }
    k = at + 1;
    while placeable(k) {
        if land(k) {
            last = k;
        }
        k += 1;
    }
    last - first + 1
}

fn check_tokens(map: &Map, ctx: &ValidationContext, out: &mut Vec<Finding>) {
    for token in &map.tokens {
        let known = STANDARD_TOKEN_KINDS.contains(&token.kind.as_str())
            || ctx.script_token_kinds.contains(&token.kind);
        if !known {
            let mut kinds: Vec<&str> = STANDARD_TOKEN_KINDS.to_vec();
            // The standard kinds' own scripts define them again: each kind is named once.
            for kind in &ctx.script_token_kinds {
                if !kinds.contains(&kind.as_str()) {
                    kinds.push(kind);
                }
            }
            out.push(Finding::error(
                "unknown-token-kind",
                format!(
                    "token `{}` at {} is of kind `{}`, which nothing defines; known kinds: {} (a script defines more with scryptic.token)",
                    token.id, token.at, token.kind, kinds.join(", ")
                ),
                vec![token.at],
            ));
        }
        if map.terrain.get(token.at) == Some(&Terrain::Lava) {
            out.push(Finding::warning(
                "token-on-lava",
                format!(
                    "token `{}` at {} is on lava, where no letter can capture it",
                    token.id, token.at
                ),
                vec![token.at],
            ));
        }
    }
}

/// Cities and tokens that no crossword could ever reach: crosswords grow from owned cities
/// across any cell but lava, so whatever lava walls off from every owned city is out of play.
fn check_reachability(map: &Map, out: &mut Vec<Finding>) {
    let starts: Vec<Pos> = map
        .cities
        .iter()
        .filter(|c| c.owner != Owner::Neutral)
        .map(|c| c.at)
        .filter(|&p| map.terrain.get(p).is_some_and(|&t| t != Terrain::Lava))
        .collect();
    if starts.is_empty() {
        return;
    }
    let reached = reachable_without_lava(&map.terrain, &starts);
    for (piece, id, at) in pieces(map) {
        if reached.get(at) == Some(&false) && map.terrain[at] != Terrain::Lava {
            let (code, consequence) = match piece {
                Piece::City => ("unreachable-city", "no word can ever reach it"),
                Piece::Token => ("unreachable-token", "nobody can capture it"),
            };
            out.push(Finding::warning(
                code,
                format!(
                    "{} `{id}` at {at} is walled off by lava from every owned city; {consequence}",
                    piece.name()
                ),
                vec![at],
            ));
        }
    }
}

/// The two kinds of piece a map places on cells.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Piece {
    City,
    Token,
}

impl Piece {
    fn name(self) -> &'static str {
        match self {
            Piece::City => "city",
            Piece::Token => "token",
        }
    }
}

/// Every city and token spot: what it is, its id and its cell.
fn pieces(map: &Map) -> impl Iterator<Item = (Piece, &str, Pos)> {
    let cities = map
        .cities
        .iter()
        .map(|c| (Piece::City, c.id.as_str(), c.at));
    cities.chain(
        map.tokens
            .iter()
            .map(|t| (Piece::Token, t.id.as_str(), t.at)),
    )
}

/// A cell holds one city and one token spot at most.
/// The image of a cell on a `w` x `h` map under one symmetry.
type Image = fn(Pos, u32, u32) -> Pos;

/// The symmetries a duel's terrain may have, each with how a message says it.
const HALVES: [(&str, Image); 3] = [
    ("turned a half turn", |p, w, h| {
        Pos::new(w - 1 - p.x, h - 1 - p.y)
    }),
    ("mirrored left to right", |p, w, _| {
        Pos::new(w - 1 - p.x, p.y)
    }),
    ("mirrored top to bottom", |p, _, h| {
        Pos::new(p.x, h - 1 - p.y)
    }),
];

/// A map whose terrain is symmetric claims to be fair: the image of each player's city must be
/// the other player's (and of a neutral city, a neutral one), with the same capture bonus.
fn check_fair_symmetry(map: &Map, out: &mut Vec<Finding>) {
    if !map.cities.iter().any(|c| c.owner != Owner::Neutral) {
        return;
    }
    let (w, h) = (map.width(), map.height());
    let terrain = &map.terrain;
    let Some((how, image)) = HALVES.iter().find(|(_, image)| {
        (0..h).all(|y| {
            (0..w).all(|x| terrain[Pos::new(x, y)] == terrain[image(Pos::new(x, y), w, h)])
        })
    }) else {
        return;
    };
    for city in &map.cities {
        let at = image(city.at, w, h);
        let fair = map
            .city_at(at)
            .is_some_and(|other| other.owner == city.owner.swapped());
        if let Some(other) = map.city_at(at).filter(|o| fair && o.bonus != city.bonus) {
            let bonus =
                |b: Option<i64>| b.map_or("the rule set's bonus".to_string(), |b| b.to_string());
            out.push(Finding::warning(
                "unfair-symmetry",
                format!(
                    "the terrain is {how}, but `{}` at {} is worth {} to capture and its image `{}` at {at} is worth {}: on a fair map they are worth the same",
                    city.id,
                    city.at,
                    bonus(city.bonus),
                    other.id,
                    bonus(other.bonus)
                ),
                vec![city.at, at],
            ));
        }
        if !fair {
            let found = match map.city_at(at) {
                Some(other) => format!("`{}` there is {}'s", other.id, other.owner.name()),
                None => "there is no city there".to_string(),
            };
            out.push(Finding::warning(
                "unfair-symmetry",
                format!(
                    "the terrain is {how}, but the image of {}'s city `{}` at {} is {at}, and {found}: \
                     on a fair map it is {}'s",
                    city.owner.name(),
                    city.id,
                    city.at,
                    city.owner.swapped().name()
                ),
                vec![city.at, at],
            ));
        }
    }
}

fn check_stacked(map: &Map, out: &mut Vec<Finding>) {
    let mut seen: BTreeMap<(Pos, bool), &str> = BTreeMap::new();
    for (piece, id, at) in pieces(map) {
        if let Some(other) = seen.insert((at, piece == Piece::City), id) {
            let (code, what) = match piece {
                Piece::City => ("stacked-cities", "city"),
                Piece::Token => ("stacked-tokens", "token spot"),
            };
            out.push(Finding::error(
                code,
                format!("`{other}` and `{id}` are both at {at}; a cell holds one {what}"),
                vec![at],
            ));
        }
    }
}

fn reachable_without_lava(terrain: &Grid<Terrain>, starts: &[Pos]) -> Grid<bool> {
    let mut reached = Grid::new(terrain.width(), terrain.height(), false);
    let mut queue: VecDeque<Pos> = starts.iter().copied().collect();
    for &p in starts {
        reached.set(p, true);
    }
    while let Some(p) = queue.pop_front() {
        for n in terrain.neighbours4(p) {
            if terrain[n] != Terrain::Lava && !reached[n] {
                reached.set(n, true);
                queue.push_back(n);
            }
        }
    }
    reached
}

fn check_cell_values(map: &Map, out: &mut Vec<Finding>) {
    let lists = [
        (&map.forest_density, Terrain::Forest, "forest density"),
        (&map.ice_thickness, Terrain::Ice, "ice thickness"),
    ];
    for (values, terrain, what) in lists {
        for (&at, &value) in values {
            if value < 0 {
                out.push(Finding::error(
                    "negative-value",
                    format!("the {what} at {at} is {value}; it must be 0 or more"),
                    vec![at],
                ));
            }
            if map.terrain.get(at).is_some_and(|&t| t != terrain) {
                out.push(Finding::warning(
                    "value-on-wrong-terrain",
                    format!(
                        "a {what} is set at {at}, which is {}, not {terrain}; it has no effect",
                        map.terrain[at]
                    ),
                    vec![at],
                ));
            }
        }
    }
}

/// Seats a map's scenario may name: those its rules seat.
fn check_scenario_seats(map: &Map, rules: &RuleSet, out: &mut Vec<Finding>) {
    let seats = usize::try_from(rules.seats.count).unwrap_or(2);
    let scenario = &map.scenario;
    let named = scenario
        .racks
        .keys()
        .chain(scenario.pools.keys())
        .chain(scenario.words.iter().map(|w| &w.player))
        .chain(scenario.first.iter());
    if let Some(seat) = named.copied().find(|p| p.index() >= seats) {
        out.push(Finding::error(
            "scenario-seat",
            format!("the scenario names {seat}, but the rules seat {seats} players (seats.count)"),
            vec![],
        ));
    }
}

fn check_scenario(map: &Map, rules: &RuleSet, out: &mut Vec<Finding>) {
    check_scenario_seats(map, rules, out);
    let known = |c: char| rules.letters.tiles.contains_key(&c);
    let mut letters: BTreeMap<Pos, (Player, char)> = BTreeMap::new();
    for word in &map.scenario.words {
        for (at, ch) in word.letters() {
            if !known(ch) {
                out.push(Finding::error(
                    "scenario-unknown-letter",
                    format!(
                        "scenario word {} has '{ch}', which the rule set's alphabet lacks",
                        word.text
                    ),
                    vec![at],
                ));
            }
            match map.terrain.get(at) {
                Some(Terrain::Lava) => out.push(Finding::error(
                    "scenario-on-lava",
                    format!("scenario word {} puts '{ch}' on lava at {at}", word.text),
                    vec![at],
                )),
                None => continue,
                _ => {}
            }
            if let Some(&(p, c)) = letters.get(&at)
                && (p, c) != (word.player, ch)
            {
                out.push(Finding::error(
                    "scenario-conflict",
                    format!(
                        "scenario words put both {p} '{c}' and {} '{ch}' at {at}",
                        word.player
                    ),
                    vec![at],
                ));
            }
            letters.insert(at, (word.player, ch));
        }
    }
    for (&at, &(player, _)) in &letters {
        for n in map.terrain.neighbours4(at) {
            if let Some(&(other, _)) = letters.get(&n)
                && other != player
                && at < n
            {
                out.push(Finding::error(
                    "scenario-adjacent",
                    format!("scenario letters of {player} at {at} and {other} at {n} touch; the two crosswords must never touch"),
                    vec![at, n],
                ));
            }
        }
    }
    for (kind, strings) in [("rack", &map.scenario.racks), ("pool", &map.scenario.pools)] {
        for (player, letters) in strings {
            if let Some(bad) = letters.chars().find(|&c| !known(c)) {
                out.push(Finding::error(
                    "scenario-unknown-letter",
                    format!("{player}'s scenario {kind} has '{bad}', which the rule set's alphabet lacks"),
                    vec![],
                ));
            }
        }
    }
    if let Some(bad) = map
        .scenario
        .shared_pool
        .iter()
        .flat_map(|p| p.chars())
        .find(|&c| !known(c))
    {
        out.push(Finding::error(
            "scenario-unknown-letter",
            format!("the scenario's shared pool has '{bad}', which the rule set's alphabet lacks"),
            vec![],
        ));
    }
    for (player, rack) in &map.scenario.racks {
        let n = rack.chars().count() as i64;
        if n > rules.turn.rack_limit {
            out.push(Finding::error(
                "scenario-rack-too-big",
                format!(
                    "{player}'s scenario rack has {n} letters; the rack limit is {}",
                    rules.turn.rack_limit
                ),
                vec![],
            ));
        }
    }
}

fn check_files(map: &Map, ctx: &ValidationContext, out: &mut Vec<Finding>) {
    let Some(base) = &ctx.base_dir else { return };
    // `core:tilesets/...` names another pack's file: the pack's loader resolves and checks it.
    let in_folder = |path: &str| crate::limits::split_pack_reference(path).0.is_none();
    for script in map.scripts.iter().filter(|s| in_folder(s)) {
        if !base.join(script).is_file() {
            out.push(Finding::error(
                "missing-script",
                format!("script `{script}` is not found next to the map (paths are relative to the map file)"),
                vec![],
            ));
        }
    }
    if !map.tileset.is_empty() && in_folder(&map.tileset) && !base.join(&map.tileset).is_file() {
        out.push(Finding::error(
            "missing-tileset",
            format!(
                "tileset `{}` is not found (paths are relative to the map file)",
                map.tileset
            ),
            vec![],
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The longest word along `line` (one terrain character per cell) through cell `at`.
    fn check(line: &str, at: i64, expected: i64) {
        let cells: Vec<Terrain> = line
            .chars()
            .map(|c| {
                Terrain::ALL
                    .into_iter()
                    .find(|t| t.default_char() == c)
                    .expect("a terrain character")
            })
            .collect();
        let cell = |k: i64| usize::try_from(k).ok().and_then(|i| cells.get(i).copied());
        assert_eq!(longest_word_through(cell, at), expected, "{line} at {at}");
    }

    #[test]
    fn longest_word_through_a_cell() {
        check("....", 1, 4);
        check(".~~.", 0, 4);
        check(".~~", 0, 1);
        check("~.~", 1, 1);
        check("x..x", 1, 2);
        check(".x.", 0, 1);
        check("~", 0, 0);
        check("*^f.", 3, 4);
    }
}
