//! Own regions for simultaneous play (LC-3): a map walled by lava into at least as many
//! regions as there are players gives each player one, in reading order of the regions' first
//! cells (the top-left region is gold's, the next silver's...). On a map with fewer, players
//! build anywhere, each crossword apart from the others.

use crate::board::{Grid, Player, Pos, Terrain};
use std::collections::VecDeque;

/// The regions of a board: each cell's region, lava in none.
#[derive(Clone, Debug)]
pub(super) struct Regions {
    of_cell: Grid<Option<u16>>,
    /// Each region's cells' bounding box: top-left and bottom-right.
    bounds: Vec<(Pos, Pos)>,
}

impl Regions {
    /// The regions `terrain` is walled into.
    pub(super) fn of(terrain: &Grid<Terrain>) -> Regions {
        let mut of_cell = Grid::new(terrain.width(), terrain.height(), None);
        let mut bounds = Vec::new();
        for start in terrain.positions() {
            let open = terrain.get(start).is_some_and(|&t| t != Terrain::Lava);
            if !open || of_cell[start].is_some() {
                continue;
            }
            let Ok(id) = u16::try_from(bounds.len()) else {
                break;
            };
            bounds.push(fill(terrain, &mut of_cell, start, id));
        }
        Regions { of_cell, bounds }
    }

    /// The region `player` builds in, when there is one for every seat of `seats`.
    pub(super) fn of_player(&self, player: Player, seats: usize) -> Option<u16> {
        if self.bounds.len() < seats {
            return None;
        }
        u16::try_from(player.index()).ok()
    }

    /// The region of `at` (none on lava or off the board).
    pub(super) fn at(&self, at: Pos) -> Option<u16> {
        self.of_cell.get(at).copied().flatten()
    }

    /// A region's bounding box: its top-left and bottom-right cells.
    pub(super) fn bounds(&self, region: u16) -> Option<(Pos, Pos)> {
        self.bounds.get(usize::from(region)).copied()
    }
}

/// Marks the region of `start` as `id`, returning its bounding box.
fn fill(
    terrain: &Grid<Terrain>,
    of_cell: &mut Grid<Option<u16>>,
    start: Pos,
    id: u16,
) -> (Pos, Pos) {
    let (mut low, mut high) = (start, start);
    let mut queue = VecDeque::from([start]);
    of_cell.set(start, Some(id));
    while let Some(at) = queue.pop_front() {
        low = Pos::new(low.x.min(at.x), low.y.min(at.y));
        high = Pos::new(high.x.max(at.x), high.y.max(at.y));
        for next in terrain.neighbours4(at) {
            let open = terrain.get(next).is_some_and(|&t| t != Terrain::Lava);
            if open && of_cell[next].is_none() {
                of_cell.set(next, Some(id));
                queue.push_back(next);
            }
        }
    }
    (low, high)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lava_walls_make_regions_in_reading_order() {
        let rows = ["..x..", "..x..", "xxxxx", "....."];
        let mut terrain = Grid::new(5, 4, Terrain::Plains);
        for (y, row) in rows.iter().enumerate() {
            for (x, c) in row.chars().enumerate() {
                if c == 'x' {
                    terrain.set(Pos::new(x as u32, y as u32), Terrain::Lava);
                }
            }
        }
        let regions = Regions::of(&terrain);
        assert_eq!(regions.at(Pos::new(0, 0)), Some(0));
        assert_eq!(regions.at(Pos::new(4, 1)), Some(1));
        assert_eq!(regions.at(Pos::new(2, 0)), None);
        assert_eq!(regions.bounds(2), Some((Pos::new(0, 3), Pos::new(4, 3))));
        assert_eq!(regions.of_player(Player::seat(2).unwrap(), 3), Some(2));
        assert_eq!(
            regions.of_player(Player::Gold, 4),
            None,
            "too few: anywhere"
        );
    }
}
