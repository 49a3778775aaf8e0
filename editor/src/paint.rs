//! The cells a painting tool covers: brushes, lines, rectangles, flood fills, scatter and
//! symmetry. Pure functions of cells; nothing here knows the screen.

use scryptic::{Grid, Pos, Terrain};
use std::collections::VecDeque;

/// The shape of the brush.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BrushShape {
    /// A square of side `size`.
    #[default]
    Square,
    /// A disc of diameter `size`.
    Round,
}

/// How a stroke is mirrored so that both sides of a duel map get the same ground.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Symmetry {
    /// Paint only where the tool is.
    #[default]
    None,
    /// Mirror left to right.
    MirrorX,
    /// Mirror top to bottom.
    MirrorY,
    /// Mirror both ways (four copies).
    MirrorBoth,
    /// Turn half a turn about the centre (point symmetry).
    Rotate180,
    /// Turn quarter turns about the centre (square maps only; four copies).
    Rotate90,
}

impl Symmetry {
    /// Every kind, in menu order.
    pub const ALL: [Symmetry; 6] = [
        Symmetry::None,
        Symmetry::MirrorX,
        Symmetry::MirrorY,
        Symmetry::MirrorBoth,
        Symmetry::Rotate180,
        Symmetry::Rotate90,
    ];

    /// The name shown in the tool panel.
    pub fn label(self) -> &'static str {
        match self {
            Symmetry::None => "none",
            Symmetry::MirrorX => "mirror left-right",
            Symmetry::MirrorY => "mirror top-bottom",
            Symmetry::MirrorBoth => "mirror both",
            Symmetry::Rotate180 => "rotate 180",
            Symmetry::Rotate90 => "rotate 90 (square)",
        }
    }
}

/// The cells a brush of `size` (1-9) and `shape` centred on `at` covers, clipped to the map.
pub fn brush(at: Pos, size: u32, shape: BrushShape, width: u32, height: u32) -> Vec<Pos> {
    let size = size.clamp(1, 9) as i64;
    let low = -(size - 1) / 2;
    let high = size / 2;
    let centre = (low + high) as f64 / 2.0;
    let radius = size as f64 / 2.0;
    let mut out = Vec::new();
    for dy in low..=high {
        for dx in low..=high {
            if shape == BrushShape::Round {
                let (fx, fy) = (dx as f64 - centre, dy as f64 - centre);
                if fx * fx + fy * fy > radius * radius {
                    continue;
                }
            }
            if let Some(p) = offset(at, dx, dy, width, height) {
                out.push(p);
            }
        }
    }
    out
}

fn offset(at: Pos, dx: i64, dy: i64, width: u32, height: u32) -> Option<Pos> {
    let x = i64::from(at.x) + dx;
    let y = i64::from(at.y) + dy;
    (x >= 0 && y >= 0 && x < i64::from(width) && y < i64::from(height))
        .then(|| Pos::new(x as u32, y as u32))
}

/// The cells of a straight line from `a` to `b` (Bresenham's), both ends included.
pub fn line(a: Pos, b: Pos) -> Vec<Pos> {
    let (mut x, mut y) = (i64::from(a.x), i64::from(a.y));
    let (x1, y1) = (i64::from(b.x), i64::from(b.y));
    let (dx, dy) = ((x1 - x).abs(), -(y1 - y).abs());
    let (sx, sy) = (if x < x1 { 1 } else { -1 }, if y < y1 { 1 } else { -1 });
    let mut err = dx + dy;
    let mut out = Vec::new();
    loop {
        out.push(Pos::new(x as u32, y as u32));
        if x == x1 && y == y1 {
            return out;
        }
        let e2 = 2 * err;
        if e2 >= dy {
            err += dy;
            x += sx;
        }
        if e2 <= dx {
            err += dx;
            y += sy;
        }
    }
}

/// The cells of the rectangle with corners `a` and `b`, filled or only its outline.
pub fn rectangle(a: Pos, b: Pos, filled: bool) -> Vec<Pos> {
    let (x0, x1) = (a.x.min(b.x), a.x.max(b.x));
    let (y0, y1) = (a.y.min(b.y), a.y.max(b.y));
    let mut out = Vec::new();
    for y in y0..=y1 {
        for x in x0..=x1 {
            if filled || x == x0 || x == x1 || y == y0 || y == y1 {
                out.push(Pos::new(x, y));
            }
        }
    }
    out
}

/// The cells a bucket fill from `start` changes: the 4-connected region of `start`'s terrain.
pub fn flood(terrain: &Grid<Terrain>, start: Pos) -> Vec<Pos> {
    let Some(&target) = terrain.get(start) else {
        return Vec::new();
    };
    let (w, h) = (terrain.width() as usize, terrain.height() as usize);
    let cells = terrain.cells();
    let mut seen = vec![false; w * h];
    let mut queue = VecDeque::from([start.y as usize * w + start.x as usize]);
    seen[queue[0]] = true;
    let mut out = Vec::new();
    while let Some(i) = queue.pop_front() {
        out.push(Pos::new((i % w) as u32, (i / w) as u32));
        let (x, y) = (i % w, i / w);
        let mut visit = |j: usize| {
            if !seen[j] && cells[j] == target {
                seen[j] = true;
                queue.push_back(j);
            }
        };
        if x > 0 {
            visit(i - 1);
        }
        if x + 1 < w {
            visit(i + 1);
        }
        if y > 0 {
            visit(i - w);
        }
        if y + 1 < h {
            visit(i + w);
        }
    }
    out
}

/// A deterministic share (`percent` of 100) of `cells`, picked by a hash of each cell and
/// `seed`: the same stroke scatters the same way.
pub fn scatter(cells: &[Pos], percent: u32, seed: u64) -> Vec<Pos> {
    cells
        .iter()
        .copied()
        .filter(|p| cell_hash(*p, seed) % 100 < u64::from(percent))
        .collect()
}

fn cell_hash(p: Pos, seed: u64) -> u64 {
    // SplitMix64 of the cell and the seed: cheap and well spread.
    let mut z = seed ^ (u64::from(p.x) << 32 | u64::from(p.y));
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// `at` and its copies under `symmetry` on a `width` x `height` map, without repeats.
pub fn mirrored(at: Pos, symmetry: Symmetry, width: u32, height: u32) -> Vec<Pos> {
    let mut out: Vec<Pos> = images(at, symmetry, width, height)
        .into_iter()
        .map(|(p, _)| p)
        .collect();
    out.sort();
    out.dedup();
    out
}

/// `at` and its images under `symmetry`, each with whether it belongs to the other side: on a
/// map fair to both players the image of a player's city is the other player's. An image one
/// mirror or a quarter turn away is the other side's; two mirrors or a half turn away, it is
/// the other side's when there are only two images (a duel's halves), and the same side's among
/// four (each player holds two opposite corners). Repeats keep their first side.
pub fn images(at: Pos, symmetry: Symmetry, width: u32, height: u32) -> Vec<(Pos, bool)> {
    let (mx, my) = (width - 1 - at.x, height - 1 - at.y);
    let mut out = vec![(at, false)];
    match symmetry {
        Symmetry::None => {}
        Symmetry::MirrorX => out.push((Pos::new(mx, at.y), true)),
        Symmetry::MirrorY => out.push((Pos::new(at.x, my), true)),
        Symmetry::MirrorBoth => out.extend([
            (Pos::new(mx, at.y), true),
            (Pos::new(at.x, my), true),
            (Pos::new(mx, my), false),
        ]),
        Symmetry::Rotate180 => out.push((Pos::new(mx, my), true)),
        Symmetry::Rotate90 if width == height => out.extend([
            (Pos::new(my, at.x), true),
            (Pos::new(mx, my), false),
            (Pos::new(at.y, mx), true),
        ]),
        Symmetry::Rotate90 => out.push((Pos::new(mx, my), true)),
    }
    let mut seen = Vec::new();
    out.retain(|(p, _)| {
        let first = !seen.contains(p);
        seen.push(*p);
        first
    });
    out
}

/// Every cell of `cells` with its copies under `symmetry`, without repeats.
pub fn with_symmetry(cells: &[Pos], symmetry: Symmetry, width: u32, height: u32) -> Vec<Pos> {
    if symmetry == Symmetry::None {
        return cells.to_vec();
    }
    let mut out: Vec<Pos> = cells
        .iter()
        .flat_map(|&p| mirrored(p, symmetry, width, height))
        .collect();
    out.sort();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(cells: Vec<Pos>, expected: &[(u32, u32)]) {
        let mut got: Vec<(u32, u32)> = cells.iter().map(|p| (p.x, p.y)).collect();
        got.sort();
        let mut want = expected.to_vec();
        want.sort();
        assert_eq!(got, want);
    }

    #[test]
    fn brushes_cover_their_size_and_clip_at_edges() {
        check(
            brush(Pos::new(5, 5), 1, BrushShape::Square, 10, 10),
            &[(5, 5)],
        );
        assert_eq!(
            brush(Pos::new(5, 5), 3, BrushShape::Square, 10, 10).len(),
            9
        );
        assert_eq!(
            brush(Pos::new(5, 5), 9, BrushShape::Square, 20, 20).len(),
            81
        );
        check(
            brush(Pos::new(0, 0), 3, BrushShape::Square, 10, 10),
            &[(0, 0), (1, 0), (0, 1), (1, 1)],
        );
        let round = brush(Pos::new(5, 5), 5, BrushShape::Round, 20, 20).len();
        assert!(round < 25 && round > 9, "a round brush of 5 covers {round}");
    }

    #[test]
    fn lines_rectangles_and_fills() {
        check(
            line(Pos::new(0, 0), Pos::new(3, 0)),
            &[(0, 0), (1, 0), (2, 0), (3, 0)],
        );
        check(
            line(Pos::new(2, 2), Pos::new(0, 0)),
            &[(2, 2), (1, 1), (0, 0)],
        );
        assert_eq!(rectangle(Pos::new(3, 3), Pos::new(0, 0), true).len(), 16);
        assert_eq!(rectangle(Pos::new(0, 0), Pos::new(3, 3), false).len(), 12);
        let mut grid = Grid::new(4, 4, Terrain::Plains);
        for y in 0..4 {
            grid.set(Pos::new(2, y), Terrain::Water);
        }
        assert_eq!(flood(&grid, Pos::new(0, 0)).len(), 8);
        assert_eq!(flood(&grid, Pos::new(2, 1)).len(), 4);
    }

    #[test]
    fn a_city_s_images_belong_to_the_other_side_as_fairness_asks() {
        let other = |symmetry, w, h| -> Vec<bool> {
            images(Pos::new(1, 2), symmetry, w, h)
                .into_iter()
                .map(|(_, swapped)| swapped)
                .collect()
        };
        assert_eq!(other(Symmetry::MirrorX, 10, 8), [false, true]);
        assert_eq!(other(Symmetry::Rotate180, 10, 8), [false, true]);
        assert_eq!(
            other(Symmetry::MirrorBoth, 10, 8),
            [false, true, true, false]
        );
        assert_eq!(
            other(Symmetry::Rotate90, 10, 10),
            [false, true, false, true]
        );
        // On the axis a city is its own image, and keeps its side.
        assert_eq!(
            images(Pos::new(2, 3), Symmetry::MirrorY, 8, 7),
            [(Pos::new(2, 3), false)]
        );
    }

    #[test]
    fn symmetry_copies_cells() {
        check(
            mirrored(Pos::new(1, 2), Symmetry::MirrorX, 10, 8),
            &[(1, 2), (8, 2)],
        );
        check(
            mirrored(Pos::new(1, 2), Symmetry::Rotate180, 10, 8),
            &[(1, 2), (8, 5)],
        );
        assert_eq!(
            mirrored(Pos::new(1, 2), Symmetry::Rotate90, 10, 10).len(),
            4
        );
        assert_eq!(
            mirrored(Pos::new(1, 2), Symmetry::MirrorBoth, 10, 10).len(),
            4
        );
    }

    #[test]
    fn scatter_is_a_stable_share() {
        let cells = rectangle(Pos::new(0, 0), Pos::new(99, 99), true);
        let some = scatter(&cells, 30, 7);
        assert_eq!(some, scatter(&cells, 30, 7));
        assert!((2500..3500).contains(&some.len()), "{}", some.len());
        assert!(scatter(&cells, 0, 7).is_empty());
    }
}
