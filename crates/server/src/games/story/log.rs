//! The story table's log: one line per event, naming what the event is about in the players'
//! words.
//!
//! A line never holds text players typed (but what is removed, which nobody can flag any
//! more): any such text may be flagged later, and a flagged text must disappear everywhere,
//! the log included. A line marks each scene, object and aspect
//! it names instead (`\0` kind, id `\0` words `\0`), and the page shows the current text of each
//! from its view, where a flagged text is absent; the words (a scene's level, an object's kind)
//! stand in for it there and in the plain line. NUL never occurs in names, the only player text
//! a line holds.

use serde_json::{Value, json};
use story::ids::{AspectId, ObjectId, PairId, PlayerId, SceneId};
use story::model::{Motion, ObjectKind, Phase, ProphecySource, TextRef, Timed};
use story::{Event, State};

/// One line for the log, marked, from the state before the event.
pub(super) fn describe(before: &State, event: &Event) -> String {
    table_line(before, event)
        .or_else(|| object_line(before, event))
        .or_else(|| outline_line(before, event))
        .or_else(|| play_line(before, event))
        .unwrap_or_else(|| "Something happened.".to_owned())
}

/// A marked line as plain text: each thing by its words.
pub(super) fn plain_line(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    for (i, part) in line.split('\0').enumerate() {
        // Parts alternate: text, kind and id, words, text, …
        if i % 3 != 1 {
            out.push_str(part);
        }
    }
    out
}

/// A marked line as the page's parts: text, and `{"scene": id, "text": words}` (or `aspect`,
/// `object`) for each thing it names.
pub(super) fn line_parts(line: &str) -> Option<Vec<Value>> {
    if !line.contains('\0') {
        return None;
    }
    let pieces: Vec<&str> = line.split('\0').collect();
    let mut parts = Vec::new();
    for chunk in pieces.chunks(3) {
        if !chunk[0].is_empty() {
            parts.push(json!(chunk[0]));
        }
        if let [_, mark, words] = chunk {
            let (kind, id) = mark.split_at(1);
            let key = match kind {
                "a" => "aspect",
                "o" => "object",
                _ => "scene",
            };
            parts.push(json!({key: id.parse::<u32>().unwrap_or(0), "text": words}));
        }
    }
    Some(parts)
}

fn mark(kind: char, id: u32, words: &str) -> String {
    format!("\0{kind}{id}\0{words}\0")
}

/// A marked line's first words with a capital letter, inside a mark too.
fn first(line: &str) -> String {
    match line
        .strip_prefix('\0')
        .and_then(|rest| rest.split_once('\0'))
    {
        Some((mark, rest)) => format!("\0{mark}\0{}", capitalized(rest)),
        None => capitalized(line),
    }
}

fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// A scene, by its objective; in words, by its level and difficulty ("the primary scene (3)").
fn scene(state: &State, scene: SceneId) -> String {
    match state.scenes.get(&scene) {
        Some(s) => {
            // "the Finale" keeps its capital; "the primary scene" does not.
            let level = state.level(scene);
            let level = if level == "Finale" {
                level.to_owned()
            } else {
                level.to_lowercase()
            };
            mark('s', scene.0, &format!("the {level} ({})", s.difficulty))
        }
        None => "a scene".to_owned(),
    }
}

/// An object, by its name; in words, by whose character it is or its kind ("a place").
fn object(state: &State, object: ObjectId) -> String {
    let words = match state.objects.get(&object).map(|o| o.kind) {
        Some(ObjectKind::Character { player: Some(p) }) => {
            format!("{}\u{2019}s character", player_name(state, p))
        }
        Some(kind) => a_kind(kind),
        None => return "an object".to_owned(),
    };
    mark('o', object.0, &words)
}

/// An aspect, by its text; in words, "an aspect".
fn aspect(state: &State, aspect: AspectId) -> String {
    if state.aspects.contains_key(&aspect) {
        mark('a', aspect.0, "an aspect")
    } else {
        "an aspect".to_owned()
    }
}

/// The object an aspect describes.
fn aspect_owner(state: &State, id: AspectId) -> String {
    state
        .aspects
        .get(&id)
        .map_or_else(|| "an object".to_owned(), |a| object(state, a.object))
}

/// A pair by its two aspects: "“Sharp-eyed” with “A hidden door”".
fn pair(state: &State, id: PairId) -> String {
    match state.pairs.get(&id) {
        Some(p) => format!(
            "{} with {}",
            aspect(state, p.character_aspect),
            aspect(state, p.environment_aspect)
        ),
        None => "a pair".to_owned(),
    }
}

/// A kind of object with its article: "a place", "an NPC" (the article goes by the sound).
fn a_kind(kind: ObjectKind) -> String {
    match kind {
        ObjectKind::Npc => "an NPC".to_owned(),
        kind => format!("a {}", kind.label()),
    }
}

pub(super) fn player_name(state: &State, player: PlayerId) -> String {
    state
        .players
        .get(&player)
        .map_or_else(|| format!("Player {}", player.0), |p| p.name.clone())
}

/// What a motion asks, as a verb phrase naming the phase or the player it is about.
pub(super) fn motion_words(state: &State, motion: Motion) -> String {
    match motion {
        Motion::Advance { to } => format!("move on to {}", to.name_in(state.ruleset)),
        Motion::ChooseModerator { player: Some(p) } => {
            format!("make {} the moderator", player_name(state, p))
        }
        other => other.to_string(),
    }
}

/// Temporal Mechanics has no prophecy: a world's or module's text is the warning sent back.
fn prophecy_word(state: &State) -> &'static str {
    if state.ruleset.is_temporal() {
        "warning"
    } else {
        "prophecy"
    }
}

fn count(n: impl Into<u64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Who is at the table, the safety tools, proposals and the table's choices.
fn table_line(s: &State, event: &Event) -> Option<String> {
    Some(match event {
        Event::GameOpened { ruleset } => format!("The table opened under {ruleset}."),
        Event::PlayerJoined { name, .. } => format!("{name} joined the table."),
        Event::PlayerRemoved { player } => format!("{} left the table.", player_name(s, *player)),
        Event::ModeratorChosen { player: Some(p) } => {
            format!("{} is the moderator.", player_name(s, *p))
        }
        Event::ModeratorChosen { player: None } => "The table has no moderator now.".into(),
        Event::LineAdded { .. } => "A line was drawn.".into(),
        Event::LineRemoved { .. } => "A line was lifted.".into(),
        Event::Flagged { .. } => "A text was flagged; play pauses until it is replaced.".into(),
        Event::TablePaused { .. } => "Someone used the X-card: play pauses. Leave out what was just said or shown; no one explains why.".into(),
        Event::TableResumed => "Play resumes.".into(),
        Event::ProposalMade { motion, by, .. } => {
            let what = match motion {
                Motion::MakeCheck { scene: at, .. } => format!("make the check of {}", scene(s, *at)),
                Motion::WithdrawPair { pair: p } => format!("withdraw the pair {}", pair(s, *p)),
                other => motion_words(s, *other),
            };
            format!("{} proposes to {what}; it carries when everyone agrees.", player_name(s, *by))
        }
        Event::ProposalAgreed { by, .. } => format!("{} agrees.", player_name(s, *by)),
        Event::ProposalStopped { by, .. } => {
            format!("{} said not yet: the proposal is dropped.", player_name(s, *by))
        }
        Event::ProposalCarried { .. } => "Everyone agreed.".into(),
        Event::DiceChosen { physical: true } => {
            "From now on the table rolls real dice and types in the faces.".into()
        }
        Event::DiceChosen { physical: false } => "From now on the server rolls the dice.".into(),
        Event::StoryPublished => {
            "The story is published as a read-only page: its link is with the story.".into()
        }
        Event::StoryWithdrawn => "The story's read-only page was withdrawn.".into(),
        Event::WatchOpened => {
            "People with the watch link can now follow the table live: its link is in the menu."
                .into()
        }
        Event::WatchClosed => "The watch link was closed: nobody watches any more.".into(),
        Event::QuestionAsked { .. } => "The moderator asks the players a question.".into(),
        Event::ProphecyReceived { source, .. } => prophecy_line(s, source),
        Event::ProphecyEdited { .. } => format!("The {} was changed.", prophecy_word(s)),
        Event::PhaseBegan { phase: Phase::Outline } if s.phase == Phase::Story => {
            "Back to the outline: scenes can be sketched and changed again.".into()
        }
        Event::PhaseBegan { phase } => format!("{} begins.", phase.name_in(s.ruleset)),
        Event::GameEnded => "The story is told.".into(),
        _ => return None,
    })
}

fn prophecy_line(s: &State, source: &ProphecySource) -> String {
    match source {
        ProphecySource::Catastrophe { world, roll, .. } => format!(
            "The dice gave {roll} on the catastrophe table of {world}: the {} is received.",
            prophecy_word(s)
        ),
        ProphecySource::Module { title } => {
            format!("The {} of {title} is received.", prophecy_word(s))
        }
        ProphecySource::Written => format!("The players wrote the {}.", prophecy_word(s)),
    }
}

/// Characters, the environment's objects and their aspects.
fn object_line(s: &State, event: &Event) -> Option<String> {
    // The object as it will be: these events create it, so the state before cannot name it.
    let created = |id: ObjectId, kind: ObjectKind| {
        let words = match kind {
            ObjectKind::Character { player: Some(p) } => {
                format!("{}\u{2019}s character", player_name(s, p))
            }
            kind => a_kind(kind),
        };
        mark('o', id.0, &words)
    };
    Some(match event {
        Event::CharacterCreated {
            player, object: o, ..
        } => format!(
            "{} created a character: {}.",
            player_name(s, *player),
            created(
                *o,
                ObjectKind::Character {
                    player: Some(*player)
                }
            )
        ),
        Event::ObjectCreated {
            kind, object: o, ..
        } => format!(
            "{} entered the story: {}.",
            capitalized(&a_kind(*kind)),
            created(*o, *kind)
        ),
        Event::ObjectRenamed { object: o, .. } => {
            let kind = s
                .objects
                .get(o)
                .map_or("an object".to_owned(), |x| a_kind(x.kind));
            format!("{} has a new name: {}.", capitalized(&kind), object(s, *o))
        }
        // Gone from the view, it can be named here: nobody can flag it any more.
        Event::ObjectRemoved { object: o } => match s.objects.get(o) {
            Some(x) if !s.is_flagged(TextRef::ObjectName(*o)) => {
                format!("{} ({}) left the story.", x.name, a_kind(x.kind))
            }
            _ => format!("{} left the story.", first(&object(s, *o))),
        },
        Event::AspectAttached {
            aspect: a,
            object: o,
            ..
        } => format!(
            "{} gained an aspect: {}.",
            first(&object(s, *o)),
            mark('a', a.0, "an aspect")
        ),
        Event::AspectEdited { aspect: a, .. } => format!(
            "An aspect of {} now reads {}.",
            aspect_owner(s, *a),
            aspect(s, *a)
        ),
        Event::AspectRemoved { aspect: a } => match s.aspects.get(a) {
            Some(x) if !s.is_flagged(TextRef::Aspect(*a)) => format!(
                "An aspect of {} was removed: \u{201c}{}\u{201d}.",
                aspect_owner(s, *a),
                x.text
            ),
            _ => format!("An aspect of {} was removed.", aspect_owner(s, *a)),
        },
        _ => return None,
    })
}

/// The outline: scenes sketched, changed and set.
fn outline_line(s: &State, event: &Event) -> Option<String> {
    let temporal = s.ruleset.is_temporal();
    Some(match event {
        Event::SceneSketched { parent: None, .. } if temporal => {
            "The climactic scene was sketched.".into()
        }
        Event::SceneSketched { parent: None, .. } => "The Finale was sketched.".into(),
        Event::SceneSketched {
            parent: Some(p),
            difficulty,
            ..
        } => format!(
            "A {} of {} was sketched (difficulty {difficulty}).",
            if temporal {
                "scene upstream"
            } else {
                "precursor"
            },
            scene(s, *p)
        ),
        Event::ObjectiveEdited { scene: at, .. } => {
            format!("The objective of {} changed.", scene(s, *at))
        }
        Event::SceneRemoved { scene: at } => {
            format!("{} was removed from the outline.", first(&scene(s, *at)))
        }
        Event::SettingChanged { scene: at, .. } => {
            format!("The setting of {} changed.", scene(s, *at))
        }
        Event::ObjectPlaced {
            scene: at,
            object: o,
        } => {
            format!("{} is in {}.", first(&object(s, *o)), scene(s, *at))
        }
        Event::ObjectWithdrawn {
            scene: at,
            object: o,
        } => {
            format!("{} left {}.", first(&object(s, *o)), scene(s, *at))
        }
        _ => return None,
    })
}

/// Scenes played: the timer, pairs, checks and what the players told.
fn play_line(s: &State, event: &Event) -> Option<String> {
    Some(match event {
        Event::SceneStarted { scene: at, .. } => {
            format!("{} began; the timer runs.", first(&scene(s, *at)))
        }
        Event::SceneCancelled { scene: at } => format!(
            "{} was set aside before its check; it can be started again.",
            first(&scene(s, *at))
        ),
        Event::PairProposed {
            by,
            scene: at,
            character_aspect,
            environment_aspect,
            ..
        } => format!(
            "{} proposed a pair for {}: {} with {}.",
            player_name(s, *by),
            scene(s, *at),
            aspect(s, *character_aspect),
            aspect(s, *environment_aspect)
        ),
        Event::PairWithdrawn { pair: p } => format!("The pair {} was withdrawn.", pair(s, *p)),
        Event::PairAccepted { by, pair: p } => {
            format!("{} accepts the pair {}.", player_name(s, *by), pair(s, *p))
        }
        Event::PairObjected { by, pair: p } => format!(
            "{} objects to the pair {}: it does not count until that is settled.",
            player_name(s, *by),
            pair(s, *p)
        ),
        Event::JustificationEdited { pair: p, .. } => {
            format!("The justification of the pair {} changed.", pair(s, *p))
        }
        Event::DiceCalledFor { scene: at } => format!(
            "The table agreed to the check of {}: roll {} and type in the faces.",
            scene(s, *at),
            count(s.pool(*at).len() as u64, "real die", "real dice")
        ),
        Event::CheckMade { scene: at, check } => format!(
            "The check of {}: {} rolled, {} against {}: {}.",
            scene(s, *at),
            count(
                check.roll.dice.len() as u64,
                if check.physical { "real die" } else { "die" },
                if check.physical { "real dice" } else { "dice" }
            ),
            count(check.roll.hits(), "hit", "hits"),
            check.difficulty,
            check.outcome
        ),
        Event::Narrated { scene: at, .. } => {
            format!("The players told what happened in {}.", scene(s, *at))
        }
        Event::SceneFinished { scene: at } => {
            format!("{} is performed.", first(&scene(s, *at)))
        }
        Event::FlashbackNarrated { .. } => "The flashback was told.".into(),
        Event::LongTermEffectsNarrated { .. } if s.ruleset.is_temporal() => {
            "The flashforward was told.".into()
        }
        Event::LongTermEffectsNarrated { .. } => "The Finale's long-term effects were told.".into(),
        _ => timer_line(s, event)?,
    })
}

fn timer_line(s: &State, event: &Event) -> Option<String> {
    let minutes = s.ruleset.scene_minutes();
    Some(match event {
        Event::TimerStarted {
            timed: Timed::Flashback,
            ..
        } => format!("The flashback begins: {minutes} minutes on the timer."),
        Event::TimerStarted { .. } => format!(
            "The climactic scene is played: the flashforward begins, {minutes} minutes on the timer."
        ),
        Event::TimerStopped { .. } => "The timer stops.".into(),
        Event::TimerCounting { .. } => "The timer runs again.".into(),
        Event::TimerHeld => "The timer is held.".into(),
        Event::TimerReleased => "The timer is let go.".into(),
        Event::TimerExtended { minutes } => format!(
            "The scene gets {}.",
            count(*minutes, "more minute", "more minutes")
        ),
        Event::TimerReset { .. } => "The timer starts again from the beginning.".into(),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_marked_line_reads_plain_or_in_parts() {
        let line =
            "The pair \0a4\0an aspect\0 with \0a9\0an aspect\0 in \0s12\0the primary scene (3)\0.";
        assert_eq!(
            plain_line(line),
            "The pair an aspect with an aspect in the primary scene (3)."
        );
        assert_eq!(
            line_parts(line).unwrap(),
            vec![
                json!("The pair "),
                json!({"aspect": 4, "text": "an aspect"}),
                json!(" with "),
                json!({"aspect": 9, "text": "an aspect"}),
                json!(" in "),
                json!({"scene": 12, "text": "the primary scene (3)"}),
                json!("."),
            ]
        );
        let opening = first("\0o7\0ana\u{2019}s character\0 left.");
        assert_eq!(plain_line(&opening), "Ana\u{2019}s character left.");
        assert_eq!(
            line_parts(&opening).unwrap()[0],
            json!({"object": 7, "text": "Ana\u{2019}s character"})
        );
        assert_eq!(line_parts("Ada joined the table."), None);
    }
}
