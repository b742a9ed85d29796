use super::{JsonSeed, json, percent, seed_or_fresh};
use crate::Failure;
use crate::cli::{BattleOddsArgs, BattleRollArgs, BattleSpec};
use dice::opposed::{self, BattleOdds, BattleOutcome, OpposedRoll};
use serde::Serialize;

fn lives(spec: &BattleSpec) -> u32 {
    if spec.three_lives { 3 } else { 1 }
}

fn title(spec: &BattleSpec) -> String {
    format!(
        "1d6{:+} against 1d6{:+}{}",
        spec.yours,
        spec.theirs,
        if spec.three_lives {
            ", three lives"
        } else {
            ""
        }
    )
}

#[derive(Serialize)]
struct OddsReport {
    yours: i32,
    theirs: i32,
    lives: u32,
    win: f64,
    draw: f64,
    loss: f64,
    exact: BattleOdds,
}

pub fn odds(args: BattleOddsArgs) -> String {
    let s = &args.spec;
    let exact = if s.three_lives {
        opposed::three_lives_odds(s.yours, s.theirs)
    } else {
        opposed::opposed_odds(s.yours, s.theirs)
    };
    if args.json {
        return json(&OddsReport {
            yours: s.yours,
            theirs: s.theirs,
            lives: lives(s),
            win: exact.win.to_f64(),
            draw: exact.draw.to_f64(),
            loss: exact.loss.to_f64(),
            exact,
        });
    }
    format!(
        "{}\n  win   {} ({})\n  draw  {} ({})\n  loss  {} ({})\n",
        title(s),
        exact.win,
        percent(exact.win.to_f64()),
        exact.draw,
        percent(exact.draw.to_f64()),
        exact.loss,
        percent(exact.loss.to_f64()),
    )
}

/// `battle roll --json`: the rolled battle, its seed as a string.
#[derive(Serialize)]
struct RollReport<'a> {
    seed: JsonSeed,
    rolls: &'a [OpposedRoll],
    outcome: BattleOutcome,
}

pub fn roll(args: BattleRollArgs) -> Result<String, Failure> {
    let s = &args.spec;
    let seed = seed_or_fresh(args.seed)?;
    let battle = opposed::roll_battle(s.yours, s.theirs, lives(s), seed);
    if args.json {
        return Ok(json(&RollReport {
            seed: JsonSeed(battle.seed),
            rolls: &battle.rolls,
            outcome: battle.outcome,
        }));
    }
    let mut out = format!("{}, seed {seed}\n", title(s));
    for (i, r) in battle.rolls.iter().enumerate() {
        out.push_str(&format!(
            "  roll {}: you {} + {} = {}, they {} + {} = {}: {}\n",
            i + 1,
            r.your_die,
            s.yours,
            i32::from(r.your_die) + s.yours,
            r.their_die,
            s.theirs,
            i32::from(r.their_die) + s.theirs,
            r.outcome
        ));
    }
    out.push_str(&format!("Battle: {}\n", battle.outcome));
    Ok(out)
}
