use super::{JsonSeed, json, percent, seed_or_fresh};
use crate::Failure;
use crate::cli::{ChallengeOddsArgs, ChallengeRollArgs, MAX_STEPS};
use dice::Probability;
use dice::challenge::{self, Band, ChallengeOdds, Column, Keep, Pool};
use serde::Serialize;
use std::fmt::Write;

#[derive(Serialize)]
struct Chance {
    p: f64,
    exact: String,
}

impl From<&Probability> for Chance {
    fn from(p: &Probability) -> Chance {
        Chance {
            p: p.to_f64(),
            exact: p.to_string(),
        }
    }
}

impl Chance {
    /// "5/9 (55.6%)", or "0" for what cannot happen, as the rules' tables write it.
    fn text(&self) -> String {
        if self.p == 0.0 {
            "0".to_owned()
        } else {
            format!("{} ({})", self.exact, percent(self.p))
        }
    }
}

#[derive(Serialize)]
struct ResultChance {
    result: u8,
    band: Band,
    #[serde(flatten)]
    chance: Chance,
}

#[derive(Serialize)]
struct BandChance {
    band: Band,
    #[serde(flatten)]
    chance: Chance,
}

#[derive(Serialize)]
struct ColumnChance {
    column: Column,
    #[serde(flatten)]
    chance: Chance,
}

#[derive(Serialize)]
struct OddsReport {
    die: String,
    steps: u32,
    dice: u32,
    keep: Keep,
    results: Vec<ResultChance>,
    bands: Vec<BandChance>,
    table: Vec<ColumnChance>,
}

fn steps_note(steps: u32) -> &'static str {
    if steps > 2 {
        " (more than two steps needs a special rule)"
    } else {
        ""
    }
}

pub fn odds(args: ChallengeOddsArgs) -> String {
    let (situation, steps) = (args.spec.die, args.spec.steps);
    debug_assert!(steps <= MAX_STEPS);
    let odds = ChallengeOdds::new(situation, steps);
    let report = OddsReport {
        die: situation.to_string(),
        steps,
        dice: odds.pool.dice,
        keep: odds.pool.keep,
        results: (1..=8u8)
            .map(|r| ResultChance {
                result: r,
                band: Band::of(r),
                chance: (&odds.results[usize::from(r) - 1]).into(),
            })
            .collect(),
        bands: Band::ALL
            .iter()
            .map(|&band| BandChance {
                band,
                chance: (&odds.band(band)).into(),
            })
            .collect(),
        table: Column::ALL
            .iter()
            .map(|&column| ColumnChance {
                column,
                chance: (&odds.column(column)).into(),
            })
            .collect(),
    };
    if args.json {
        return json(&report);
    }
    let mut out = format!(
        "{situation}, {steps} step{} of improvement: {}{}\nresult  chance           band\n",
        if steps == 1 { "" } else { "s" },
        odds.pool,
        steps_note(steps)
    );
    for r in &report.results {
        let cell = r.chance.text();
        writeln!(out, "{:>6}  {cell:<15}  {}", r.result, r.band).unwrap();
    }
    out.push_str("As in the rules' Math tables:\n");
    for c in &report.table {
        writeln!(out, "  {:<16} {}", c.column.to_string(), c.chance.text()).unwrap();
    }
    out
}

#[derive(Serialize)]
struct RollReport {
    seed: JsonSeed,
    die: String,
    steps: u32,
    faces: Vec<u8>,
    keep: Keep,
    result: u8,
    band: Band,
}

pub fn roll(args: ChallengeRollArgs) -> Result<String, Failure> {
    let (situation, steps) = (args.spec.die, args.spec.steps);
    let seed = seed_or_fresh(args.seed)?;
    let roll = challenge::roll(situation, steps, seed);
    let pool = Pool::for_steps(steps);
    if args.json {
        return Ok(json(&RollReport {
            seed: JsonSeed(seed),
            die: situation.to_string(),
            steps,
            faces: roll.faces,
            keep: pool.keep,
            result: roll.result,
            band: roll.band,
        }));
    }
    let faces: Vec<String> = roll.faces.iter().map(u8::to_string).collect();
    Ok(format!(
        "{situation}, {steps} step{} ({pool}{}), seed {seed}\nFaces: {}\nResult: {}: {}\n",
        if steps == 1 { "" } else { "s" },
        steps_note(steps),
        faces.join(" "),
        roll.result,
        roll.band,
    ))
}
