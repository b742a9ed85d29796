//! A table's game step by step from its first event: each step drawn as the table looked then,
//! built by the game's own rules from the log as players may take it home (flagged text left
//! out), and seen as the asker sees the table (a watcher without what only the table knows).

use crate::game::{Extras, Game};
use crate::patch::View;
use crate::room::LogEntry;
use serde_json::{Value, json};
use store::EventRow;

/// Steps one request may ask for.
pub const MOST_STEPS: usize = 200;

/// Why a replay cannot be given: the stored log cannot be read (the details, for the server's
/// log).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unreadable(pub String);

/// The replay's answer: the log's length, whether the game is over, the steps where a phase
/// or turn begins (`marks`), and the `count` steps from event `from` (0: before the first
/// event): the first with its whole view, each after it a patch of the one before. A
/// `watcher` sees the watchers' view, and gets no steps and no marks before the game is over:
/// they would show what is still in play.
pub fn steps<G: Game>(
    rows: &[EventRow],
    creator: u32,
    watcher: bool,
    from: u64,
    count: usize,
) -> Result<Value, Unreadable> {
    let mut events = Vec::with_capacity(rows.len());
    for row in rows {
        let event =
            G::decode(&row.body).map_err(|e| Unreadable(format!("event {}: {e}", row.seq)))?;
        events.push(event);
    }
    // Text flagged at any time stays out of every step, as from the game file.
    let events = G::replayed(events);
    let total = events.len() as u64;
    let last = from
        .saturating_add(count.min(MOST_STEPS) as u64)
        .min(total + 1);
    let mut state = G::State::default();
    let mut stage = G::stage(&state);
    let mut marks: Vec<Value> = (stage.iter())
        .map(|label| json!({ "seq": 0, "label": label }))
        .collect();
    let mut steps = Vec::new();
    let mut shown: Option<G::View> = None;
    for seq in 0..=total {
        let mut line = Value::Null;
        if seq > 0 {
            let (row, event) = (&rows[seq as usize - 1], &events[seq as usize - 1]);
            if !(watcher && G::Extras::kept_from_watchers(event)) {
                line = log_line::<G>(&state, event, row);
            }
            state = G::evolve(std::mem::take(&mut state), event);
            let now = G::stage(&state);
            if now != stage {
                if let Some(label) = &now {
                    marks.push(json!({ "seq": seq, "label": label }));
                }
                stage = now;
            }
        }
        if (from..last).contains(&seq) {
            let view = G::view(&state, creator);
            let view = match watcher.then(|| G::watched(&view)).flatten() {
                Some(watched) => watched,
                None => view,
            };
            steps.push(step(seq, line, shown.as_ref(), &view));
            shown = Some(view);
        }
    }
    let over = G::over(&state);
    if watcher && !over {
        (marks, steps) = (Vec::new(), Vec::new());
    }
    Ok(json!({
        "total": total,
        "over": over,
        "marks": marks,
        "steps": steps,
    }))
}

/// The log line of `event`, from the state before it, as the table's log has it: anonymous
/// where the table's is.
fn log_line<G: Game>(before: &G::State, event: &G::Event, row: &EventRow) -> Value {
    let entry = LogEntry {
        seq: row.seq,
        at: row.at,
        by: row.player.filter(|_| !G::Extras::anonymous(event)),
        text: G::describe(before, event),
        parts: G::Extras::describe_parts(before, event),
        secret: false,
    };
    serde_json::to_value(&entry).unwrap_or(Value::Null)
}

/// One step: its log line, and its view whole or as a patch of the step before's.
fn step<V: View>(seq: u64, log: Value, before: Option<&V>, view: &V) -> Value {
    match before {
        Some(before) => {
            let mut patch = Vec::new();
            before.diff(view, &mut String::new(), &mut patch);
            json!({ "seq": seq, "log": log, "patch": patch })
        }
        None => json!({ "seq": seq, "log": log, "view": view }),
    }
}
