//! A small harness for driving games in tests: act as a player, expect refusals.

use dice::Seed;
use story::command::{Action, Command};
use story::content::Library;
use story::ids::{AspectId, ObjectId, PlayerId, SceneId, Timestamp};
use story::model::{AspectCategory, ObjectKind, Phase};
use story::{Event, Refusal, Ruleset, State, decide, evolve};

/// A game and its log.
pub struct Game {
    pub state: State,
    pub events: Vec<Event>,
}

impl Game {
    /// A game opened under `ruleset`.
    pub fn open(ruleset: Ruleset) -> Game {
        let mut game = Game {
            state: State::default(),
            events: Vec::new(),
        };
        game.act(0, Action::Open { ruleset });
        game
    }

    /// Player `by` acts; the command must be accepted. Returns the new events.
    #[track_caller]
    pub fn act(&mut self, by: u32, action: Action) -> Vec<Event> {
        let command = Command {
            by: PlayerId(by),
            action: action.clone(),
        };
        match decide(&self.state, command) {
            Ok(events) => {
                for event in &events {
                    self.state = evolve(std::mem::take(&mut self.state), event);
                }
                self.events.extend(events.iter().cloned());
                events
            }
            Err(refusal) => panic!("{action:?} by {by} was refused: {refusal}"),
        }
    }

    /// Player `by` acts; the command must be refused, and nothing changes.
    #[track_caller]
    pub fn refused(&self, by: u32, action: Action) -> Refusal {
        let command = Command {
            by: PlayerId(by),
            action: action.clone(),
        };
        match decide(&self.state, command) {
            Ok(events) => panic!("{action:?} by {by} was accepted: {events:?}"),
            Err(refusal) => refusal,
        }
    }

    /// The id the last event created (object, aspect, scene, pair or line).
    pub fn last_id(&self) -> u32 {
        self.state.next_id - 1
    }

    pub fn join(&mut self, by: u32, name: &str) {
        self.act(by, Action::Join { name: name.into() });
    }

    pub fn advance(&mut self, by: u32, to: Phase) {
        self.act(by, Action::Advance { to });
    }

    /// A character with one aspect in each category; the relationship is with `friend`, or
    /// left out when there is none yet.
    pub fn character(&mut self, by: u32, name: &str, friend: Option<ObjectId>) -> ObjectId {
        self.act(by, Action::CreateCharacter { name: name.into() });
        let me = ObjectId(self.last_id());
        let mut categories = vec![
            (AspectCategory::Occupation, format!("{name}'s trade")),
            (AspectCategory::PhysicalOrMental, format!("{name}'s body")),
            (AspectCategory::Psychological, format!("{name}'s temper")),
            (AspectCategory::Affiliation, format!("{name}'s guild")),
        ];
        if let Some(with) = friend {
            categories.push((
                AspectCategory::Relationship { with },
                format!("{name}'s friend"),
            ));
        }
        for (category, text) in categories {
            self.act(
                by,
                Action::AttachAspect {
                    object: me,
                    text,
                    category: Some(category),
                },
            );
        }
        me
    }

    pub fn relationship(&mut self, by: u32, me: ObjectId, with: ObjectId) -> AspectId {
        self.act(
            by,
            Action::AttachAspect {
                object: me,
                text: "owes a debt".into(),
                category: Some(AspectCategory::Relationship { with }),
            },
        );
        AspectId(self.last_id())
    }

    pub fn object(&mut self, by: u32, name: &str, kind: ObjectKind) -> ObjectId {
        self.act(
            by,
            Action::CreateObject {
                name: name.into(),
                kind,
            },
        );
        ObjectId(self.last_id())
    }

    pub fn aspect(&mut self, by: u32, object: ObjectId, text: &str) -> AspectId {
        self.act(
            by,
            Action::AttachAspect {
                object,
                text: text.into(),
                category: None,
            },
        );
        AspectId(self.last_id())
    }

    pub fn finale(&mut self, by: u32, objective: &str) -> SceneId {
        self.act(
            by,
            Action::SketchFinale {
                objective: objective.into(),
            },
        );
        SceneId(self.last_id())
    }

    pub fn scene(&mut self, by: u32, parent: SceneId, objective: &str) -> SceneId {
        self.act(
            by,
            Action::SketchScene {
                parent,
                objective: objective.into(),
            },
        );
        SceneId(self.last_id())
    }

    /// The first aspect of a character (its occupation).
    pub fn first_aspect(&self, object: ObjectId) -> AspectId {
        self.state.aspects_of(object).next().unwrap().0
    }

    /// Performs a scene: start, place `object`, propose `pairs` pairs of `character` with
    /// fresh aspects of `object`, check with `seed`, narrate, finish.
    pub fn perform(
        &mut self,
        by: u32,
        scene: SceneId,
        character: ObjectId,
        object: ObjectId,
        pairs: usize,
        seed: u64,
    ) {
        self.act(
            by,
            Action::StartScene {
                scene,
                at: Timestamp(1_700_000_000_000 + i64::from(scene.0)),
            },
        );
        if !self.state.scenes[&scene].setting.objects.contains(&object) {
            self.act(by, Action::PlaceObject { scene, object });
        }
        let character_aspect = self.first_aspect(character);
        for i in 0..pairs {
            let environment_aspect =
                self.aspect(by, object, &format!("weakness {} of scene {}", i, scene.0));
            self.act(
                by,
                Action::ProposePair {
                    scene,
                    character_aspect,
                    environment_aspect,
                    justification: "it fits".into(),
                },
            );
        }
        self.act(
            by,
            Action::MakeCheck {
                scene,
                seed: Seed(seed),
                accept_empty_pool: pairs == 0,
            },
        );
        self.act(
            by,
            Action::Narrate {
                scene,
                text: format!("What happened in scene {}.", scene.0),
            },
        );
        self.act(by, Action::FinishScene { scene });
    }
}

/// The first world of the built-in library.
pub fn a_world() -> story::content::World {
    Library::builtin().world("vael").unwrap().clone()
}
