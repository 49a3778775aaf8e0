//! A match's driver: the task that plays what nobody types, the AI seats' actions and the
//! clocks' (the grace period's end, a move's time run out, the next round), as actions in the
//! log like a person's. It sleeps until an AI is due (after the server's pace), a clock runs
//! out, the match changes, or (a test's manual clock) the clock is moved.

use crate::clock::moved;
use crate::{MatchCell, Server};
use scryptic_protocol::MatchState;
use std::sync::Arc;
use std::time::Duration;

/// Starts `cell`'s driver on the current runtime.
pub(crate) fn spawn(server: Arc<Server>, cell: Arc<MatchCell>) {
    tokio::spawn(async move { drive(server, cell).await });
}

async fn drive(server: Arc<Server>, cell: Arc<MatchCell>) {
    // Whether the last step found nothing to play: then only a change or the clock wakes it.
    let mut idle = false;
    let mut clock_moves = server.options.clock.watch();
    loop {
        if let Some(moves) = &mut clock_moves {
            moves.mark_unchanged();
        }
        let (ai_due, deadline, state) = {
            let game = cell.lock();
            let clock = [
                game.grace_deadline_ms(),
                game.next_round_due_ms(),
                game.ai_plan_due_ms(),
                game.move_runs_out().map(|(_, at)| at),
            ];
            (
                game.ai_due(),
                clock.into_iter().flatten().min(),
                game.state(),
            )
        };
        if state == MatchState::Over {
            return;
        }
        let now = server.options.clock.now_ms();
        // A manual clock moves only when told: its deadlines wait for that, not for real time.
        let until_clock = deadline
            .map(|at| at.saturating_sub(now))
            .filter(|left| *left == 0 || clock_moves.is_none())
            .map(Duration::from_millis);
        let wait = match (ai_due && !idle, until_clock) {
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
        let Ok(_thinking) = server.thinking.acquire().await else {
            return;
        };
        let (server2, cell2) = (server.clone(), cell.clone());
        let played = tokio::task::spawn_blocking(move || cell2.lock().step(&*server2.store))
            .await
            .unwrap_or(false);
        idle = !played;
    }
}
