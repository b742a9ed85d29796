use super::{JsonSeed, count, json, percent, seed_or_fresh};
use crate::Failure;
use crate::cli::RollArgs;
use dice::check::{self, CheckRoll, PoolEntry};
use dice::check_odds::success_probability_f64;
use serde::Serialize;
use std::fmt::Write;

/// One die in the JSON form scripts rely on.
#[derive(Serialize)]
struct JsonDie {
    face: u8,
    hit: bool,
    exploded_from: Option<usize>,
}

#[derive(Serialize)]
struct JsonRoll {
    seed: Option<JsonSeed>,
    dice: Vec<JsonDie>,
    hits: u32,
    difficulty: Option<u32>,
    success: Option<bool>,
}

pub fn run(args: RollArgs) -> Result<String, Failure> {
    let pool = vec![PoolEntry::Die; args.dice as usize];
    let roll = match &args.faces {
        Some(faces) => check::roll_given_faces(&pool, faces)
            .map_err(|e| Failure::Usage(format!("--faces: {e}")))?,
        None => check::roll(&pool, seed_or_fresh(args.seed)?),
    };
    let success = args
        .difficulty
        .map(|d| roll.outcome(d) == check::Outcome::Success);
    if args.json {
        return Ok(json(&JsonRoll {
            seed: roll.seed.map(JsonSeed),
            dice: roll
                .dice
                .iter()
                .map(|d| JsonDie {
                    face: d.face,
                    hit: d.is_hit(),
                    exploded_from: d.exploded_from(),
                })
                .collect(),
            hits: roll.hits(),
            difficulty: args.difficulty,
            success,
        }));
    }
    Ok(text(&roll, args.dice, args.difficulty))
}

/// Die by die, wave by wave, as the rules' worked example reads.
fn text(roll: &CheckRoll, pool: u32, difficulty: Option<u32>) -> String {
    let mut out = String::new();
    let dice = count(pool, "die", "dice");
    match roll.seed {
        Some(seed) => writeln!(out, "Rolled {dice} (seed {seed})"),
        None => writeln!(out, "Rolled {dice} (faces given)"),
    }
    .unwrap();
    for (wave, range) in roll.waves().into_iter().enumerate() {
        match wave {
            0 => writeln!(out, "  the pool:"),
            n => writeln!(out, "  explosions, wave {n} (one die for each six above):"),
        }
        .unwrap();
        for i in range {
            let die = &roll.dice[i];
            let verdict = if die.is_hit() { "hit " } else { "miss" };
            let mut line = format!("    #{:<3} {}  {verdict}", i + 1, die.face);
            if let Some(from) = die.exploded_from() {
                write!(line, "  from #{}", from + 1).unwrap();
            }
            if die.explodes() {
                line.push_str("  explodes");
            }
            writeln!(out, "{}", line.trim_end()).unwrap();
        }
    }
    let faces: Vec<String> = roll
        .waves()
        .into_iter()
        .map(|r| {
            roll.dice[r]
                .iter()
                .map(|d| d.face.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    if !faces.is_empty() {
        writeln!(out, "Faces: {}", faces.join(" | ")).unwrap();
    }
    let hits = roll.hits();
    write!(out, "Hits: {hits}").unwrap();
    if let Some(d) = difficulty {
        let odds = percent(success_probability_f64(pool, d));
        let outcome = roll.outcome(d);
        write!(
            out,
            " against difficulty {d}: {outcome} (chance of success was {odds})"
        )
        .unwrap();
    }
    out.push('\n');
    if pool == 0 {
        out.push_str("An empty pool has no dice to roll: zero hits, a failure.\n");
    }
    if let Some(seed) = roll.seed {
        let d = difficulty
            .map(|d| format!(" --difficulty {d}"))
            .unwrap_or_default();
        writeln!(out, "Replay: prophecy roll {pool}{d} --seed {seed}").unwrap();
    }
    out
}
