//! A match's driver: the task that plays what nobody types, the AI seats' actions and the
//! clock's (the grace period's end), as actions in the log like a person's. It sleeps until
//! an AI is due (after the server's pace), the clock runs out, or the match changes.

use crate::referee::now_ms;
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
    loop {
        let (ai_due, deadline, state) = {
            let game = cell.lock();
            let clock = [
                game.grace_deadline_ms(),
                game.next_round_due_ms(),
                game.ai_plan_due_ms(),
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
        let until_clock = deadline.map(|at| Duration::from_millis(at.saturating_sub(now_ms())));
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
                }
            }
            None => {
                cell.wake.notified().await;
                idle = false;
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
