//! [`decide`]: checks a command against the rules and the state, and returns the events it
//! becomes or why not. The dice are rolled here, from the command's seed, by
//! [`dice::challenge::roll`], and every face is stored in the event.

use crate::command::{Action, BandRange, Choice, Command};
use crate::event::Event;
use crate::ids::{ChallengeId, CharacterId, PlayerId};
use crate::limits::*;
use crate::refusal::Refusal;
use crate::sheet::{Aptitude, Sheet, Skill};
use crate::state::{Character, State};
use std::collections::BTreeSet;

type Decision = Result<Vec<Event>, Refusal>;

/// Checks a command against the rules and the state; the events it becomes, or why not.
pub fn decide(state: &State, command: Command) -> Decision {
    let by = command.by;
    if let Action::Join { name } = command.action {
        return join(state, by, name);
    }
    match state.player(by) {
        None => return Err(Refusal::NotSeated),
        Some(p) if p.removed => return Err(Refusal::Removed),
        Some(_) => {}
    }
    let gm = state.is_gm(by);
    let only_gm = |action: &'static str| gm_only(gm, action);
    match command.action {
        // Only a seated player gets here.
        Action::Join { .. } => Err(Refusal::AlreadySeated),
        Action::CreateSheet { owner, sheet } => create_sheet(state, by, gm, owner, sheet),
        Action::EditSheet { character, sheet } => {
            let c = editable(state, by, character)?;
            // The sheet a Challenge was called on is the one it is rolled with.
            no_open_challenge(state, character)?;
            check_sheet(&sheet)?;
            // Points spent stay spent, even past a lowered maximum: only rest gives them back
            // (lowering a maximum to 0 and raising it again must not).
            Ok(vec![Event::SheetEdited {
                character,
                by,
                sheet,
                spent: c.spent,
            }])
        }
        Action::RetireSheet { character } => {
            editable(state, by, character)?;
            no_open_challenge(state, character)?;
            Ok(vec![Event::SheetRetired { character, by }])
        }
        Action::CallChallenge {
            character,
            description,
            situation,
            aptitude,
            skills,
            allow_steps,
            bands,
        } => {
            only_gm("call_challenge")?;
            live(state, character)?;
            no_open_challenge(state, character)?;
            let allow_steps = check_call(&description, &skills, allow_steps, bands.as_deref())?;
            Ok(vec![Event::ChallengeCalled {
                challenge: ChallengeId::of(state.challenges.len()),
                character,
                by,
                description,
                situation,
                aptitude,
                skills,
                allow_steps,
                bands,
            }])
        }
        Action::CancelChallenge { challenge } => {
            only_gm("cancel_challenge")?;
            let ch = state
                .challenge(challenge)
                .ok_or(Refusal::NoSuchChallenge { challenge })?;
            if !ch.is_open() {
                return Err(Refusal::ChallengeClosed { challenge });
            }
            Ok(vec![Event::ChallengeCancelled { challenge, by }])
        }
        Action::Roll {
            challenge,
            choice,
            seed,
        } => roll(state, by, challenge, choice, seed),
        Action::SpendPoint {
            character,
            aptitude,
            reason,
        } => {
            let c = editable(state, by, character)?;
            check_text("reason", &reason, REASON_LEN, true)?;
            if c.current(aptitude) == 0 {
                return Err(Refusal::NoAptitudePoint { aptitude });
            }
            Ok(vec![Event::PointSpent {
                character,
                aptitude,
                by,
                reason,
            }])
        }
        Action::Rest { character } => {
            only_gm("rest")?;
            if let Some(character) = character {
                live(state, character)?;
            }
            let regained: Vec<_> = state
                .characters
                .iter()
                .filter(|c| !c.retired && character.is_none_or(|id| id == c.id))
                .filter(|c| !c.spent.is_zero())
                .map(|c| (c.id, c.spent))
                .collect();
            if regained.is_empty() {
                return Err(Refusal::NothingToRegain);
            }
            Ok(vec![Event::Rested { regained }])
        }
        Action::RecordFight {
            description,
            cost,
            suggested_by,
        } => {
            only_gm("record_fight")?;
            check_text("fight's description", &description, FIGHT_TEXT_LEN, true)?;
            check_text("fight's cost", &cost, FIGHT_TEXT_LEN, false)?;
            if let Some(player) = suggested_by
                && state.seated(player).is_none()
            {
                return Err(Refusal::NoSuchPlayer { player });
            }
            Ok(vec![Event::FightRecorded {
                by,
                description,
                cost,
                suggested_by,
            }])
        }
        Action::Narrate { challenge, text } => narrate(state, by, challenge, text),
        Action::HandGm { to } => {
            only_gm("hand_gm")?;
            if state.seated(to).is_none() {
                return Err(Refusal::NoSuchPlayer { player: to });
            }
            if to == by {
                return Err(Refusal::AlreadyGm);
            }
            Ok(vec![Event::GmHanded { from: by, to }])
        }
        Action::RemovePlayer { player } => remove(state, by, player),
    }
}

/// Only the game master may do `action`.
fn gm_only(gm: bool, action: &'static str) -> Result<(), Refusal> {
    if gm {
        Ok(())
    } else {
        Err(Refusal::NotGm { action })
    }
}

/// A new sheet, for oneself or (the GM) for another player.
fn create_sheet(
    state: &State,
    by: PlayerId,
    gm: bool,
    owner: Option<PlayerId>,
    sheet: Sheet,
) -> Decision {
    let owner = owner.unwrap_or(by);
    if owner != by {
        gm_only(gm, "create_sheet")?;
        if state.seated(owner).is_none() {
            return Err(Refusal::NoSuchPlayer { player: owner });
        }
    }
    check_sheet(&sheet)?;
    if state.characters_of(owner).count() >= SHEETS_PER_PLAYER {
        return Err(Refusal::TooManySheets {
            most: SHEETS_PER_PLAYER,
        });
    }
    if state.characters.iter().filter(|c| !c.retired).count() >= MAX_CHARACTERS {
        return Err(Refusal::TooManyCharacters {
            most: MAX_CHARACTERS,
        });
    }
    Ok(vec![Event::SheetCreated {
        character: CharacterId::of(state.characters.len()),
        owner,
        by,
        sheet,
    }])
}

/// A call's own fields checked: its description, skills named once, the steps a special rule
/// allows (the rules' two when it says none) and its band table. The steps allowed.
fn check_call(
    description: &str,
    skills: &[Skill],
    allow_steps: Option<u32>,
    bands: Option<&[BandRange]>,
) -> Result<u32, Refusal> {
    check_text("description", description, DESCRIPTION_LEN, true)?;
    let mut seen = BTreeSet::new();
    if let Some(&skill) = skills.iter().find(|&&s| !seen.insert(s)) {
        return Err(Refusal::SkillTwice { skill });
    }
    let allow_steps = allow_steps.unwrap_or(STEPS_WITHOUT_SPECIAL_RULE);
    if !(STEPS_WITHOUT_SPECIAL_RULE..=MAX_STEPS).contains(&allow_steps) {
        return Err(Refusal::AllowSteps {
            asked: allow_steps,
            most: MAX_STEPS,
        });
    }
    if let Some(bands) = bands {
        check_bands(bands)?;
    }
    Ok(allow_steps)
}

/// The character's owner rolls an open challenge with her choice of Specialty and points.
fn roll(
    state: &State,
    by: PlayerId,
    challenge: ChallengeId,
    choice: Choice,
    seed: dice::Seed,
) -> Decision {
    let ch = state
        .challenge(challenge)
        .ok_or(Refusal::NoSuchChallenge { challenge })?;
    if !ch.is_open() {
        return Err(Refusal::ChallengeClosed { challenge });
    }
    let character = live(state, ch.character)?;
    // The player taking the action rolls: the sheet's owner, even when that is the GM.
    if character.owner != by {
        return Err(Refusal::NotYourRoll {
            character: character.id,
        });
    }
    let plan = state.plan(challenge, &choice)?;
    let roll = dice::challenge::roll(ch.situation, plan.steps, seed);
    let label = ch.label_of(roll.result);
    Ok(vec![Event::ChallengeRolled {
        challenge,
        character: character.id,
        choice,
        skills_held: plan.skills_held,
        spent: plan.spent,
        pool: plan.pool,
        roll,
        label,
    }])
}

/// The character's owner or the GM tells how a rolled challenge went.
fn narrate(state: &State, by: PlayerId, challenge: ChallengeId, text: String) -> Decision {
    let ch = state
        .challenge(challenge)
        .ok_or(Refusal::NoSuchChallenge { challenge })?;
    if ch.outcome().is_none() {
        return Err(Refusal::NotRolled { challenge });
    }
    let owner = state.character(ch.character).map(|c| c.owner);
    if owner != Some(by) && !state.is_gm(by) {
        return Err(Refusal::NotYourCharacter {
            character: ch.character,
        });
    }
    check_text("narration", &text, NARRATION_LEN, true)?;
    Ok(vec![Event::Narrated {
        challenge,
        by,
        text,
    }])
}

/// The creator removes `player`; a removed GM's seat goes back to the creator first, so the
/// table always has a GM.
fn remove(state: &State, by: PlayerId, player: PlayerId) -> Decision {
    let creator = state.creator();
    if creator != Some(by) {
        return Err(Refusal::NotCreator);
    }
    if player == by {
        return Err(Refusal::CreatorStays);
    }
    if state.seated(player).is_none() {
        return Err(Refusal::NoSuchPlayer { player });
    }
    let mut events = Vec::new();
    if state.is_gm(player) {
        events.push(Event::GmHanded {
            from: player,
            to: by,
        });
    }
    events.push(Event::PlayerRemoved { player });
    Ok(events)
}

fn join(state: &State, by: PlayerId, name: String) -> Decision {
    match state.player(by) {
        Some(p) if p.removed => return Err(Refusal::Removed),
        Some(_) => return Err(Refusal::AlreadySeated),
        None => {}
    }
    if state.seated_players().count() >= MAX_PLAYERS {
        return Err(Refusal::TableFull { most: MAX_PLAYERS });
    }
    if state.players.len() >= SEATS_EVER {
        return Err(Refusal::SeatsEver { most: SEATS_EVER });
    }
    check_text("player's name", &name, NAME_LEN, true)?;
    Ok(vec![Event::Joined {
        player: by,
        name,
        gm: state.gm.is_none(),
    }])
}

/// A live (not retired) character.
fn live(state: &State, character: CharacterId) -> Result<&Character, Refusal> {
    state
        .character(character)
        .filter(|c| !c.retired)
        .ok_or(Refusal::NoSuchCharacter { character })
}

/// A live character that `by` may change: its owner's, or any for the GM.
fn editable(state: &State, by: PlayerId, character: CharacterId) -> Result<&Character, Refusal> {
    let c = live(state, character)?;
    if c.owner != by && !state.is_gm(by) {
        return Err(Refusal::NotYourCharacter { character });
    }
    Ok(c)
}

fn check_text(what: &'static str, text: &str, most: usize, required: bool) -> Result<(), Refusal> {
    if required && text.trim().is_empty() {
        return Err(Refusal::Empty { what });
    }
    if text.chars().count() > most {
        return Err(Refusal::TooLong { what, most });
    }
    Ok(())
}

fn check_sheet(sheet: &Sheet) -> Result<(), Refusal> {
    check_text("character's name", &sheet.name, NAME_LEN, true)?;
    check_text("concept", &sheet.concept, CONCEPT_LEN, false)?;
    check_text("abilities", &sheet.abilities, ABILITIES_LEN, false)?;
    for aptitude in Aptitude::ALL {
        if sheet.aptitudes.get(aptitude) > MAX_APTITUDE_POINTS {
            return Err(Refusal::TooManyPoints {
                aptitude,
                most: MAX_APTITUDE_POINTS,
            });
        }
    }
    let mut skills = BTreeSet::new();
    if let Some(&skill) = sheet.skills.iter().find(|&&s| !skills.insert(s)) {
        return Err(Refusal::SkillTwice { skill });
    }
    let mut specialties = BTreeSet::new();
    for specialty in &sheet.specialties {
        check_text("Specialty", &specialty.name, SPECIALTY_LEN, true)?;
        if !specialties.insert(specialty) {
            return Err(Refusal::SpecialtyTwice {
                specialty: specialty.clone(),
            });
        }
        let under = sheet
            .specialties
            .iter()
            .filter(|s| s.skill == specialty.skill)
            .count();
        if under > SPECIALTIES_PER_SKILL {
            return Err(Refusal::TooManySpecialties {
                skill: specialty.skill,
                most: SPECIALTIES_PER_SKILL,
            });
        }
    }
    Ok(())
}

/// Bands in order covering 1 to 8 exactly once, each with a label.
fn check_bands(bands: &[BandRange]) -> Result<(), Refusal> {
    let mut next = 1u8;
    for band in bands {
        if band.from != next || band.to < band.from || band.to > 8 {
            return Err(Refusal::BandTable);
        }
        check_text("band's label", &band.label, BAND_LABEL_LEN, true)?;
        next = band.to + 1;
    }
    if next != 9 {
        return Err(Refusal::BandTable);
    }
    Ok(())
}

/// Refuses while `character` has an open Challenge, naming it by what is at stake.
fn no_open_challenge(state: &State, character: CharacterId) -> Result<(), Refusal> {
    match state.open_challenge_of(character) {
        Some(open) => Err(Refusal::ChallengeOpen {
            challenge: open.id,
            description: open.description.clone(),
        }),
        None => Ok(()),
    }
}
