//! The d4/d6/d8 Challenge rules at the web table: requests from the page become engine commands
//! (the server supplies the dice's seed), events become log lines, and the state becomes the
//! view every page shares, with the exact chance of each band for every improvement a player
//! may choose on an open challenge (see PROTOCOL.md, "The Challenge rules").

use crate::game::{Context, Extras, Game, Link, Rejection, Sharing};
use challenge::command::{Action, Choice, Command};
use challenge::ids::{CharacterId, PlayerId};
use challenge::sheet::{Aptitude, Skill, Specialty};
use challenge::state::{Challenge, ChallengeStatus, Character};
use challenge::{Event, Refusal, State};
use dice::challenge::{Keep, Pool};
use serde_json::{Value, json};

/// The Challenge rules, with a game master.
pub struct ChallengeGame;

fn from_refusal(refusal: Refusal) -> Rejection {
    Rejection::Refused {
        code: refusal.code().to_owned(),
        rule: refusal.rule().to_owned(),
        message: refusal.to_string(),
    }
}

fn decide(state: &State, player: u32, action: Action) -> Result<Vec<Event>, Rejection> {
    challenge::decide(state, Command::new(PlayerId(player), action)).map_err(from_refusal)
}

/// The page's action as an engine action: the dice's seed is the server's; joining is the
/// table's business.
fn engine_action(action: &Value, context: &Context) -> Result<Action, Rejection> {
    let Some(object) = action.as_object() else {
        return Err(Rejection::Malformed("an action is a JSON object".into()));
    };
    if object.get("action").and_then(Value::as_str) == Some("join") {
        return Err(Rejection::Malformed(
            "seats are taken with the invitation link".into(),
        ));
    }
    let mut object = object.clone();
    if object.get("action").and_then(Value::as_str) == Some("roll") {
        object.insert("seed".into(), json!(context.seed));
    }
    crate::game::read_action(Value::Object(object))
}

/// The Challenge rules' addition to the common table: the game master publishes.
pub struct ChallengeExtras;

impl Extras<State, Event> for ChallengeExtras {
    /// The game master publishes the story; anyone withdraws it.
    fn share(state: &State, link: Link, player: u32, _creator: u32, open: bool) -> Sharing {
        if open && !state.is_gm(PlayerId(player)) {
            Sharing::Forbidden(
                match link {
                    Link::Story => "Only the game master can publish the story.",
                    Link::Watch => "Only the game master can open a watch link.",
                }
                .into(),
            )
        } else {
            Sharing::Now
        }
    }
}

impl Game for ChallengeGame {
    const KIND: &'static str = "challenge";
    const NAME: &'static str = "The Challenge rules";
    const PAGE: &'static str = "challenge/table.html";
    type State = State;
    type Event = Event;
    type View = Value;
    type Extras = ChallengeExtras;

    fn open(_settings: &Value) -> Result<Vec<Event>, Rejection> {
        // The creator becomes the game master by joining first.
        Ok(Vec::new())
    }

    fn join(state: &State, player: u32, name: &str) -> Result<Vec<Event>, Rejection> {
        decide(
            state,
            player,
            Action::Join {
                name: name.trim().to_owned(),
            },
        )
    }

    fn remove(state: &State, player: u32) -> Result<Vec<Event>, Rejection> {
        // The rules' creator is the table's: both are the first to join.
        let creator = state.creator().map_or(0, |p| p.0);
        decide(
            state,
            creator,
            Action::RemovePlayer {
                player: PlayerId(player),
            },
        )
    }

    fn act(
        state: &State,
        player: u32,
        action: &Value,
        context: &Context,
    ) -> Result<Vec<Event>, Rejection> {
        decide(state, player, engine_action(action, context)?)
    }

    fn evolve(state: State, event: &Event) -> State {
        challenge::evolve(state, event)
    }

    fn encode(event: &Event) -> String {
        serde_json::to_string(event).unwrap_or_default()
    }

    fn decode(body: &str) -> Result<Event, String> {
        serde_json::from_str(body).map_err(|e| e.to_string())
    }

    fn describe(before: &State, event: &Event) -> String {
        describe(before, event)
    }

    fn view(state: &State, creator: u32) -> Value {
        view(state, creator)
    }

    fn markdown(state: &State) -> (String, String) {
        markdown(state)
    }

    fn for_players(log: Vec<Event>) -> Vec<Event> {
        // Nothing at this table is secret.
        log
    }

    fn title(_state: &State, _creator: u32, created_at: i64) -> String {
        crate::game::dated("Challenge session", created_at)
    }

    fn stage(state: &State) -> Option<String> {
        match state.challenges.len() {
            0 => None,
            n => Some(format!("Challenge {n}")),
        }
    }

    fn progress(state: &State) -> String {
        let gm = state
            .gm
            .map_or_else(|| "no game master".to_owned(), |gm| player_name(state, gm));
        let rolled = state
            .challenges
            .iter()
            .filter(|c| matches!(c.status, ChallengeStatus::Rolled(_)))
            .count();
        let open = state
            .challenges
            .iter()
            .any(|c| c.status == ChallengeStatus::Open);
        let challenges = match rolled {
            1 => "1 challenge rolled".to_owned(),
            n => format!("{n} challenges rolled"),
        };
        let open = if open {
            ", one waiting for its roll"
        } else {
            ""
        };
        format!("Game master: {gm}; {challenges}{open}")
    }
}

// ---------------------------------------------------------------------------------------------
// Words
// ---------------------------------------------------------------------------------------------

fn player_name(state: &State, player: PlayerId) -> String {
    state
        .player(player)
        .map_or_else(|| format!("Player {}", player.0), |p| p.name.clone())
}

fn character_name(state: &State, character: CharacterId) -> String {
    state.character(character).map_or_else(
        || format!("character {}", character.0),
        |c| c.sheet.name.clone(),
    )
}

fn situation_words(situation: dice::challenge::Situation) -> String {
    let name = match situation.sides() {
        4 => "difficult",
        6 => "average",
        _ => "favourable",
    };
    format!("{name} (d{})", situation.sides())
}

fn pool_words(pool: Pool, sides: u8) -> String {
    match (pool.dice, pool.keep) {
        (1, _) => format!("one d{sides}"),
        (n, Keep::Lowest) => format!("{n}d{sides}, keep the lowest"),
        (n, _) => format!("{n}d{sides}, keep the highest"),
    }
}

/// "Physicality, Skill Might": the aptitude, then the Skills that apply, each by its name
/// alone when it belongs to that aptitude.
fn aptitude_and_skills(aptitude: Aptitude, skills: &[Skill]) -> String {
    if skills.is_empty() {
        return format!("{aptitude}, no Skill");
    }
    let names: Vec<String> = (skills.iter())
        .map(|s| {
            if s.aptitude() == aptitude {
                s.name().to_owned()
            } else {
                s.to_string()
            }
        })
        .collect();
    let word = if skills.len() == 1 { "Skill" } else { "Skills" };
    format!("{aptitude}, {word} {}", names.join(" or "))
}

/// A band's label inside a sentence ("a failure, with a further consequence").
fn label_words(label: &str) -> String {
    let mut chars = label.chars();
    chars
        .next()
        .map(|c| c.to_lowercase().chain(chars).collect())
        .unwrap_or_default()
}

/// What a fight cost, as a clause after the fight: "at no cost", "at a cost: …".
fn cost_words(cost: &str) -> String {
    let cost = cost.trim().trim_end_matches('.');
    if cost.is_empty() {
        "at no cost".to_owned()
    } else {
        format!("at a cost: {cost}")
    }
}

fn points_words(points: &challenge::sheet::AptitudePoints) -> String {
    let parts: Vec<String> = Aptitude::ALL
        .iter()
        .filter(|a| points.get(**a) > 0)
        .map(|a| format!("{} {a}", points.get(*a)))
        .collect();
    parts.join(", ")
}

/// One line for the log, from the state before the event.
fn describe(before: &State, event: &Event) -> String {
    let name = |p: PlayerId| player_name(before, p);
    match event {
        Event::Joined { player, name, gm } => {
            let _ = player;
            if *gm {
                format!("{name} sits down as the game master.")
            } else {
                format!("{name} sits down at the table.")
            }
        }
        Event::SheetCreated {
            owner, by, sheet, ..
        } => {
            if owner == by {
                format!("{} makes a character: {}.", name(*by), sheet.name)
            } else {
                format!(
                    "{} makes a character for {}: {}.",
                    name(*by),
                    name(*owner),
                    sheet.name
                )
            }
        }
        Event::SheetEdited { character, by, .. } => format!(
            "{} edits the sheet of {}.",
            name(*by),
            character_name(before, *character)
        ),
        Event::SheetRetired { character, by } => format!(
            "{} retires {}.",
            name(*by),
            character_name(before, *character)
        ),
        Event::ChallengeCalled { .. } => called_words(before, event),
        Event::ChallengeCancelled { challenge, by } => format!(
            "{} cancels the challenge of {}.",
            name(*by),
            before
                .challenges
                .get(challenge.index())
                .map_or_else(String::new, |c| character_name(before, c.character))
        ),
        Event::ChallengeRolled { .. } => rolled_words(before, event),
        Event::PointSpent {
            character,
            aptitude,
            reason,
            ..
        } => format!(
            "{} spends a point of {aptitude}: {reason}.",
            character_name(before, *character)
        ),
        Event::Rested { regained } => rest_words(before, regained),
        Event::FightRecorded {
            by,
            description,
            cost,
            suggested_by,
        } => {
            let suggested = suggested_by
                .map(|p| format!(" suggested by {}", name(p)))
                .unwrap_or_default();
            format!(
                "{} writes down a fight{suggested}: “{description}”, won by the player characters {}.",
                name(*by),
                cost_words(cost)
            )
        }
        Event::Narrated {
            challenge,
            by,
            text,
        } => format!(
            "{} narrates the challenge of {}: “{text}”",
            name(*by),
            before
                .challenges
                .get(challenge.index())
                .map_or_else(String::new, |c| character_name(before, c.character))
        ),
        Event::GmHanded { from, to } => format!(
            "{} hands the game master's seat to {}.",
            name(*from),
            name(*to)
        ),
        Event::PlayerRemoved { player } => format!("{} left the table.", name(*player)),
    }
}

/// "Gwen calls a challenge for Mira: “Row across the flood”, difficult (d4), Physicality, …"
fn called_words(before: &State, event: &Event) -> String {
    let Event::ChallengeCalled {
        character,
        by,
        description,
        situation,
        aptitude,
        skills,
        allow_steps,
        bands,
        ..
    } = event
    else {
        return String::new();
    };
    let mut extra = String::new();
    if *allow_steps > 2 {
        extra.push_str(&format!(
            " A special rule allows up to {allow_steps} steps."
        ));
    }
    if bands.is_some() {
        extra.push_str(" Its own band table applies.");
    }
    format!(
        "{} calls a challenge for {}: “{description}”, {}, {}.{extra}",
        player_name(before, *by),
        character_name(before, *character),
        situation_words(*situation),
        aptitude_and_skills(*aptitude, skills)
    )
}

/// "Mira rolls one d4 with a point of Physicality: 2 → 2, a failure …"
fn rolled_words(before: &State, event: &Event) -> String {
    let Event::ChallengeRolled {
        character,
        choice,
        spent,
        pool,
        roll,
        label,
        ..
    } = event
    else {
        return String::new();
    };
    let faces: Vec<String> = roll.faces.iter().map(|f| f.to_string()).collect();
    let mut with = Vec::new();
    if let Some(specialty) = &choice.specialty {
        with.push(format!("the Specialty {}", specialty.name));
    }
    if let Some(aptitude) = spent {
        with.push(format!("a point of {aptitude}"));
    }
    let with = if with.is_empty() {
        String::new()
    } else {
        format!(" with {}", with.join(" and "))
    };
    format!(
        "{} rolls {}{with}: {} → {}, {}.",
        character_name(before, *character),
        pool_words(*pool, roll.situation.sides()),
        faces.join(", "),
        roll.result,
        label_words(label)
    )
}

/// "A rest: Mira regains …; …": only what each character really gets back.
fn rest_words(
    before: &State,
    regained: &[(CharacterId, challenge::sheet::AptitudePoints)],
) -> String {
    let each: Vec<String> = regained
        .iter()
        .filter_map(|(c, points)| {
            // Points spent past a lowered maximum come back as no current point.
            let mut back = *points;
            if let Some(character) = before.character(*c) {
                for a in Aptitude::ALL {
                    *back.get_mut(a) = points.get(a).min(character.maximum(a));
                }
            }
            (!back.is_zero()).then(|| {
                format!(
                    "{} regains {}",
                    character_name(before, *c),
                    points_words(&back)
                )
            })
        })
        .collect();
    if each.is_empty() {
        "A rest.".to_owned()
    } else {
        format!("A rest: {}.", each.join("; "))
    }
}

// ---------------------------------------------------------------------------------------------
// The view
// ---------------------------------------------------------------------------------------------

fn character_json(state: &State, c: &Character) -> Value {
    let aptitudes: Vec<Value> = Aptitude::ALL
        .iter()
        .map(|a| {
            json!({
                "aptitude": a,
                "name": a.to_string(),
                "current": c.current(*a),
                "maximum": c.maximum(*a),
            })
        })
        .collect();
    json!({
        "id": c.id.0,
        "owner": c.owner.0,
        "owner_name": player_name(state, c.owner),
        "retired": c.retired,
        "sheet": c.sheet,
        "aptitudes": aptitudes,
        "open_challenge": state
            .challenges
            .iter()
            .find(|ch| ch.character == c.id && ch.is_open())
            .map(|ch| ch.id.0),
    })
}

/// Every improvement the player may choose on an open challenge (no Specialty or one of the
/// character's Specialties under the challenge's Skills; with or without an Aptitude point),
/// each with its pool and the exact chance of each band, or the refusal it would meet.
fn choices_json(state: &State, ch: &Challenge) -> Vec<Value> {
    let specialties: Vec<Option<Specialty>> = std::iter::once(None)
        .chain(
            state
                .character(ch.character)
                .map(|c| c.sheet.specialties.clone())
                .unwrap_or_default()
                .into_iter()
                .filter(|s| ch.skills.contains(&s.skill))
                .map(Some),
        )
        .collect();
    let mut out = Vec::new();
    for specialty in specialties {
        for aptitude_points in [0, 1] {
            let choice = Choice {
                specialty: specialty.clone(),
                aptitude_points,
            };
            let entry = match (state.plan(ch.id, &choice), state.band_odds(ch.id, &choice)) {
                (Ok(plan), Ok(bands)) => json!({
                    "choice": choice,
                    "steps": plan.steps,
                    "pool": plan.pool,
                    "pool_words": pool_words(plan.pool, ch.situation.sides()),
                    "bands": bands
                        .iter()
                        .map(|(band, p)| json!({"from": band.from, "to": band.to, "label": band.label, "p": p.to_string()}))
                        .collect::<Vec<Value>>(),
                }),
                (Err(refusal), _) | (_, Err(refusal)) => json!({
                    "choice": choice,
                    "refused": {"code": refusal.code(), "rule": refusal.rule(), "message": refusal.to_string()},
                }),
            };
            out.push(entry);
        }
    }
    out
}

fn challenge_json(state: &State, ch: &Challenge) -> Value {
    let status = match ch.status {
        ChallengeStatus::Open => "open",
        ChallengeStatus::Cancelled => "cancelled",
        _ => "rolled",
    };
    let outcome = ch.outcome().map(|o| {
        json!({
            "choice": o.choice,
            "skills_held": o.skills_held,
            "spent": o.spent,
            "pool": o.pool,
            "pool_words": pool_words(o.pool, ch.situation.sides()),
            "steps": o.roll.steps,
            "faces": o.roll.faces,
            "result": o.roll.result,
            "band": o.roll.band,
            "label": o.label,
        })
    });
    json!({
        "id": ch.id.0,
        "character": ch.character.0,
        "called_by": ch.called_by.0,
        "description": ch.description,
        "situation": ch.situation,
        "sides": ch.situation.sides(),
        "situation_words": situation_words(ch.situation),
        "aptitude": ch.aptitude,
        "skills": ch.skills,
        "allow_steps": ch.allow_steps,
        "bands": ch.bands(),
        "custom_bands": ch.custom_bands.is_some(),
        "status": status,
        "outcome": outcome,
        "narration": ch.narration.as_ref().map(|(by, text)| json!({"by": by.0, "text": text})),
        "choices": if ch.is_open() { choices_json(state, ch) } else { Vec::new() },
    })
}

/// What every page sees: the players and the GM, the sheets, every challenge (open ones with
/// the odds of every choice), and the fights written down.
fn view(state: &State, creator: u32) -> Value {
    json!({
        "game": ChallengeGame::KIND,
        "creator": creator,
        "gm": state.gm.map(|g| g.0),
        "players": state.players.iter().map(|p| json!({"id": p.id.0, "name": p.name, "removed": p.removed})).collect::<Vec<Value>>(),
        "characters": state.characters.iter().map(|c| character_json(state, c)).collect::<Vec<Value>>(),
        "challenges": state.challenges.iter().map(|ch| challenge_json(state, ch)).collect::<Vec<Value>>(),
        "fights": state.fights.iter().map(|f| json!({
            "by": f.by.0,
            "description": f.description,
            "cost": f.cost,
            "suggested_by": f.suggested_by.map(|p| p.0),
        })).collect::<Vec<Value>>(),
        "skills": Aptitude::ALL.iter().map(|a| json!({
            "aptitude": a,
            "name": a.to_string(),
            "skills": a.skills().iter().map(|s| json!({"skill": s, "name": s.name(), "title": s.to_string()})).collect::<Vec<Value>>(),
        })).collect::<Vec<Value>>(),
    })
}

// ---------------------------------------------------------------------------------------------
// The export
// ---------------------------------------------------------------------------------------------

use crate::text::markdown as escaped;

/// The session as Markdown. Every name, label and sentence players typed is escaped
/// ([`crate::text::markdown`]): it reads as typed and makes no markup.
fn markdown(state: &State) -> (String, String) {
    let title = "A session of the Challenge rules".to_owned();
    let mut out = format!("# {title}\n\n");
    if let Some(gm) = state.gm {
        out.push_str(&format!(
            "Game master: {}.\n\n",
            escaped(&player_name(state, gm))
        ));
    }
    markdown_characters(state, &mut out);
    markdown_challenges(state, &mut out);
    markdown_fights(state, &mut out);
    (title, out)
}

fn markdown_characters(state: &State, out: &mut String) {
    let live: Vec<&Character> = state.characters.iter().filter(|c| !c.retired).collect();
    if live.is_empty() {
        return;
    }
    out.push_str("## The characters\n\n");
    for c in live {
        let aptitudes: Vec<String> = Aptitude::ALL
            .iter()
            .map(|a| format!("{a} {}/{}", c.current(*a), c.maximum(*a)))
            .collect();
        let skills: Vec<String> = c.sheet.skills.iter().map(|s| s.to_string()).collect();
        out.push_str(&format!(
            "- **{}** ({}), played by {}: {}. Skills: {}.",
            escaped(&c.sheet.name),
            escaped(&c.sheet.concept),
            escaped(&player_name(state, c.owner)),
            aptitudes.join(", "),
            if skills.is_empty() {
                "none".to_owned()
            } else {
                skills.join(", ")
            }
        ));
        if !c.sheet.specialties.is_empty() {
            let specialties: Vec<String> = c
                .sheet
                .specialties
                .iter()
                .map(|s| format!("{} ({})", escaped(&s.name), s.skill))
                .collect();
            out.push_str(&format!(" Specialties: {}.", specialties.join(", ")));
        }
        if !c.sheet.abilities.trim().is_empty() {
            out.push_str(&format!(" Abilities: {}", escaped(&c.sheet.abilities)));
        }
        out.push('\n');
    }
    out.push('\n');
}

fn markdown_challenges(state: &State, out: &mut String) {
    let rolled: Vec<&Challenge> = state
        .challenges
        .iter()
        .filter(|c| c.outcome().is_some())
        .collect();
    if rolled.is_empty() {
        return;
    }
    out.push_str("## Challenges\n\n");
    for ch in rolled {
        let Some(o) = ch.outcome() else { continue };
        let faces: Vec<String> = o.roll.faces.iter().map(|f| f.to_string()).collect();
        let mut with = Vec::new();
        if let Some(specialty) = &o.choice.specialty {
            with.push(format!("the Specialty {}", escaped(&specialty.name)));
        }
        if let Some(aptitude) = o.spent {
            with.push(format!("a point of {aptitude}"));
        }
        let with = if with.is_empty() {
            String::new()
        } else {
            format!(", improved with {}", with.join(" and "))
        };
        let table = if ch.custom_bands.is_some() {
            " (the GM's own band table)"
        } else {
            ""
        };
        out.push_str(&format!(
            "- {}: “{}” ({}, {}{with}): {}, {} → **{}**, {}{table}.",
            escaped(&character_name(state, ch.character)),
            escaped(&ch.description),
            situation_words(ch.situation),
            aptitude_and_skills(ch.aptitude, &ch.skills),
            pool_words(o.pool, ch.situation.sides()),
            faces.join(", "),
            o.roll.result,
            escaped(&label_words(&o.label))
        ));
        if let Some((_, text)) = &ch.narration {
            out.push_str(&format!(" {}", escaped(text)));
        }
        out.push('\n');
    }
    out.push('\n');
}

fn markdown_fights(state: &State, out: &mut String) {
    if state.fights.is_empty() {
        return;
    }
    out.push_str("## Fights\n\n");
    for f in &state.fights {
        out.push_str(&format!(
            "- “{}”, won {}.\n",
            escaped(&f.description),
            escaped(&cost_words(&f.cost))
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dice::Seed;

    #[test]
    fn a_page_cannot_choose_the_dice() {
        let action = json!({"action": "roll", "challenge": 0, "seed": 7});
        let context = Context { now: 0, seed: 99 };
        match engine_action(&action, &context) {
            Ok(Action::Roll { seed, .. }) => assert_eq!(seed, Seed(99)),
            other => panic!("{other:?}"),
        }
        let join = json!({"action": "join", "name": "X"});
        assert!(engine_action(&join, &context).is_err());
    }
}
