//! A game's log as a player may take it home: every text that a flag hid is left out, and
//! nobody's safety tools are traced back to them (see [`for_players`]).
//!
//! A flag hides the text it names until that text is replaced or removed; the page never
//! receives it. The log keeps it (it is the record), so a log handed to players must lose it
//! too: [`flagged_text_left_out`] replaces exactly the texts that were flagged, and nothing else,
//! so the result still replays to the same story (with the flagged texts left out).

use crate::event::Event;
use crate::model::TextRef;
use std::collections::HashSet;

/// What stands in place of a flagged text.
pub const LEFT_OUT: &str = "(left out: this text was flagged)";

/// The text an event writes, if a flag can hide it.
fn written(event: &Event) -> Option<TextRef> {
    Some(match event {
        Event::ProphecyReceived { .. } | Event::ProphecyEdited { .. } => TextRef::Prophecy,
        Event::CharacterCreated { object, .. }
        | Event::ObjectCreated { object, .. }
        | Event::ObjectRenamed { object, .. } => TextRef::ObjectName(*object),
        Event::AspectAttached { aspect, .. } | Event::AspectEdited { aspect, .. } => {
            TextRef::Aspect(*aspect)
        }
        Event::FlashbackNarrated { .. } => TextRef::Flashback,
        Event::SceneSketched { scene, .. } | Event::ObjectiveEdited { scene, .. } => {
            TextRef::Objective(*scene)
        }
        Event::SettingChanged { scene, .. } => TextRef::Setting(*scene),
        Event::PairProposed { pair, .. } | Event::JustificationEdited { pair, .. } => {
            TextRef::Justification(*pair)
        }
        Event::Narrated { scene, .. } => TextRef::Narration(*scene),
        Event::LongTermEffectsNarrated { .. } => TextRef::LongTermEffects,
        Event::QuestionAsked { .. } => TextRef::Question,
        _ => return None,
    })
}

/// The event with the text it writes replaced by [`LEFT_OUT`].
fn without_text(mut event: Event) -> Event {
    let left_out = || LEFT_OUT.to_owned();
    match &mut event {
        Event::ProphecyReceived { text, .. }
        | Event::ProphecyEdited { text }
        | Event::AspectAttached { text, .. }
        | Event::AspectEdited { text, .. }
        | Event::FlashbackNarrated { text }
        | Event::Narrated { text, .. }
        | Event::LongTermEffectsNarrated { text }
        | Event::QuestionAsked { text } => *text = left_out(),
        Event::CharacterCreated { name, .. }
        | Event::ObjectCreated { name, .. }
        | Event::ObjectRenamed { name, .. } => *name = left_out(),
        Event::SceneSketched { objective, .. } | Event::ObjectiveEdited { objective, .. } => {
            *objective = left_out();
        }
        Event::SettingChanged { time, place, .. } => {
            *time = left_out();
            *place = left_out();
        }
        Event::PairProposed { justification, .. }
        | Event::JustificationEdited { justification, .. } => *justification = left_out(),
        _ => {}
    }
    event
}

/// The log with every flagged text left out. A flag names a text, not an event: the text it
/// hid is the one written last before it. Walking the log backwards, a flag marks its text,
/// and the first write of that text met (the latest before the flag) is the one left out;
/// texts written after the flag (the replacements) stay.
pub fn flagged_text_left_out(events: &[Event]) -> Vec<Event> {
    let mut flagged: HashSet<TextRef> = HashSet::new();
    let mut out: Vec<Event> = Vec::with_capacity(events.len());
    for event in events.iter().rev() {
        if let Event::Flagged { target } = event {
            flagged.insert(*target);
            out.push(event.clone());
            continue;
        }
        match written(event) {
            Some(text) if flagged.remove(&text) => out.push(without_text(event.clone())),
            _ => out.push(event.clone()),
        }
    }
    out.reverse();
    out
}

/// The log as players may download it: flagged texts left out, and the authors of lines and
/// of the X-card forgotten (the safety tools are anonymous).
pub fn for_players(events: &[Event]) -> Vec<Event> {
    let mut out = flagged_text_left_out(events);
    for event in &mut out {
        match event {
            Event::LineAdded { by, .. } | Event::TablePaused { by } => *by = None,
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::AspectId;
    use crate::ids::ObjectId;

    fn aspect(text: &str) -> Event {
        Event::AspectEdited {
            aspect: AspectId(4),
            text: text.to_owned(),
        }
    }

    fn flag() -> Event {
        Event::Flagged {
            target: TextRef::Aspect(AspectId(4)),
        }
    }

    fn texts(events: &[Event]) -> Vec<String> {
        events
            .iter()
            .filter_map(|e| match e {
                Event::AspectEdited { text, .. } => Some(text.clone()),
                Event::ObjectRenamed { name, .. } => Some(name.clone()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn only_the_text_each_flag_hid_is_left_out() {
        let rename = Event::ObjectRenamed {
            object: ObjectId(4),
            name: "same id, another kind of text".into(),
        };
        let log = [
            aspect("first, replaced before any flag"),
            aspect("second, flagged"),
            flag(),
            aspect("third, the replacement"),
            aspect("fourth, flagged again"),
            flag(),
            rename,
            aspect("fifth, never flagged"),
        ];
        let out = flagged_text_left_out(&log);
        assert_eq!(out.len(), log.len());
        assert_eq!(
            texts(&out),
            [
                "first, replaced before any flag",
                LEFT_OUT,
                "third, the replacement",
                LEFT_OUT,
                "same id, another kind of text",
                "fifth, never flagged",
            ]
        );
    }

    #[test]
    fn a_log_without_flags_is_unchanged() {
        let log = [aspect("a"), aspect("b")];
        assert_eq!(flagged_text_left_out(&log), log);
    }
}
