//! The state of a table, and [`evolve`], which applies one event to it. Also the derived facts a
//! page shows: the steps and pool a choice gives, and their exact odds ([`State::odds_of`]).

use crate::command::{BandRange, Choice};
use crate::event::Event;
use crate::ids::{ChallengeId, CharacterId, PlayerId};
use crate::refusal::Refusal;
use crate::sheet::{Aptitude, AptitudePoints, Sheet, Skill};
use dice::Probability;
use dice::challenge::{ChallengeOdds, ChallengeRoll, Improvements, Pool, Situation};

/// Someone seated at the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Player {
    /// Their id from the table layer.
    pub id: PlayerId,
    /// Their name.
    pub name: String,
    /// Removed from the table: they act no more, and no longer count against its players.
    pub removed: bool,
}

/// A character: a sheet, its owner, and the Aptitude points spent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Character {
    /// Its id.
    pub id: CharacterId,
    /// Whose it is.
    pub owner: PlayerId,
    /// What the sheet says.
    pub sheet: Sheet,
    /// Points spent and not yet regained. More than the maximum after an edit lowered it:
    /// current points are then 0, and raising the maximum again does not give them back.
    pub spent: AptitudePoints,
    /// Put away: kept for the record, no longer played.
    pub retired: bool,
}

impl Character {
    /// Current points in `aptitude`: the maximum less the points spent.
    pub fn current(&self, aptitude: Aptitude) -> u32 {
        self.sheet
            .aptitudes
            .get(aptitude)
            .saturating_sub(self.spent.get(aptitude))
    }

    /// Maximum points in `aptitude`.
    pub fn maximum(&self, aptitude: Aptitude) -> u32 {
        self.sheet.aptitudes.get(aptitude)
    }
}

/// Where a Challenge stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChallengeStatus {
    /// Called, waiting for its player's roll.
    Open,
    /// Taken back by the GM.
    Cancelled,
    /// Rolled.
    Rolled(Box<Outcome>),
}

/// How a Challenge went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// The improvements chosen.
    pub choice: Choice,
    /// Relevant Skills held.
    pub skills_held: u32,
    /// The Aptitude point spent, if any.
    pub spent: Option<Aptitude>,
    /// Dice rolled and which is kept.
    pub pool: Pool,
    /// Every face, the result, its band in the seed's table.
    pub roll: ChallengeRoll,
    /// The result's band as the table names it.
    pub label: String,
}

/// A Challenge called by the GM.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Challenge {
    /// Its id.
    pub id: ChallengeId,
    /// Whose roll.
    pub character: CharacterId,
    /// Who called it.
    pub called_by: PlayerId,
    /// What is at stake.
    pub description: String,
    /// d4, d6 or d8.
    pub situation: Situation,
    /// The governing Aptitude.
    pub aptitude: Aptitude,
    /// The relevant Skills.
    pub skills: Vec<Skill>,
    /// The most steps allowed (2 without a special rule).
    pub allow_steps: u32,
    /// The GM's own band table, if any.
    pub custom_bands: Option<Vec<BandRange>>,
    /// Open, cancelled or rolled.
    pub status: ChallengeStatus,
    /// What happened after the roll, and who wrote it.
    pub narration: Option<(PlayerId, String)>,
}

/// The seed's band table ("in most cases, this is the distribution you would use"), in its
/// words.
pub fn seed_bands() -> Vec<BandRange> {
    vec![
        BandRange::new(1, 1, "A failure, with a further consequence"),
        BandRange::new(2, 2, "A failure with no consequence beyond the failure"),
        BandRange::new(3, 4, "A partial success"),
        BandRange::new(5, 6, "A success"),
        BandRange::new(
            7,
            8,
            "A success with a long-term benefit beyond the success",
        ),
    ]
}

impl Challenge {
    /// The band table this Challenge uses: the GM's, or the seed's.
    pub fn bands(&self) -> Vec<BandRange> {
        self.custom_bands.clone().unwrap_or_else(seed_bands)
    }

    /// The label of `result`'s band in this Challenge's table.
    pub fn label_of(&self, result: u8) -> String {
        self.bands()
            .into_iter()
            .find(|b| b.contains(result))
            .map(|b| b.label)
            .unwrap_or_default()
    }

    /// Whether it waits for a roll.
    pub fn is_open(&self) -> bool {
        self.status == ChallengeStatus::Open
    }

    /// How it went, once rolled.
    pub fn outcome(&self) -> Option<&Outcome> {
        match &self.status {
            ChallengeStatus::Rolled(outcome) => Some(outcome),
            _ => None,
        }
    }
}

/// A fight written down: the player characters won, at this cost.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fight {
    /// Who wrote it.
    pub by: PlayerId,
    /// The fight.
    pub description: String,
    /// What it cost.
    pub cost: String,
    /// Who suggested the cost.
    pub suggested_by: Option<PlayerId>,
}

/// What a choice of improvements makes of a Challenge's roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RollPlan {
    /// Relevant Skills the character holds.
    pub skills_held: u32,
    /// The improvements, as the dice crate counts them.
    pub improvements: Improvements,
    /// Steps of improvement, within the Challenge's limit.
    pub steps: u32,
    /// Dice rolled and which is kept.
    pub pool: Pool,
    /// The Aptitude point it spends, if any.
    pub spent: Option<Aptitude>,
}

/// Everything at the table. Built only by [`evolve`]; read freely.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct State {
    /// Everyone who sat at the table, in the order they joined (removed ones included).
    pub players: Vec<Player>,
    /// Who holds the GM seat (nobody before the first player joins).
    pub gm: Option<PlayerId>,
    /// Every sheet ever made, by [`CharacterId`] (retired ones included).
    pub characters: Vec<Character>,
    /// Every Challenge ever called, by [`ChallengeId`].
    pub challenges: Vec<Challenge>,
    /// Fights written down, in order.
    pub fights: Vec<Fight>,
    /// Events applied.
    pub version: u64,
}

/// Applies one event. Never fails and never panics, whatever the event and the state: an event
/// that could not have been decided here (a crafted or damaged log) still gives some state.
pub fn evolve(mut state: State, event: &Event) -> State {
    state.apply(event);
    state
}

impl State {
    /// An empty table.
    pub fn new() -> State {
        State::default()
    }

    /// Replays a log from the beginning.
    pub fn replay<'a>(events: impl IntoIterator<Item = &'a Event>) -> State {
        events.into_iter().fold(State::new(), evolve)
    }

    /// A player who sat at the table, removed or not (for their name).
    pub fn player(&self, id: PlayerId) -> Option<&Player> {
        self.players.iter().find(|p| p.id == id)
    }

    /// A player seated at the table now (not removed).
    pub fn seated(&self, id: PlayerId) -> Option<&Player> {
        self.player(id).filter(|p| !p.removed)
    }

    /// The players seated now, in the order they joined.
    pub fn seated_players(&self) -> impl Iterator<Item = &Player> {
        self.players.iter().filter(|p| !p.removed)
    }

    /// The table's creator: the first to join (who held the GM seat first).
    pub fn creator(&self) -> Option<PlayerId> {
        self.players.first().map(|p| p.id)
    }

    /// Whether `id` holds the GM seat.
    pub fn is_gm(&self, id: PlayerId) -> bool {
        self.gm == Some(id)
    }

    /// A character, retired or not.
    pub fn character(&self, id: CharacterId) -> Option<&Character> {
        self.characters.get(id.index())
    }

    /// A player's live characters.
    pub fn characters_of(&self, owner: PlayerId) -> impl Iterator<Item = &Character> {
        self.characters
            .iter()
            .filter(move |c| c.owner == owner && !c.retired)
    }

    /// A Challenge.
    pub fn challenge(&self, id: ChallengeId) -> Option<&Challenge> {
        self.challenges.get(id.index())
    }

    /// The open Challenge of a character, if any (at most one).
    pub fn open_challenge_of(&self, character: CharacterId) -> Option<&Challenge> {
        self.challenges
            .iter()
            .rev()
            .find(|c| c.character == character && c.is_open())
    }

    /// What `choice` makes of the open `challenge`'s roll: the steps (each relevant Skill held,
    /// applied by itself; the Specialty; the Aptitude point), the dice and which is kept. The
    /// same checks as rolling, except who asks; so a page can show a choice's odds or why it is
    /// not allowed.
    pub fn plan(&self, challenge: ChallengeId, choice: &Choice) -> Result<RollPlan, Refusal> {
        let ch = self
            .challenge(challenge)
            .ok_or(Refusal::NoSuchChallenge { challenge })?;
        if !ch.is_open() {
            return Err(Refusal::ChallengeClosed { challenge });
        }
        let character = self.character(ch.character).filter(|c| !c.retired).ok_or(
            Refusal::NoSuchCharacter {
                character: ch.character,
            },
        )?;
        let skills_held = ch
            .skills
            .iter()
            .filter(|&&s| character.sheet.has(s))
            .count();
        let skills_held = u32::try_from(skills_held).unwrap_or(u32::MAX);
        if choice.aptitude_points > 1 {
            return Err(Refusal::OneAptitudePoint {
                asked: choice.aptitude_points,
            });
        }
        let spend = choice.aptitude_points == 1;
        if spend && character.current(ch.aptitude) == 0 {
            return Err(Refusal::NoAptitudePoint {
                aptitude: ch.aptitude,
            });
        }
        if let Some(specialty) = &choice.specialty {
            if !character.sheet.has_specialty(specialty) {
                return Err(Refusal::UnknownSpecialty {
                    specialty: specialty.clone(),
                });
            }
            if !ch.skills.contains(&specialty.skill) {
                return Err(Refusal::SpecialtyNotRelevant {
                    skill: specialty.skill,
                });
            }
            if skills_held > 0 {
                return Err(Refusal::SpecialtyWithSkill);
            }
        }
        let improvements = Improvements {
            skills_applicable: skills_held,
            specialty: choice.specialty.is_some(),
            aptitude_point: spend,
        };
        let steps = improvements.steps();
        let chosen = steps - skills_held;
        if chosen > 0 && steps > ch.allow_steps {
            return Err(Refusal::TooManySteps {
                steps,
                allowed: ch.allow_steps,
            });
        }
        // Skills apply by themselves; beyond the limit they simply add nothing.
        let steps = steps.min(ch.allow_steps);
        Ok(RollPlan {
            skills_held,
            improvements,
            steps,
            pool: Pool::for_steps(steps),
            spent: spend.then_some(ch.aptitude),
        })
    }

    /// The exact chance of every result (and so of every band) of the open `challenge` rolled
    /// with `choice`: what a page shows as the player chooses. Refused as rolling would be.
    pub fn odds_of(
        &self,
        challenge: ChallengeId,
        choice: &Choice,
    ) -> Result<ChallengeOdds, Refusal> {
        let plan = self.plan(challenge, choice)?;
        let situation = self.challenges[challenge.index()].situation;
        Ok(ChallengeOdds::new(situation, plan.steps))
    }

    /// The exact chance of each band of the Challenge's own table (the GM's, or the seed's),
    /// worst first, with `choice`.
    pub fn band_odds(
        &self,
        challenge: ChallengeId,
        choice: &Choice,
    ) -> Result<Vec<(BandRange, Probability)>, Refusal> {
        let odds = self.odds_of(challenge, choice)?;
        let bands = self.challenges[challenge.index()].bands();
        Ok(bands
            .into_iter()
            .map(|band| {
                let p = (band.from..=band.to)
                    .filter_map(|r| odds.results.get(usize::from(r).wrapping_sub(1)))
                    .cloned()
                    .sum();
                (band, p)
            })
            .collect())
    }

    fn apply(&mut self, event: &Event) {
        self.version += 1;
        match event {
            Event::Joined { player, name, gm } => {
                if self.player(*player).is_none() {
                    self.players.push(Player {
                        id: *player,
                        name: name.clone(),
                        removed: false,
                    });
                }
                if *gm {
                    self.gm = Some(*player);
                }
            }
            Event::SheetCreated { owner, sheet, .. } => {
                // The id is the index: a crafted event's own number is not trusted.
                let id = CharacterId::of(self.characters.len());
                self.characters.push(Character {
                    id,
                    owner: *owner,
                    sheet: sheet.clone(),
                    spent: AptitudePoints::default(),
                    retired: false,
                });
            }
            Event::SheetEdited {
                character,
                sheet,
                spent,
                ..
            } => {
                if let Some(c) = self.characters.get_mut(character.index()) {
                    c.sheet = sheet.clone();
                    c.spent = *spent;
                }
            }
            Event::SheetRetired { character, .. } => {
                if let Some(c) = self.characters.get_mut(character.index()) {
                    c.retired = true;
                }
            }
            Event::ChallengeCalled {
                character,
                by,
                description,
                situation,
                aptitude,
                skills,
                allow_steps,
                bands,
                ..
            } => {
                let id = ChallengeId::of(self.challenges.len());
                self.challenges.push(Challenge {
                    id,
                    character: *character,
                    called_by: *by,
                    description: description.clone(),
                    situation: *situation,
                    aptitude: *aptitude,
                    skills: skills.clone(),
                    allow_steps: *allow_steps,
                    custom_bands: bands.clone(),
                    status: ChallengeStatus::Open,
                    narration: None,
                });
            }
            Event::ChallengeCancelled { challenge, .. } => {
                if let Some(c) = self.challenges.get_mut(challenge.index()) {
                    c.status = ChallengeStatus::Cancelled;
                }
            }
            Event::ChallengeRolled {
                challenge,
                character,
                choice,
                skills_held,
                spent,
                pool,
                roll,
                label,
            } => {
                if let Some(c) = self.challenges.get_mut(challenge.index()) {
                    c.status = ChallengeStatus::Rolled(Box::new(Outcome {
                        choice: choice.clone(),
                        skills_held: *skills_held,
                        spent: *spent,
                        pool: *pool,
                        roll: roll.clone(),
                        label: label.clone(),
                    }));
                }
                if let Some(aptitude) = spent {
                    self.spend(*character, *aptitude);
                }
            }
            Event::PointSpent {
                character,
                aptitude,
                ..
            } => self.spend(*character, *aptitude),
            Event::Rested { regained } => {
                for (character, points) in regained {
                    if let Some(c) = self.characters.get_mut(character.index()) {
                        for a in Aptitude::ALL {
                            let spent = c.spent.get_mut(a);
                            *spent = spent.saturating_sub(points.get(a));
                        }
                    }
                }
            }
            Event::FightRecorded {
                by,
                description,
                cost,
                suggested_by,
            } => self.fights.push(Fight {
                by: *by,
                description: description.clone(),
                cost: cost.clone(),
                suggested_by: *suggested_by,
            }),
            Event::Narrated {
                challenge,
                by,
                text,
            } => {
                if let Some(c) = self.challenges.get_mut(challenge.index()) {
                    c.narration = Some((*by, text.clone()));
                }
            }
            Event::GmHanded { to, .. } => self.gm = Some(*to),
            Event::PlayerRemoved { player } => {
                if let Some(p) = self.players.iter_mut().find(|p| p.id == *player) {
                    p.removed = true;
                }
            }
        }
    }

    fn spend(&mut self, character: CharacterId, aptitude: Aptitude) {
        if let Some(c) = self.characters.get_mut(character.index()) {
            let most = c.sheet.aptitudes.get(aptitude);
            let spent = c.spent.get_mut(aptitude);
            // Only a current point is spent (and a crafted event never lowers `spent`).
            if *spent < most {
                *spent += 1;
            }
        }
    }
}
