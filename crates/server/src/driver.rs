//! A match's driver: the task that plays what nobody types, the AI seats' actions and the
//! clocks' (the grace period's end, a move's time run out, the next round), as actions in the
//! log like a person's. It sleeps until an AI is due (after the server's pace), a clock runs
//! out, the match changes, or (a test's manual clock) the clock is moved. Once its match has
//! been quiet long enough it puts it to sleep (`asleep`), and wakes it when its clock next needs
//! it; with no clock to wait for, the driver ends, and is started again when the match wakes.

use crate::asleep::Held;
use crate::clock::moved;
use crate::referee::Stepped;
use crate::{MatchCell, Server};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// Starts `cell`'s driver on the current runtime, unless one runs.
pub(crate) fn ensure(server: Arc<Server>, cell: Arc<MatchCell>) {
    if !cell.driving.swap(true, Ordering::AcqRel) {
        tokio::spawn(async move { drive(server, cell).await });
    }
}

/// What the driver sees of its match.
struct Look {
    /// Whether it is in memory.
    live: bool,
    /// Whether an AI seat is to act.
    ai_due: bool,
    /// When its earliest clock runs out (asleep: when it must be woken).
    deadline: Option<u64>,
    /// When it may go to sleep, if nobody comes and nothing happens.
    sleeps_at: Option<u64>,
}

fn look(cell: &MatchCell, sleep_after_ms: u64) -> Look {
    match &*cell.game.lock() {
        Held::Asleep(listing) => Look {
            live: false,
            ai_due: false,
            deadline: listing.wake_at_ms,
            sleeps_at: None,
        },
        Held::Live(game) => {
            let clocks = [
                game.grace_deadline_ms(),
                game.next_round_due_ms(),
                game.ai_plan_due_ms(),
                game.move_runs_out().map(|(_, at)| at),
            ];
            Look {
                live: true,
                ai_due: game.ai_due(),
                deadline: clocks.into_iter().flatten().min(),
                sleeps_at: game.sleeps_at_ms(sleep_after_ms),
            }
        }
    }
}

async fn drive(server: Arc<Server>, cell: Arc<MatchCell>) {
    // Whether the last step found nothing to play: then only a change or the clock wakes it.
    let mut idle = false;
    let clock = &server.options.clock;
    let mut clock_moves = clock.watch();
    let sleep_after = server.options.sleep_after.as_millis() as u64;
    loop {
        if let Some(moves) = &mut clock_moves {
            moves.mark_unchanged();
        }
        let seen = look(&cell, sleep_after);
        if !seen.live && seen.deadline.is_none() {
            if stop_driving(&cell) {
                return;
            }
            continue;
        }
        let due = [seen.deadline, seen.sleeps_at].into_iter().flatten().min();
        let now = clock.now_ms();
        // A manual clock moves only when told: its deadlines wait for that, not for real time.
        let until_clock = due
            .map(|at| at.saturating_sub(now))
            .filter(|left| *left == 0 || clock_moves.is_none())
            .map(Duration::from_millis);
        let wait = match (seen.ai_due && !idle, until_clock) {
            (true, Some(clock)) => Some(clock.min(server.options.ai_pace)),
            (true, None) => Some(server.options.ai_pace),
            (false, clock) => clock,
        };
        match wait {
            Some(wait) => {
                tokio::select! {
                    () = tokio::time::sleep(wait) => {}
                    () = cell.wake.notified() => { idle = false; continue; }
                    () = moved(&mut clock_moves) => { continue; }
                }
            }
            None => {
                tokio::select! {
                    () = cell.wake.notified() => { idle = false; }
                    () = moved(&mut clock_moves) => {}
                }
                continue;
            }
        }
        let now = clock.now_ms();
        if seen.sleeps_at.is_some_and(|at| now >= at) {
            let (server2, cell2) = (server.clone(), cell.clone());
            let _ = tokio::task::spawn_blocking(move || server2.put_to_sleep(&cell2)).await;
            continue;
        }
        let Ok(_thinking) = server.thinking.acquire().await else {
            return;
        };
        // Asleep, its clock has come: it is woken (and played, if anything is due).
        let (server2, cell2) = (server.clone(), cell.clone());
        let played = tokio::task::spawn_blocking(move || {
            let stepped = server2.live(&cell2)?.step_or_think(&*server2.store);
            let Stepped::Think(mut thinking) = stepped else {
                return Ok::<bool, String>(matches!(stepped, Stepped::Played(true)));
            };
            // The AI thinks with the match free: its people act meanwhile.
            let chose = thinking.think();
            Ok(server2
                .live(&cell2)?
                .thought(*thinking, chose, &*server2.store))
        })
        .await;
        match played {
            Ok(Ok(played)) => idle = !played,
            Ok(Err(why)) => {
                // Its log no longer replays (or the database failed): said once; whoever comes
                // next is told why.
                eprintln!("{why}");
                cell.driving.store(false, Ordering::Release);
                return;
            }
            Err(_) => idle = true,
        }
    }
}

/// Ends the driver, unless its match woke meanwhile: whether it ends.
fn stop_driving(cell: &MatchCell) -> bool {
    cell.driving.store(false, Ordering::Release);
    // A wake between the look and now saw this driver running and started none: it goes on.
    !cell.is_live() || cell.driving.swap(true, Ordering::AcqRel)
}
