//! Creatures' special rules: the optional ones used instead of fighting (`pay_to_pass`,
//! `let_go`), the mandatory ones applied in the battle (`wills_then_strength`, `drain_before`,
//! `draw_is_loss`, `only_wills`, `only_strength`, `rises_again`), their refusals, and a
//! scripted game of them replayed from its log.

use crate::encounters::{
    battle_of, before, card, fight, me, meet, outcome_seed, strength, terrain, willpower,
};
use crate::*;
use board::content::{AdventureCard, ChanceKind, SpaceKind, SpecialKind, Terrain};
use board::model::{Experience, Gold, Step};
use board::{BattleKind, MoveKind};
use dice::Probability;
use dice::opposed::{BattleOdds, BattleOutcome, opposed_odds, three_lives_odds};

/// The first seed whose `Fight` in `kind` (as the engine decides it) gives events satisfying
/// `wanted`.
fn fight_seed(state: &State, kind: BattleKind, wanted: impl Fn(&[Event]) -> bool) -> u64 {
    (0..10_000u64)
        .find(|&s| {
            decide(state, Command::new(P1, fight(kind, s))).is_ok_and(|events| wanted(&events))
        })
        .expect("some seed")
}

/// One `BattleFought`: kind, Magic drained, rolls, outcome.
type Fought = (BattleKind, u32, Vec<(u8, u8)>, BattleOutcome);

/// Every `BattleFought` of a command.
fn battles(events: &[Event]) -> Vec<Fought> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::BattleFought {
                kind,
                drained,
                rolls,
                outcome,
                ..
            } => Some((*kind, *drained, rolls.clone(), *outcome)),
            _ => None,
        })
        .collect()
}

fn rule_of(name: &str) -> SpecialKind {
    let content = content();
    match &content.adventures[card(name).index()] {
        AdventureCard::Creature(c) => c.special.as_ref().expect("a special rule").rule,
        AdventureCard::Opportunity(_) => panic!("a creature"),
    }
}

#[test]
fn every_rule_of_the_vocabulary_is_on_some_card() {
    let content = content();
    let mut names: Vec<&str> = content
        .creatures()
        .filter_map(|c| c.special.as_ref().map(|r| r.rule.name()))
        .collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(
        names,
        [
            "drain_before",
            "draw_is_loss",
            "let_go",
            "only_strength",
            "only_wills",
            "pay_to_pass",
            "rises_again",
            "wills_then_strength"
        ]
    );
    assert!(!rule_of("Ogre Tollkeeper").mandatory());
    assert!(!rule_of("Fleeing Smuggler").mandatory());
    assert!(rule_of("Drowned Priest").mandatory());
}

#[test]
fn every_creature_is_met() {
    let content = content();
    for creature in content.creatures() {
        let state = meet(&creature.name);
        assert_eq!(
            state.turn().unwrap().step,
            Step::Battle,
            "{}",
            creature.name
        );
    }
}

#[test]
fn pay_to_pass_pays_and_the_creature_stays() {
    // Ogre Tollkeeper: pay 2 Gold to pass.
    assert_eq!(
        rule_of("Ogre Tollkeeper"),
        SpecialKind::PayToPass { gold: 2 }
    );
    let refusal = refused(&before("Ogre Tollkeeper"), P1, Action::UseSpecialRule);
    assert_eq!(refusal, Refusal::EncounterAfterMoving);
    let state = meet("Ogre Tollkeeper");
    let gold = me(&state).gold;
    let (after, events) = play(state.clone(), P1, Action::UseSpecialRule);
    let id = card("Ogre Tollkeeper");
    assert_eq!(
        events,
        vec![Event::CreaturePassed {
            player: P1,
            card: id,
            paid: Gold(2)
        }]
    );
    assert_eq!(me(&after).gold, Gold(gold.0 - 2));
    assert_eq!(after.spaces[terrain()].adventure, Some(id));
    assert_eq!(after.turn().unwrap().step, Step::Moved);
    // Passed, it is not fought this turn, nor passed twice.
    assert_eq!(
        refused(&after, P1, fight(BattleKind::Strength, 0)),
        Refusal::AlreadyFought
    );
    assert_eq!(
        refused(&after, P1, Action::UseSpecialRule),
        Refusal::AlreadyFought
    );
    run(after, P1, Action::EndTurn);

    // She may fight it instead.
    let (_, events) = play(state.clone(), P1, fight(BattleKind::Strength, 0));
    assert_eq!(battles(&events).len(), 1);

    // Not enough Gold.
    let mut poor = state;
    poor.adventurers[0].gold = Gold(1);
    let refusal = refused(&poor, P1, Action::UseSpecialRule);
    assert_eq!(
        refusal,
        Refusal::PassGold {
            cost: Gold(2),
            has: Gold(1)
        }
    );
    assert_eq!(
        (refusal.code(), refusal.rule()),
        ("pass_gold", "Special Battles")
    );
    assert_eq!(refusal.to_string(), "Passing costs 2 Gold and you have 1.");
}

#[test]
fn let_go_discards_it_for_nothing() {
    let state = meet("Fleeing Smuggler");
    let before_me = me(&state).clone();
    let (after, events) = play(state, P1, Action::UseSpecialRule);
    let id = card("Fleeing Smuggler");
    assert_eq!(
        events,
        vec![Event::CreatureLetGo {
            player: P1,
            card: id,
            space: SpaceId::of(terrain())
        }]
    );
    assert_eq!(me(&after), &before_me, "she gains nothing");
    assert_eq!(after.spaces[terrain()].adventure, None);
    assert_eq!(after.decks.adventure.discard, vec![id]);
    assert_eq!(after.turn().unwrap().step, Step::Moved);
    run(after, P1, Action::EndTurn);
}

#[test]
fn mandatory_rules_and_creatures_without_rules_cannot_be_used() {
    let refusal = refused(&meet("Drowned Priest"), P1, Action::UseSpecialRule);
    assert_eq!(
        refusal,
        Refusal::MandatoryRule {
            creature: "Drowned Priest".to_owned(),
            rule: "wills_then_strength"
        }
    );
    assert_eq!(
        (refusal.code(), refusal.rule()),
        ("mandatory_rule", "Special Battles")
    );
    assert!(
        refusal
            .to_string()
            .contains("(wills_then_strength) is mandatory")
    );
    let refusal = refused(&meet("Hill Wolf"), P1, Action::UseSpecialRule);
    assert_eq!(
        refusal,
        Refusal::NoSpecialRule {
            creature: "Hill Wolf".to_owned()
        }
    );
    assert_eq!(refusal.code(), "no_special_rule");
    assert_eq!(
        refused(&meet("Abandoned Camp"), P1, Action::UseSpecialRule),
        Refusal::NoCreature
    );
}

/// A battle of Wills then Strength, as the engine computes its odds.
fn wills_then_strength_odds(w: i32, tw: i32, s: i32, ts: i32) -> BattleOdds {
    let first = opposed_odds(w, tw);
    let second = opposed_odds(s, ts);
    BattleOdds {
        win: &first.win * &second.win,
        draw: &first.draw + &(&first.win * &second.draw),
        loss: &first.loss + &(&first.win * &second.loss),
    }
}

#[test]
fn wills_then_strength_needs_both_battles_won() {
    // Drowned Priest: Willpower 5, then Strength 3.
    let state = meet("Drowned Priest");
    let refusal = refused(&state, P1, fight(BattleKind::Strength, 0));
    assert_eq!(
        refusal,
        Refusal::SpecialBattle {
            creature: "Drowned Priest".to_owned(),
            rule: "wills_then_strength",
            asked: BattleKind::Strength
        }
    );
    assert_eq!(
        (refusal.code(), refusal.rule()),
        ("special_battle", "Special Battles")
    );
    let (w, s) = (willpower(&state), strength(&state));
    let odds = state
        .battle_odds(P1, BattleKind::Wills, &[], false)
        .unwrap();
    assert_eq!(odds, wills_then_strength_odds(w, 5, s, 3));
    assert_eq!(&(&odds.win + &odds.draw) + &odds.loss, Probability::one());

    // Both won: two battles, then the defeat.
    let seed = fight_seed(&state, BattleKind::Wills, |e| {
        battles(e).len() == 2 && battles(e)[1].3 == BattleOutcome::Win
    });
    let (after, events) = play(state.clone(), P1, fight(BattleKind::Wills, seed));
    let fought = battles(&events);
    assert_eq!(fought[0].0, BattleKind::Wills);
    assert_eq!(fought[0].3, BattleOutcome::Win);
    assert_eq!(fought[1].0, BattleKind::Strength);
    let (mine, theirs) = fought[1].2[0];
    assert!(i32::from(mine) + s > i32::from(theirs) + 3);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::CreatureDefeated { .. }))
    );
    assert_eq!(
        me(&after).experience,
        Experience(me(&state).experience.0 + 3)
    );

    // Wills won, Strength lost: a loss, one Health, and it stays.
    let seed = fight_seed(&state, BattleKind::Wills, |e| {
        battles(e).len() == 2 && battles(e)[1].3 == BattleOutcome::Loss
    });
    let (after, events) = play(state.clone(), P1, fight(BattleKind::Wills, seed));
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, Event::CreatureDefeated { .. }))
    );
    assert_eq!(me(&after).health.right, me(&state).health.right - 1);
    assert_eq!(
        after.spaces[terrain()].adventure,
        Some(card("Drowned Priest"))
    );

    // Wills lost: no Battle of Strength.
    let seed = fight_seed(&state, BattleKind::Wills, |e| {
        battles(e)
            .first()
            .is_some_and(|b| b.3 == BattleOutcome::Loss)
    });
    let (_, events) = play(state, P1, fight(BattleKind::Wills, seed));
    assert_eq!(battles(&events).len(), 1);
}

#[test]
fn drain_before_takes_magic_before_the_first_roll() {
    // Blood Lord of Cinder Pass: lose 1 Magic, then a Battle of Wills against 6.
    let state = meet("Blood Lord of Cinder Pass");
    let magic = me(&state).magic;
    let seed = outcome_seed(willpower(&state) - 1, 6, BattleOutcome::Draw);
    let (after, events) = play(state.clone(), P1, fight(BattleKind::Wills, seed));
    let fought = battles(&events);
    assert_eq!(fought.len(), 1);
    assert_eq!((fought[0].1, fought[0].3), (1, BattleOutcome::Draw));
    let (mine, theirs) = fought[0].2[0];
    assert_eq!(
        i32::from(mine) + willpower(&state) - 1,
        i32::from(theirs) + 6,
        "her Willpower was weakened"
    );
    assert_eq!(me(&after).magic.right, magic.right - 1);
    assert_eq!(me(&after).magic.left, magic.left + 1);

    // With no Magic on the right, nothing is drained.
    let mut empty = state;
    empty.adventurers[0].magic.left += empty.adventurers[0].magic.right;
    empty.adventurers[0].magic.right = 0;
    assert_eq!(
        empty.battle_odds(P1, BattleKind::Wills, &[], false),
        Some(opposed_odds(0, 6))
    );
    let (_, events) = play(empty, P1, fight(BattleKind::Wills, 0));
    assert_eq!(battles(&events)[0].1, 0);
}

#[test]
fn draw_is_loss_turns_a_drawn_roll_into_a_loss() {
    // Bone Magus: Willpower 4 (then Strength 2); a draw counts as a loss.
    let state = meet("Bone Magus");
    let w = willpower(&state);
    let plain = opposed_odds(w, 4);
    assert_eq!(
        state.battle_odds(P1, BattleKind::Wills, &[], false),
        Some(BattleOdds {
            win: plain.win.clone(),
            draw: Probability::zero(),
            loss: &plain.loss + &plain.draw,
        })
    );
    let seed = fight_seed(&state, BattleKind::Wills, |e| {
        battles(e)[0]
            .2
            .first()
            .is_some_and(|&(m, t)| i32::from(m) + w == i32::from(t) + 4)
    });
    let (after, events) = play(state.clone(), P1, fight(BattleKind::Wills, seed));
    assert_eq!(battles(&events)[0].3, BattleOutcome::Loss);
    assert_eq!(me(&after).health.right, me(&state).health.right - 1);
    assert_eq!(after.spaces[terrain()].adventure, Some(card("Bone Magus")));
}

#[test]
fn only_wills_and_only_strength_forbid_the_other_battle() {
    // Horned Shaman: Strength 4 first, Willpower 3; only a Battle of Wills, for free.
    let state = meet("Horned Shaman");
    let refusal = refused(&state, P1, fight(BattleKind::Strength, 0));
    assert_eq!(
        refusal,
        Refusal::SpecialBattle {
            creature: "Horned Shaman".to_owned(),
            rule: "only_wills",
            asked: BattleKind::Strength
        }
    );
    assert_eq!(
        refusal.to_string(),
        "The Horned Shaman's special rule (only_wills) allows no Battle of Strength."
    );
    assert_eq!(
        state.battle_odds(P1, BattleKind::Strength, &[], false),
        None
    );
    assert_eq!(
        state.battle_odds(P1, BattleKind::Wills, &[], false),
        Some(opposed_odds(willpower(&state), 3))
    );
    let (after, events) = play(state.clone(), P1, fight(BattleKind::Wills, 0));
    assert!(matches!(
        events[0],
        Event::BattleFought { magic_paid: 0, .. }
    ));
    if battle_of(&events).3 != BattleOutcome::Loss {
        assert_eq!(me(&after).magic, me(&state).magic, "nothing to pay");
    }

    // Stone Sentinel: Strength 6 first, Willpower 2; only a Battle of Strength.
    let state = meet("Stone Sentinel");
    assert_eq!(
        refused(&state, P1, fight(BattleKind::Wills, 0)),
        Refusal::SpecialBattle {
            creature: "Stone Sentinel".to_owned(),
            rule: "only_strength",
            asked: BattleKind::Wills
        }
    );
    assert_eq!(state.battle_odds(P1, BattleKind::Wills, &[], false), None);
    run(state, P1, fight(BattleKind::Strength, 0));
}

/// The plains spaces of the board, in order.
fn plains() -> Vec<usize> {
    let content = content();
    (0..content.board.spaces.len())
        .filter(|&i| content.board.spaces[i].kind == SpaceKind::Terrain(Terrain::Plains))
        .collect()
}

#[test]
fn rises_again_puts_it_back_on_another_empty_space_of_its_terrain() {
    // Restless Dead: Willpower 3; rises again on the Plains.
    assert_eq!(
        rule_of("Restless Dead"),
        SpecialKind::RisesAgain {
            terrain: Terrain::Plains
        }
    );
    let state = meet("Restless Dead");
    let from = terrain();
    assert!(plains().contains(&from));
    let experience = me(&state).experience;
    let seed = outcome_seed(willpower(&state), 3, BattleOutcome::Win);
    let (after, events) = play(state.clone(), P1, fight(BattleKind::Wills, seed));
    let id = card("Restless Dead");
    let to = events
        .iter()
        .find_map(|e| match e {
            Event::CreatureRose { card, from: f, to } => {
                assert_eq!((*card, f.index()), (id, from));
                Some(to.index())
            }
            _ => None,
        })
        .expect("it rises");
    assert_ne!(to, from);
    assert!(plains().contains(&to));
    assert_eq!(after.spaces[to].adventure, Some(id));
    assert_eq!(after.spaces[from].adventure, None);
    assert!(after.decks.adventure.discard.is_empty());
    assert_eq!(me(&after).experience, Experience(experience.0 + 2));

    // Every other Plains space taken: it stays discarded.
    let mut full = state;
    for &at in plains().iter().filter(|&&at| at != from) {
        let other = full.decks.adventure.draw.remove(0);
        full.spaces[at].adventure = Some(other);
    }
    let (after, events) = play(full, P1, fight(BattleKind::Wills, seed));
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, Event::CreatureRose { .. }))
    );
    assert_eq!(after.decks.adventure.discard, vec![id]);
}

/// The Adventure cards of these names in this order, then the rest in content order.
fn adventure_deck(first: &[&str]) -> Vec<AdventureId> {
    let content = content();
    let mut deck: Vec<AdventureId> = first.iter().map(|n| card(n)).collect();
    let rest: Vec<AdventureId> = (0..content.adventures.len())
        .map(AdventureId::of)
        .filter(|c| !deck.contains(c))
        .collect();
    deck.extend(rest);
    deck
}

#[test]
fn a_scripted_game_of_special_rules_and_choices_replays_to_the_live_state() {
    let content = content();
    let wind = chance(&content, |k| matches!(k, ChanceKind::Wind { .. }));
    let chance_deck = vec![
        chance(&content, |k| k == ChanceKind::Terrain(Terrain::Plains)),
        chance(&content, |k| k == ChanceKind::Terrain(Terrain::Mountains)),
        wind,
        wind,
        wind,
        wind,
    ];
    // Plains: Ashen Downs, Gull Meadows, Reedwater Landing, Windswept Steppe, Harrow Fields,
    // Barrowlea, Tollgate Plain. Mountains: Crowfoot Crags, Grey Teeth, Cinder Pass, Ironback
    // Ridge, Stoneharp Heights, Old Quarry Hills.
    let deck = adventure_deck(&[
        "Ogre Tollkeeper",
        "Abandoned Camp",
        "Healing Spring",
        "Traveller's Shortcut",
        "Standing Stones",
        "Grateful Farmer",
        "Fleeing Smuggler",
        "Hill Wolf",
        "Cave Bear",
        "Drowned Priest",
        "Blood Lord of Cinder Pass",
        "Tusked Boar",
        "Bog Lurker",
    ]);
    // Drogo, Tobin and Pell: they start in the Fortress, the Thieves' Guild and the Tower.
    let mut setup = set_up_event(&content, &[5, 1, 6], chance_deck);
    if let Event::GameSetUp(set_up) = &mut setup {
        set_up.adventure_deck = deck;
    }
    let mut state = State::new(content.clone());
    let mut log = vec![setup.clone()];
    state = evolve(state, &setup);
    let mut step = |state: State, by: PlayerId, action: Action| {
        let (state, events) = play(state, by, action);
        log.extend(events);
        state
    };
    let walk = |clockwise| Action::Move(MoveKind::Walk { clockwise });
    let horse = |clockwise| Action::Move(MoveKind::Horse { clockwise });
    let end = Action::EndTurn;

    // Player 1 (the Fortress) walks onto the Ogre and pays to pass.
    state = step(state, P1, draw(0));
    state = step(state, P1, walk(true));
    state = step(state, P1, Action::UseSpecialRule);
    state = step(state, P1, end.clone());
    // Player 2 (the Thieves' Guild) walks onto the Blood Lord: drained.
    state = step(state, P2, draw(0));
    state = step(state, P2, walk(false));
    state = step(state, P2, fight(BattleKind::Wills, 5));
    state = step(state, P2, end.clone());
    // Player 3 (the Magic Tower) walks onto the Drowned Priest and wins the Battle of Wills.
    state = step(state, P3, draw(0));
    state = step(state, P3, walk(false));
    let seed = (0..10_000u64)
        .find(|&s| {
            decide(&state, Command::new(P3, fight(BattleKind::Wills, s)))
                .is_ok_and(|e| battles(&e).len() == 2)
        })
        .unwrap();
    state = step(state, P3, fight(BattleKind::Wills, seed));
    state = step(state, P3, end.clone());
    // Player 1 rides to the Fleeing Smuggler and lets it go.
    state = step(state, P1, draw(0));
    state = step(state, P1, horse(false));
    state = step(state, P1, Action::UseSpecialRule);
    state = step(state, P1, end.clone());
    // Player 2 walks away from the Blood Lord (not moving would mean fighting it again).
    state = step(state, P2, draw(0));
    state = step(state, P2, walk(true));
    state = step(state, P2, end.clone());
    // Player 3 rides to the Traveller's Shortcut and takes it back towards the Tower.
    state = step(state, P3, draw(0));
    state = step(state, P3, horse(true));
    state = step(
        state,
        P3,
        Action::UseOpportunity {
            seed: Seed(0),
            clockwise: Some(false),
            lose_item: None,
        },
    );
    state = step(state, P3, end);

    let has = |f: &dyn Fn(&Event) -> bool| log.iter().any(f);
    assert!(has(&|e| matches!(e, Event::CreaturePassed { .. })));
    assert!(has(&|e| matches!(e, Event::CreatureLetGo { .. })));
    assert!(has(&|e| matches!(
        e,
        Event::BattleFought { drained: 1, .. }
    )));
    assert!(has(&|e| matches!(
        e,
        Event::BattleFought {
            kind: BattleKind::Strength,
            ..
        }
    )));
    assert!(has(&|e| matches!(
        e,
        Event::MovedOneSpace {
            clockwise: false,
            ..
        }
    )));
    assert_eq!(state.adventurer(P3).unwrap().space, SpaceId::of(12));
    assert_eq!(State::replay(content.clone(), &log), state);
    let json = serde_json::to_string(&log).unwrap();
    let back: Vec<Event> = serde_json::from_str(&json).unwrap();
    assert_eq!(State::replay(content, &back), state);
}

#[test]
fn three_lives_count_in_each_battle_of_wills_then_strength() {
    // Drowned Priest made to have three lives: each battle needs three wins.
    let mut state = meet("Drowned Priest");
    let mut content = (*state.content).clone();
    if let AdventureCard::Creature(c) = &mut content.adventures[card("Drowned Priest").index()] {
        c.three_lives = true;
    }
    state.content = std::sync::Arc::new(content);
    let (w, s) = (willpower(&state), strength(&state));
    let first = three_lives_odds(w, 5);
    let second = three_lives_odds(s, 3);
    assert_eq!(
        state.battle_odds(P1, BattleKind::Wills, &[], false),
        Some(BattleOdds {
            win: &first.win * &second.win,
            draw: &first.draw + &(&first.win * &second.draw),
            loss: &first.loss + &(&first.win * &second.loss),
        })
    );
    let seed = fight_seed(&state, BattleKind::Wills, |e| battles(e).len() == 2);
    let (_, events) = play(state, P1, fight(BattleKind::Wills, seed));
    assert_eq!(battles(&events)[0].2.len(), 3);
}
