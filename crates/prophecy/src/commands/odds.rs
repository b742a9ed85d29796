use super::{count, json, percent};
use crate::cli::OddsArgs;
use dice::check_odds::{dice_needed, hit_distribution, success_probability, success_table_f64};
use serde::Serialize;
use std::fmt::Write;

#[derive(Serialize)]
struct OneValue {
    dice: u32,
    difficulty: u32,
    p_success: f64,
    exact: String,
}

#[derive(Serialize)]
struct HitsRow {
    hits: u32,
    p_exactly: f64,
    exact: String,
    p_at_least: f64,
    exact_at_least: String,
}

#[derive(Serialize)]
struct Distribution {
    dice: u32,
    rows: Vec<HitsRow>,
}

#[derive(Serialize)]
struct TableRow {
    dice: u32,
    p_success: Vec<f64>,
}

#[derive(Serialize)]
struct Table {
    difficulties: Vec<u32>,
    rows: Vec<TableRow>,
}

/// How many values of the distribution `--dice N` lists: enough to see the shape.
const LISTED_HITS: u32 = 16;

pub fn run(args: OddsArgs) -> String {
    match (args.dice, args.difficulty) {
        (Some(dice), Some(difficulty)) => one_value(dice, difficulty, args.json),
        (Some(dice), None) => distribution(dice, args.json),
        (None, Some(difficulty)) => column(difficulty, args.max_dice, args.json),
        (None, None) => table(args.max_dice, args.max_difficulty, args.json),
    }
}

fn one_value(dice: u32, difficulty: u32, as_json: bool) -> String {
    let p = success_probability(dice, difficulty);
    if as_json {
        return json(&OneValue {
            dice,
            difficulty,
            p_success: p.to_f64(),
            exact: p.to_string(),
        });
    }
    let pool = count(dice, "die scores", "dice score");
    let hits = count(difficulty, "hit", "hits");
    format!(
        "P({pool} at least {hits}) = {} = {p}\n",
        percent(p.to_f64())
    )
}

fn distribution(dice: u32, as_json: bool) -> String {
    let listed = LISTED_HITS.min(dice.saturating_mul(2) + 2);
    let dist = hit_distribution(dice, listed);
    let mut at_least = dice::Probability::one();
    let rows: Vec<HitsRow> = (0..listed)
        .map(|k| {
            let exactly = &dist.exact[k as usize];
            let row = HitsRow {
                hits: k,
                p_exactly: exactly.to_f64(),
                exact: exactly.to_string(),
                p_at_least: at_least.to_f64(),
                exact_at_least: at_least.to_string(),
            };
            at_least = &at_least - exactly;
            row
        })
        .collect();
    if as_json {
        return json(&Distribution { dice, rows });
    }
    let mut out = format!(
        "Hits of {}\nhits  exactly   at least\n",
        count(dice, "exploding die", "exploding dice")
    );
    for row in &rows {
        writeln!(
            out,
            "{:>4}  {:>8}  {:>8}",
            row.hits,
            percent(row.p_exactly),
            percent(row.p_at_least)
        )
        .unwrap();
    }
    writeln!(
        out,
        "{:>3}+  {:>8}  (all higher results together)",
        listed,
        percent(dist.tail.to_f64())
    )
    .unwrap();
    out
}

fn column(difficulty: u32, max_dice: u32, as_json: bool) -> String {
    let table = success_table_f64(max_dice, difficulty);
    let rows: Vec<TableRow> = (1..=max_dice)
        .map(|n| TableRow {
            dice: n,
            p_success: vec![table[n as usize][difficulty as usize - 1]],
        })
        .collect();
    if as_json {
        return json(&Table {
            difficulties: vec![difficulty],
            rows,
        });
    }
    let mut out = format!("P(success) against difficulty {difficulty}\ndice  success\n");
    for row in &rows {
        writeln!(out, "{:>4}  {:>7}", row.dice, percent(row.p_success[0])).unwrap();
    }
    match dice_needed(difficulty, 0.5, 10 * difficulty + 10) {
        Some(n) => writeln!(
            out,
            "At least {} an even chance or better.",
            count(n, "die gives", "dice give")
        ),
        None => writeln!(
            out,
            "No pool up to {} gives an even chance.",
            count(10 * difficulty + 10, "die", "dice")
        ),
    }
    .unwrap();
    out
}

fn table(max_dice: u32, max_difficulty: u32, as_json: bool) -> String {
    let table = success_table_f64(max_dice, max_difficulty);
    let rows: Vec<TableRow> = (1..=max_dice)
        .map(|n| TableRow {
            dice: n,
            p_success: table[n as usize].clone(),
        })
        .collect();
    if as_json {
        return json(&Table {
            difficulties: (1..=max_difficulty).collect(),
            rows,
        });
    }
    let mut out = String::from("P(success) by dice in the pool and difficulty rating\ndice");
    for d in 1..=max_difficulty {
        write!(out, "  {:>7}", format!("diff {d}")).unwrap();
    }
    out.push('\n');
    for row in &rows {
        write!(out, "{:>4}", row.dice).unwrap();
        for p in &row.p_success {
            write!(out, "  {:>7}", percent(*p)).unwrap();
        }
        out.push('\n');
    }
    out
}
