//! `prophecy outline odds|show`: read a plan file, check it, and print its odds or its drawing.

use super::{count, json, percent};
use crate::Failure;
use crate::cli::{OutlineOddsArgs, OutlineShowArgs, ShowFormat};
use serde::Serialize;
use std::fmt::Write;
use std::io::Read;
use std::path::Path;
use story::Ruleset;
use story::outline_odds::{EvenFinale, outline_odds, pairs_for_even_finale};
use story::plan::{MAX_PLAN_BYTES, OutlinePlan, PlanError};
use story::views::{self, one_line};

/// One scene in `outline odds --json`.
#[derive(Clone, Serialize)]
struct SceneJson<'a> {
    id: &'a str,
    objective: &'a str,
    parent: Option<&'a str>,
    depth: u32,
    difficulty: u32,
    pairs: u32,
    outcome: Option<&'static str>,
    p_success: f64,
    exact: String,
}

/// `outline odds --json`.
#[derive(Serialize)]
struct OddsJson<'a> {
    edition: Ruleset,
    finale: SceneJson<'a>,
    scenes: Vec<SceneJson<'a>>,
    /// `null` when the Finale has been performed.
    pairs_for_even_finale: Option<u32>,
    advice: Option<String>,
}

pub fn odds(args: OutlineOddsArgs) -> Result<String, Failure> {
    let plan = read_plan(&args.file, args.edition)?;
    let planned = plan.planned_scenes();
    // The plan was checked by the same rules, so these cannot fail; report rather than panic.
    let odds = outline_odds(plan.ruleset(), &planned).map_err(|e| usage(&args.file, &e))?;
    let even =
        pairs_for_even_finale(plan.ruleset(), &planned).map_err(|e| usage(&args.file, &e))?;

    let scenes: Vec<SceneJson<'_>> = plan
        .scenes()
        .iter()
        .zip(&odds)
        .map(|(scene, odds)| SceneJson {
            id: &scene.id,
            objective: &scene.objective,
            parent: scene.parent.map(|p| plan.scenes()[p].id.as_str()),
            depth: scene.depth,
            difficulty: scene.difficulty,
            pairs: scene.pairs,
            outcome: scene.outcome.map(outcome_word),
            p_success: odds.p_success.to_f64(),
            exact: odds.p_success.to_string(),
        })
        .collect();

    if args.json {
        return Ok(json(&OddsJson {
            edition: plan.ruleset(),
            finale: scenes[plan.finale()].clone(),
            pairs_for_even_finale: match even {
                EvenFinale::Pairs(k) => Some(k),
                EvenFinale::Performed(_) | EvenFinale::Beyond(_) => None,
            },
            advice: plan.advice(),
            scenes,
        }));
    }

    let lines = views::tree_lines(&plan.view_scenes());
    let drawn: Vec<String> = lines
        .iter()
        .map(|l| format!("{}{}", l.prefix, l.title))
        .collect();
    let width = drawn
        .iter()
        .map(|d| d.chars().count())
        .max()
        .unwrap_or(0)
        .max("scene".len());
    let mut out = format!("Outline odds under {}\n", plan.ruleset());
    writeln!(
        out,
        "{:<width$}  diff  pairs  outcome  success  exact",
        "scene"
    )
    .unwrap();
    for (line, drawing) in lines.iter().zip(&drawn) {
        let scene = &scenes[line.scene];
        let pad = width - drawing.chars().count();
        writeln!(
            out,
            "{drawing}{:pad$}  {:>4}  {:>5}  {:<7}  {:>7}  {}",
            "",
            scene.difficulty,
            scene.pairs,
            scene.outcome.unwrap_or(""),
            percent(scene.p_success),
            scene.exact
        )
        .unwrap();
    }
    let finale = &scenes[plan.finale()];
    match even {
        EvenFinale::Performed(outcome) => {
            writeln!(out, "The Finale has been performed: {outcome}.").unwrap();
        }
        EvenFinale::Pairs(k) => {
            writeln!(
                out,
                "The Finale succeeds with probability {} = {}.",
                percent(finale.p_success),
                finale.exact
            )
            .unwrap();
            writeln!(
                out,
                "{} in every scene not yet performed {} the Finale an even chance.",
                count(k, "pair", "pairs"),
                if k == 1 { "gives" } else { "give" }
            )
            .unwrap();
        }
        EvenFinale::Beyond(cap) => {
            writeln!(
                out,
                "The Finale succeeds with probability {} = {}.",
                percent(finale.p_success),
                finale.exact
            )
            .unwrap();
            writeln!(
                out,
                "Not even {} in every scene not yet performed {} the Finale an even chance.",
                count(cap, "pair", "pairs"),
                if cap == 1 { "gives" } else { "give" }
            )
            .unwrap();
        }
    }
    if let Some(advice) = plan.advice() {
        writeln!(out, "Note: {advice}.").unwrap();
    }
    Ok(out)
}

pub fn show(args: OutlineShowArgs) -> Result<String, Failure> {
    let plan = read_plan(&args.file, args.edition)?;
    let scenes = plan.view_scenes();
    Ok(match args.format {
        ShowFormat::Tree => views::tree(&scenes),
        ShowFormat::Mermaid => views::mermaid(&scenes),
    })
}

fn outcome_word(outcome: dice::check::Outcome) -> &'static str {
    match outcome {
        dice::check::Outcome::Success => "success",
        dice::check::Outcome::Failure => "failure",
    }
}

/// `FILE: problem`, on one line.
fn usage(file: &Path, problem: &impl std::fmt::Display) -> Failure {
    Failure::Usage(format!("{}: {problem}", shown(file)))
}

/// The file name as given, on one line.
fn shown(file: &Path) -> String {
    one_line(&file.display().to_string())
}

/// Reads at most [`MAX_PLAN_BYTES`] (and one more byte, to notice a larger file) and checks the
/// plan. Every failure is one line naming the file, and the line in it when there is one.
fn read_plan(file: &Path, ruleset: Ruleset) -> Result<OutlinePlan, Failure> {
    let cannot = |e: std::io::Error| {
        let why = match e.kind() {
            std::io::ErrorKind::NotFound => "no such file".to_owned(),
            std::io::ErrorKind::PermissionDenied => "permission denied".to_owned(),
            std::io::ErrorKind::IsADirectory => "a directory, not a plan file".to_owned(),
            _ => e.to_string(),
        };
        usage(file, &format!("cannot read the plan: {why}"))
    };
    let mut bytes = Vec::new();
    crate::files::open_regular(file)
        .and_then(|f| f.take(MAX_PLAN_BYTES as u64 + 1).read_to_end(&mut bytes))
        .map_err(cannot)?;
    if bytes.len() > MAX_PLAN_BYTES {
        return Err(plan_failure(file, PlanError::too_large()));
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        let valid = e.utf8_error().valid_up_to();
        let line = e.as_bytes()[..valid]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1;
        plan_failure(
            file,
            PlanError {
                line: Some(line),
                message: "not UTF-8 text; save the plan as UTF-8".into(),
            },
        )
    })?;
    OutlinePlan::from_toml(&text, ruleset).map_err(|e| plan_failure(file, e))
}

/// `FILE:LINE: problem` or `FILE: problem`.
fn plan_failure(file: &Path, error: PlanError) -> Failure {
    match error.line {
        Some(line) => Failure::Usage(format!("{}:{line}: {}", shown(file), error.message)),
        None => usage(file, &error.message),
    }
}
