//! The Challenge game's engine, through its public interface: one integration-test binary.

mod challenges;
mod math;
mod refusals;
mod replay;
mod sheets;
mod table;

use challenge::{
    Action, Aptitude, AptitudePoints, ChallengeId, CharacterId, Choice, Command, Event, PlayerId,
    Refusal, Sheet, Situation, Skill, Specialty, State, decide, evolve,
};
use dice::Seed;

/// The first to join: the GM.
pub const GM: PlayerId = PlayerId(1);
/// A player.
pub const ADA: PlayerId = PlayerId(2);
/// Another player.
pub const BO: PlayerId = PlayerId(3);

/// A table being played, with its log.
#[derive(Default)]
pub struct Table {
    /// The state after the log.
    pub state: State,
    /// Every event so far.
    pub log: Vec<Event>,
}

impl Table {
    /// An empty table.
    pub fn new() -> Table {
        Table::default()
    }

    /// Gail (the GM), Ada and Bo seated; Ada's Mira (character 0) made.
    pub fn seated() -> Table {
        let mut t = Table::new();
        t.act(GM, join("Gail"));
        t.act(ADA, join("Ada"));
        t.act(BO, join("Bo"));
        t.act(
            ADA,
            Action::CreateSheet {
                owner: None,
                sheet: mira(),
            },
        );
        t
    }

    /// Decides and applies; panics on a refusal.
    pub fn act(&mut self, by: PlayerId, action: Action) -> Vec<Event> {
        let events = decide(&self.state, Command::new(by, action.clone()))
            .unwrap_or_else(|r| panic!("{action:?} by {by} refused: {r}"));
        for event in &events {
            self.state = evolve(std::mem::take(&mut self.state), event);
        }
        self.log.extend(events.iter().cloned());
        events
    }

    /// The refusal of a command that must be refused (the state is left as it was).
    pub fn refuse(&self, by: PlayerId, action: Action) -> Refusal {
        match decide(&self.state, Command::new(by, action.clone())) {
            Ok(events) => panic!("{action:?} by {by} was allowed: {events:?}"),
            Err(refusal) => refusal,
        }
    }

    /// The GM calls a Challenge with the rules' defaults; its id.
    pub fn call(
        &mut self,
        character: CharacterId,
        situation: Situation,
        aptitude: Aptitude,
        skills: &[Skill],
    ) -> ChallengeId {
        self.act(GM, call(character, situation, aptitude, skills));
        ChallengeId::of(self.state.challenges.len() - 1)
    }

    /// Mira's current points.
    pub fn current(&self, aptitude: Aptitude) -> u32 {
        self.state.characters[0].current(aptitude)
    }
}

/// `Join`.
pub fn join(name: &str) -> Action {
    Action::Join {
        name: name.to_owned(),
    }
}

/// `CallChallenge` with the rules' defaults (two steps, the seed's bands).
pub fn call(
    character: CharacterId,
    situation: Situation,
    aptitude: Aptitude,
    skills: &[Skill],
) -> Action {
    Action::CallChallenge {
        character,
        description: "Cross the flooded ford".to_owned(),
        situation,
        aptitude,
        skills: skills.to_vec(),
        allow_steps: None,
        bands: None,
    }
}

/// Mira, Ada's river scout: Awareness 2, Physicality 3, Knowledge 1, Charisma 0; Surroundings
/// and Might; a Specialty, Animals: horses.
pub fn mira() -> Sheet {
    Sheet {
        name: "Mira".to_owned(),
        concept: "River scout".to_owned(),
        aptitudes: AptitudePoints {
            knowledge: 1,
            awareness: 2,
            charisma: 0,
            physicality: 3,
        },
        skills: vec![Skill::Surroundings, Skill::Might],
        specialties: vec![horses()],
        abilities: "Can hold her breath for ten minutes.".to_owned(),
    }
}

/// Mira's Specialty.
pub fn horses() -> Specialty {
    Specialty {
        skill: Skill::Animals,
        name: "horses".to_owned(),
    }
}

/// A seed whose roll of `steps` in `situation` shows exactly `faces`, in order: how the tests
/// give the dice (the engine only ever takes a seed, like the server's).
pub fn seed_for(situation: Situation, steps: u32, faces: &[u8]) -> Seed {
    (0..2_000_000u64)
        .map(Seed)
        .find(|&seed| dice::challenge::roll(situation, steps, seed).faces == faces)
        .unwrap_or_else(|| panic!("no seed shows {faces:?}"))
}

/// `Roll` of `challenge` with `choice`, the dice showing `faces`.
pub fn roll(table: &Table, challenge: ChallengeId, choice: Choice, faces: &[u8]) -> Action {
    let plan = table
        .state
        .plan(challenge, &choice)
        .unwrap_or_else(|r| panic!("{choice:?} refused: {r}"));
    let situation = table.state.challenges[challenge.index()].situation;
    Action::Roll {
        challenge,
        choice,
        seed: seed_for(situation, plan.steps, faces),
    }
}

/// Checks a refusal's code, rule and words.
#[track_caller]
pub fn check_refusal(refusal: &Refusal, code: &str, rule: &str, text: &str) {
    assert_eq!(
        (refusal.code(), refusal.rule(), refusal.to_string().as_str()),
        (code, rule, text)
    );
}
