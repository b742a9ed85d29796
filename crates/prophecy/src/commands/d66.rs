use super::{JsonSeed, json, seed_or_fresh};
use crate::Failure;
use crate::cli::D66Args;
use serde::Serialize;

#[derive(Serialize)]
struct Report {
    seed: JsonSeed,
    tens: u8,
    units: u8,
    value: u8,
}

pub fn run(args: D66Args) -> Result<String, Failure> {
    let seed = seed_or_fresh(args.seed)?;
    let d66 = dice::d66::roll(seed);
    if args.json {
        return Ok(json(&Report {
            seed: JsonSeed(seed),
            tens: d66.tens,
            units: d66.units,
            value: d66.value(),
        }));
    }
    Ok(format!(
        "d66 (seed {seed}): tens {}, units {}: {}\n",
        d66.tens,
        d66.units,
        d66.value()
    ))
}
