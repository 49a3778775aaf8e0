//! What a person's eye finds on a browser's screenshot, for the browser tests that tap: the
//! board (its rows of plain cells' sand), the rack's coins (their gold) and the first button
//! under them (the theme's fill), in CSS pixels at one device pixel to one.

#![allow(
    clippy::unwrap_used,
    reason = "test helpers: a panic there is the test's failure"
)]

use crate::browser::Browser;
use scryptic::Pos;

/// The centre of the first button under the rack (its coins' row at `coins`): the coins and
/// then the rack's frame left behind, the next rows of a button's fill, and the first of them
/// across.
pub fn first_button_below(shot: &image::RgbImage, coins: f64) -> Option<Point> {
    // The theme's fill of a panel's frame and of a button that can be pressed.
    let fill = |p: &image::Rgb<u8>| {
        let [r, g, b] = p.0;
        r.abs_diff(74) < 8 && g.abs_diff(63) < 8 && b.abs_diff(51) < 8
    };
    let (w, h) = shot.dimensions();
    let run_at = |y: u32| {
        runs((0..w).filter(|&x| fill(shot.get_pixel(x, y))))
            .into_iter()
            .find(|(left, right)| right - left >= 40)
    };
    let mut y = coins as u32;
    while y < h && (0..w).any(|x| gold(shot.get_pixel(x, y))) {
        y += 1;
    }
    while y < h && run_at(y).is_some() {
        y += 1;
    }
    while y < h && run_at(y).is_none() {
        y += 1;
    }
    let top = y;
    while y + 1 < h && run_at(y + 1).is_some() {
        y += 1;
    }
    let (left, right) = run_at(top + 2)?;
    Some(Point {
        x: f64::from(left + right) / 2.0,
        y: f64::from(top + y) / 2.0,
    })
}

pub fn screen(browser: &Browser) -> image::RgbImage {
    image::load_from_memory(&browser.screenshot())
        .unwrap()
        .to_rgb8()
}

#[derive(Debug, Clone, Copy)]
pub struct Point {
    /// Across.
    pub x: f64,
    /// Down.
    pub y: f64,
}

#[derive(Debug)]
pub struct Rect {
    /// The top left corner.
    pub min: Point,
    /// The bottom right corner.
    pub max: Point,
}

impl Rect {
    pub fn cell_centre(&self, at: Pos, (w, h): (u32, u32)) -> Point {
        let (cw, ch) = (
            (self.max.x - self.min.x) / f64::from(w),
            (self.max.y - self.min.y) / f64::from(h),
        );
        Point {
            x: self.min.x + (f64::from(at.x) + 0.5) * cw,
            y: self.min.y + (f64::from(at.y) + 0.5) * ch,
        }
    }
}

/// The plain cells' sand.
pub fn sand(p: &image::Rgb<u8>) -> bool {
    let [r, g, b] = p.0;
    r > 170 && g > 110 && b < 140 && r > b.saturating_add(70)
}

/// A rack coin's gold.
pub fn gold(p: &image::Rgb<u8>) -> bool {
    let [r, g, b] = p.0;
    r > 150 && g > 110 && b < 90
}

/// The board: the rows mostly of sand, and their extent across.
pub fn board_rect(shot: &image::RgbImage) -> Rect {
    let (w, h) = shot.dimensions();
    let sandy = |y: u32| (0..w).filter(|&x| sand(shot.get_pixel(x, y))).count();
    let rows: Vec<u32> = (0..h)
        .filter(|&y| sandy(y) > (w as usize) * 3 / 4)
        .collect();
    let (top, bottom) = (rows[0], *rows.last().unwrap());
    let middle = (top + bottom) / 2;
    let columns: Vec<u32> = (0..w)
        .filter(|&x| sand(shot.get_pixel(x, middle)))
        .collect();
    let (left, right) = (columns[0], *columns.last().unwrap());
    Rect {
        min: Point {
            x: f64::from(left),
            y: f64::from(top),
        },
        max: Point {
            x: f64::from(right + 1),
            y: f64::from(bottom + 1),
        },
    }
}

/// The centres of the rack's coins below `from`, in reading order: bands of rows holding gold,
/// and in each the runs of columns holding it.
pub fn coin_centres(shot: &image::RgbImage, from: f64) -> Vec<Point> {
    let (w, h) = shot.dimensions();
    let from = from as u32 + 2;
    let row_has = |y: u32| (0..w).any(|x| gold(shot.get_pixel(x, y)));
    let mut centres = Vec::new();
    for (top, bottom) in runs((from..h).filter(|&y| row_has(y))) {
        if bottom - top < 20 {
            continue;
        }
        let column_has = |x: u32| (top..=bottom).any(|y| gold(shot.get_pixel(x, y)));
        for (left, right) in runs((0..w).filter(|&x| column_has(x))) {
            if right - left >= 20 {
                let y = f64::from(top + bottom) / 2.0;
                centres.push(Point {
                    x: f64::from(left + right) / 2.0,
                    y,
                });
            }
        }
        // The rack's coins come first below the board; what follows is not theirs.
        if centres.len() >= 7 {
            break;
        }
    }
    centres
}

/// The runs of consecutive numbers in `numbers` (ascending), as first and last.
pub fn runs(numbers: impl Iterator<Item = u32>) -> Vec<(u32, u32)> {
    let mut runs: Vec<(u32, u32)> = Vec::new();
    for n in numbers {
        match runs.last_mut() {
            Some((_, last)) if *last + 1 == n => *last = n,
            _ => runs.push((n, n)),
        }
    }
    runs
}
