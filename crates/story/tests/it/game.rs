//! A small harness for driving games in tests: act as a player, expect refusals, carry motions.

use dice::Seed;
use story::command::{Action, Command};
use story::content::Library;
use story::ids::{AspectId, ObjectId, PlayerId, ProposalId, SceneId, Timestamp};
use story::model::{AspectCategory, Motion, ObjectKind, Phase};
use story::{Event, Refusal, Ruleset, State, decide, evolve};

/// A game, its log, and the clock its commands carry.
pub struct Game {
    pub state: State,
    pub events: Vec<Event>,
    /// The time of the next commands (milliseconds); tests move it by hand.
    pub now: i64,
}

/// Put a motion to the table (the seed matters only if it carries at once).
pub fn propose(motion: Motion) -> Action {
    Action::Propose {
        motion,
        seed: Seed(0),
    }
}

impl Game {
    /// A game opened under `ruleset`.
    pub fn open(ruleset: Ruleset) -> Game {
        let mut game = Game {
            state: State::default(),
            events: Vec::new(),
            now: 0,
        };
        game.act(0, Action::Open { ruleset });
        game
    }

    fn command(&self, by: u32, action: Action) -> Command {
        Command {
            by: PlayerId(by),
            at: Timestamp(self.now),
            action,
        }
    }

    /// Player `by` acts; the command must be accepted. Returns the new events.
    #[track_caller]
    pub fn act(&mut self, by: u32, action: Action) -> Vec<Event> {
        match decide(&self.state, self.command(by, action.clone())) {
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

    /// Player `by` acts at time `at` (which becomes the clock).
    #[track_caller]
    pub fn act_at(&mut self, by: u32, at: i64, action: Action) -> Vec<Event> {
        self.now = at;
        self.act(by, action)
    }

    /// Player `by` acts; the command must be refused, and nothing changes.
    #[track_caller]
    pub fn refused(&self, by: u32, action: Action) -> Refusal {
        match decide(&self.state, self.command(by, action.clone())) {
            Ok(events) => panic!("{action:?} by {by} was accepted: {events:?}"),
            Err(refusal) => refusal,
        }
    }

    /// Player `by` acts; the command must be refused with `expected`, under the rule named
    /// `rule`, and explained in a sentence.
    #[track_caller]
    pub fn refuses(&self, by: u32, action: Action, expected: Refusal, rule: &str) {
        let refusal = self.refused(by, action);
        assert_eq!(refusal, expected);
        assert_eq!(refusal.rule(), rule, "{refusal}");
        assert!(refusal.to_string().ends_with('.'), "a sentence: {refusal}");
    }

    /// The id the last event created (object, aspect, scene, pair, line or proposal).
    pub fn last_id(&self) -> u32 {
        self.state.next_id - 1
    }

    /// The open proposal's id.
    #[track_caller]
    pub fn open_proposal(&self) -> ProposalId {
        self.state.proposal.as_ref().expect("a proposal is open").id
    }

    pub fn join(&mut self, by: u32, name: &str) {
        self.act(by, Action::Join { name: name.into() });
    }

    /// Player `by` proposes `motion`, and every voter who has not agreed yet agrees, in turn,
    /// until it carries. Returns every event, from the proposal to the motion's own.
    #[track_caller]
    pub fn carry(&mut self, by: u32, motion: Motion, seed: u64) -> Vec<Event> {
        let seed = Seed(seed);
        let mut events = self.act(by, Action::Propose { motion, seed });
        while let Some(open) = self.state.proposal.clone() {
            let next = self
                .state
                .voters()
                .into_iter()
                .find(|v| !open.agreed.contains(v))
                .unwrap_or_else(|| panic!("{motion:?}: everyone agreed but it is still open"));
            events.extend(self.act(
                next.0,
                Action::Agree {
                    proposal: open.id,
                    seed,
                },
            ));
        }
        assert!(
            events.contains(&Event::ProposalCarried {
                proposal: match events[0] {
                    Event::ProposalMade { proposal, .. } => proposal,
                    ref other => panic!("{other:?}"),
                }
            }),
            "{motion:?} carried: {events:?}"
        );
        events
    }

    /// Move on to the next phase, with the table's agreement.
    #[track_caller]
    pub fn advance(&mut self, by: u32, to: Phase) -> Vec<Event> {
        self.carry(by, Motion::Advance { to }, 0)
    }

    /// Make a scene's check with the server's dice (a non-empty pool), with the table's
    /// agreement; the last agreement rolls `seed`.
    #[track_caller]
    pub fn check(&mut self, by: u32, scene: SceneId, seed: u64) -> Vec<Event> {
        self.carry(
            by,
            Motion::MakeCheck {
                scene,
                accept_empty_pool: false,
            },
            seed,
        )
    }

    /// End the game, with the table's agreement.
    #[track_caller]
    pub fn end(&mut self, by: u32) -> Vec<Event> {
        self.carry(by, Motion::EndGame, 0)
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

    /// Player `by` proposes a pair for the scene being performed; returns its id.
    pub fn pair(
        &mut self,
        by: u32,
        scene: SceneId,
        character_aspect: AspectId,
        environment_aspect: AspectId,
    ) -> story::ids::PairId {
        self.act(
            by,
            Action::ProposePair {
                scene,
                character_aspect,
                environment_aspect,
                justification: "it fits".into(),
            },
        );
        story::ids::PairId(self.last_id())
    }

    /// The first aspect of a character (its occupation).
    pub fn first_aspect(&self, object: ObjectId) -> AspectId {
        self.state.aspects_of(object).next().unwrap().0
    }

    /// Performs a scene: start, place `object`, propose `pairs` pairs of `character` with
    /// fresh aspects of `object`, check with `seed` (the table agrees), narrate, finish.
    pub fn perform(
        &mut self,
        by: u32,
        scene: SceneId,
        character: ObjectId,
        object: ObjectId,
        pairs: usize,
        seed: u64,
    ) {
        self.act_at(
            by,
            1_700_000_000_000 + i64::from(scene.0),
            Action::StartScene { scene },
        );
        if !self.state.scenes[&scene].setting.objects.contains(&object) {
            self.act(by, Action::PlaceObject { scene, object });
        }
        let character_aspect = self.first_aspect(character);
        for i in 0..pairs {
            let environment_aspect =
                self.aspect(by, object, &format!("weakness {} of scene {}", i, scene.0));
            self.pair(by, scene, character_aspect, environment_aspect);
        }
        self.carry(
            by,
            Motion::MakeCheck {
                scene,
                accept_empty_pool: pairs == 0,
            },
            seed,
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

/// A table at Tell the Story: players 1, 2 and 3 with complete characters, the Finale and
/// one primary scene, and a place with five aspects in the setting of both. No scene started.
pub struct Table {
    pub game: Game,
    pub chars: [ObjectId; 3],
    pub finale: SceneId,
    pub primary: SceneId,
    pub place: ObjectId,
    pub weaknesses: [AspectId; 5],
}

/// The moderator of [`moderated_table`].
pub const MODERATOR: u32 = 9;

/// A [`Table`] under `ruleset` (1.0 or 1.1), without a moderator.
pub fn table(ruleset: Ruleset) -> Table {
    table_with(ruleset, None)
}

/// An edition 1.1 [`Table`] moderated by player [`MODERATOR`].
pub fn moderated_table() -> Table {
    table_with(Ruleset::Edition11, Some(MODERATOR))
}

fn table_with(ruleset: Ruleset, moderator: Option<u32>) -> Table {
    let mut game = Game::open(ruleset);
    if let Some(m) = moderator {
        game.join(m, "Mo");
        // Alone at the table, the moderator's own proposal carries at once.
        game.carry(
            m,
            Motion::ChooseModerator {
                player: Some(PlayerId(m)),
            },
            0,
        );
    }
    game.join(1, "Ada");
    game.join(2, "Bo");
    game.join(3, "Cy");
    game.act(
        1,
        Action::WriteProphecy {
            text: "The tide will not turn.".into(),
        },
    );
    game.advance(1, Phase::Characters);
    let a = game.character(1, "Wren", None);
    let b = game.character(2, "Tamsin", Some(a));
    let c = game.character(3, "Osric", Some(b));
    game.relationship(1, a, c);
    game.advance(2, Phase::Outline);
    let finale = game.finale(1, "Turn the tide");
    let primary = game.scene(2, finale, "Wake the moon-bell");
    let place = game.object(3, "The drowned chapel", ObjectKind::Place);
    let weaknesses = [
        "Half-flooded",
        "Echoing",
        "Crumbling",
        "Candle-lit",
        "Forgotten",
    ]
    .map(|text| game.aspect(3, place, text));
    for scene in [finale, primary] {
        game.act(
            3,
            Action::PlaceObject {
                scene,
                object: place,
            },
        );
    }
    game.advance(3, Phase::Story);
    Table {
        game,
        chars: [a, b, c],
        finale,
        primary,
        place,
        weaknesses,
    }
}

/// The first world of the built-in library.
pub fn a_world() -> story::content::World {
    Library::builtin().world("vael").unwrap().clone()
}
