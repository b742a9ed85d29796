//! Encountering the Adventure card where a move ends: battles of Strength and of Wills, the
//! optional Battle of Wills, three lives, the consequences of winning, drawing and losing,
//! Opportunities, the effects, death and the last survivor.

use crate::*;
use board::content::{AdventureCard, ChanceKind, Effect};
use board::model::{DeckKind, Experience, Gold, Phase, Ranking, Step};
use board::{BattleKind, MoveKind};
use dice::opposed::{BattleOutcome, opposed_odds, roll_battle, three_lives_odds};

/// The Adventure card of this name.
pub(crate) fn card(name: &str) -> AdventureId {
    let content = content();
    AdventureId::of(
        content
            .adventures
            .iter()
            .position(|c| c.name() == name)
            .unwrap_or_else(|| panic!("no card {name}")),
    )
}

/// The first terrain space after the start of the ring.
pub(crate) fn terrain() -> usize {
    let content = content();
    (1..content.board.spaces.len())
        .find(|&i| {
            matches!(
                content.board.spaces[i].kind,
                board::content::SpaceKind::Terrain(_)
            )
        })
        .unwrap()
}

/// A game of three, winds as Chance cards (nothing happens at full cubes), player 1's Chance
/// card drawn, `name` lying on the first terrain space and player 1 one space before it.
pub(crate) fn before(name: &str) -> State {
    let wind = chance(&content(), |k| matches!(k, ChanceKind::Wind { .. }));
    let mut state = run(game(vec![wind; 30]), P1, draw(0));
    let at = terrain();
    let id = card(name);
    state.decks.adventure.take(&id);
    state.spaces[at].adventure = Some(id);
    state.adventurers[0].space = SpaceId::of(at - 1);
    state
}

/// [`before`], then player 1 walks onto the card.
pub(crate) fn meet(name: &str) -> State {
    run(
        before(name),
        P1,
        Action::Move(MoveKind::Walk { clockwise: true }),
    )
}

pub(crate) fn fight(kind: BattleKind, seed: u64) -> Action {
    fight_using(kind, seed, vec![])
}

/// The first seed whose battle (as the engine rolls it) satisfies `wanted`.
pub(crate) fn seed_where(
    yours: i32,
    theirs: i32,
    lives: u32,
    wanted: impl Fn(&[(u8, u8)], BattleOutcome) -> bool,
) -> u64 {
    (0..10_000u64)
        .find(|&s| {
            let roll = roll_battle(yours, theirs, lives, Seed(s));
            let faces: Vec<(u8, u8)> = roll
                .rolls
                .iter()
                .map(|r| (r.your_die, r.their_die))
                .collect();
            wanted(&faces, roll.outcome)
        })
        .expect("some seed")
}

pub(crate) fn outcome_seed(yours: i32, theirs: i32, outcome: BattleOutcome) -> u64 {
    seed_where(yours, theirs, 1, |_, o| o == outcome)
}

pub(crate) fn me(state: &State) -> &board::model::Adventurer {
    state.adventurer(P1).unwrap()
}

pub(crate) fn strength(state: &State) -> i32 {
    me(state).health.right as i32
}

pub(crate) fn willpower(state: &State) -> i32 {
    me(state).magic.right as i32
}

pub(crate) fn battle_of(events: &[Event]) -> (BattleKind, u32, Vec<(u8, u8)>, BattleOutcome) {
    events
        .iter()
        .find_map(|e| match e {
            Event::BattleFought {
                kind,
                magic_paid,
                rolls,
                outcome,
                ..
            } => Some((*kind, *magic_paid, rolls.clone(), *outcome)),
            _ => None,
        })
        .expect("a battle")
}

#[test]
fn a_strength_only_creature_allows_only_a_battle_of_strength() {
    let state = meet("Hill Wolf");
    assert_eq!(state.turn().unwrap().step, Step::Battle);
    let refusal = refused(&state, P1, fight(BattleKind::Wills, 0));
    assert_eq!(
        refusal,
        Refusal::WrongBattle {
            asked: BattleKind::Wills
        }
    );
    assert_eq!(refusal.rule(), "Rules of Combat");
    let (after, events) = play(state, P1, fight(BattleKind::Strength, 3));
    let (kind, paid, rolls, outcome) = battle_of(&events);
    assert_eq!((kind, paid, rolls.len()), (BattleKind::Strength, 0, 1));
    let (mine, theirs) = rolls[0];
    let expected = (i32::from(mine) + strength(&meet("Hill Wolf"))).cmp(&(i32::from(theirs) + 3));
    assert_eq!(
        outcome,
        match expected {
            std::cmp::Ordering::Greater => BattleOutcome::Win,
            std::cmp::Ordering::Equal => BattleOutcome::Draw,
            std::cmp::Ordering::Less => BattleOutcome::Loss,
        }
    );
    assert_eq!(after.turn().unwrap().step, Step::Moved);
}

#[test]
fn a_willpower_only_creature_allows_only_a_battle_of_wills() {
    let state = meet("Wisp of the Fen");
    assert_eq!(
        refused(&state, P1, fight(BattleKind::Strength, 0)),
        Refusal::WrongBattle {
            asked: BattleKind::Strength
        }
    );
    let magic = me(&state).magic;
    let (after, events) = play(state, P1, fight(BattleKind::Wills, 0));
    let (kind, paid, _, outcome) = battle_of(&events);
    assert_eq!((kind, paid), (BattleKind::Wills, 0));
    if outcome != BattleOutcome::Loss {
        assert_eq!(me(&after).magic, magic, "a Battle of Wills costs nothing");
    }
}

#[test]
fn a_strength_first_creature_offers_a_battle_of_wills_for_two_magic() {
    // Grave Hag: Strength 3, then Willpower 4.
    let mut state = meet("Grave Hag");
    state.adventurers[0].magic.right = 1;
    state.adventurers[0].magic.left = 3;
    let refusal = refused(&state, P1, fight(BattleKind::Wills, 0));
    assert_eq!(refusal, Refusal::NotEnoughMagic { cost: 2, has: 1 });
    assert_eq!(refusal.rule(), "Optional Battles");
    assert!(
        state
            .battle_odds(P1, BattleKind::Wills, &[], false)
            .is_none()
    );

    state.adventurers[0].magic.right = 3;
    state.adventurers[0].magic.left = 1;
    // She weakens herself first: Willpower 1 against 4.
    assert_eq!(
        state.battle_odds(P1, BattleKind::Wills, &[], false),
        Some(opposed_odds(1, 4))
    );
    let seed = outcome_seed(1, 4, BattleOutcome::Draw);
    let (after, events) = play(state.clone(), P1, fight(BattleKind::Wills, seed));
    assert_eq!(battle_of(&events).1, 2);
    assert_eq!(battle_of(&events).3, BattleOutcome::Draw);
    assert_eq!(me(&after).magic.right, 1);
    assert_eq!(me(&after).magic.left, 3);

    // The Battle of Strength is still hers to accept, for free.
    let (_, events) = play(state, P1, fight(BattleKind::Strength, 0));
    assert_eq!(battle_of(&events).1, 0);
}

#[test]
fn a_willpower_first_creature_is_a_battle_of_wills() {
    // Blood Lord of Cinder Pass: Willpower 6 first, then Strength 5; it drains 1 Magic first.
    let state = meet("Blood Lord of Cinder Pass");
    let content = content();
    let AdventureCard::Creature(lord) =
        &content.adventures[card("Blood Lord of Cinder Pass").index()]
    else {
        panic!("a creature")
    };
    assert!(lord.special.as_ref().is_some_and(|r| r.mandatory()));
    assert_eq!(
        refused(&state, P1, fight(BattleKind::Strength, 0)),
        Refusal::WrongBattle {
            asked: BattleKind::Strength
        }
    );
    assert_eq!(
        state.battle_odds(P1, BattleKind::Wills, &[], false),
        Some(opposed_odds(willpower(&state) - 1, 6))
    );
    let (_, events) = play(state, P1, fight(BattleKind::Wills, 1));
    assert_eq!(battle_of(&events).1, 0);
}

#[test]
fn a_creature_must_be_fought_before_anything_else() {
    let state = before("Hill Wolf");
    assert_eq!(
        refused(&state, P1, fight(BattleKind::Strength, 0)),
        Refusal::EncounterAfterMoving
    );
    let state = run(state, P1, Action::Move(MoveKind::Walk { clockwise: true }));
    for action in [Action::EndTurn, Action::BuyCertificate, use_opportunity(0)] {
        let refusal = refused(&state, P1, action);
        assert_eq!(
            refusal,
            Refusal::FightFirst {
                creature: "Hill Wolf".to_owned()
            }
        );
        assert_eq!(refusal.rule(), "Creatures");
    }
    assert_eq!(
        refused(&state, P1, Action::Move(MoveKind::Stay)),
        Refusal::AlreadyMoved
    );
    let seed = outcome_seed(strength(&state), 3, BattleOutcome::Draw);
    let state = run(state, P1, fight(BattleKind::Strength, seed));
    assert_eq!(
        refused(&state, P1, fight(BattleKind::Strength, 0)),
        Refusal::AlreadyFought
    );
    run(state, P1, Action::EndTurn);
}

#[test]
fn a_creature_is_met_by_staying_and_not_by_walking_away() {
    let mut state = before("Hill Wolf");
    state.adventurers[0].space = SpaceId::of(terrain());
    let stayed = run(state.clone(), P1, Action::Move(MoveKind::Stay));
    assert_eq!(stayed.turn().unwrap().step, Step::Battle);
    let left = run(state, P1, Action::Move(MoveKind::Walk { clockwise: true }));
    assert_eq!(left.turn().unwrap().step, Step::Moved);
    assert_eq!(
        refused(&left, P1, fight(BattleKind::Strength, 0)),
        Refusal::NoCreature
    );
    run(left, P1, Action::EndTurn);
}

/// "If you want to encounter the card located in the space where you start your movement, you
/// must not move at all": ending the turn without moving is staying, so a Creature there must
/// be fought. With none there, she may end her turn without moving.
#[test]
fn not_moving_off_a_creatures_space_means_fighting_it() {
    let mut state = before("Hill Wolf");
    state.adventurers[0].space = SpaceId::of(terrain());
    let refusal = refused(&state, P1, Action::EndTurn);
    assert_eq!(
        refusal,
        Refusal::MoveOrFight {
            creature: "Hill Wolf".into()
        }
    );
    assert_eq!(
        (refusal.code(), refusal.rule()),
        ("move_or_fight", "Adventure Cards")
    );
    let quiet = before("Hill Wolf");
    run(quiet, P1, Action::EndTurn);
}

#[test]
fn winning_discards_the_creature_and_gives_experience_and_treasure() {
    // Roadside Cutthroat: Strength 3, 1 Experience, 2 Gold treasure.
    let state = meet("Roadside Cutthroat");
    let (gold, experience) = (me(&state).gold, me(&state).experience);
    let seed = outcome_seed(strength(&state), 3, BattleOutcome::Win);
    let (after, events) = play(state, P1, fight(BattleKind::Strength, seed));
    let id = card("Roadside Cutthroat");
    assert!(events.contains(&Event::CreatureDefeated {
        player: P1,
        card: id,
        space: SpaceId::of(terrain()),
        experience: Experience(1),
    }));
    assert!(events.contains(&Event::EffectApplied {
        player: P1,
        effect: Effect::GainGold(2),
        applied: 2
    }));
    assert_eq!(me(&after).gold, Gold(gold.0 + 2));
    assert_eq!(me(&after).experience, Experience(experience.0 + 1));
    assert_eq!(after.spaces[terrain()].adventure, None);
    assert_eq!(after.decks.adventure.discard, vec![id]);
}

#[test]
fn a_draw_changes_nothing_and_the_creature_stays() {
    let state = meet("Roadside Cutthroat");
    let seed = outcome_seed(strength(&state), 3, BattleOutcome::Draw);
    let (after, events) = play(state.clone(), P1, fight(BattleKind::Strength, seed));
    assert_eq!(events.len(), 1);
    assert_eq!(me(&after), me(&state));
    assert_eq!(
        after.spaces[terrain()].adventure,
        Some(card("Roadside Cutthroat"))
    );
}

#[test]
fn losing_costs_one_health_by_default_and_the_creature_stays_face_up() {
    let state = meet("Hill Wolf");
    let health = me(&state).health;
    let seed = outcome_seed(strength(&state), 3, BattleOutcome::Loss);
    let (after, events) = play(state, P1, fight(BattleKind::Strength, seed));
    assert!(events.contains(&Event::EffectApplied {
        player: P1,
        effect: Effect::LoseHealth(1),
        applied: 1
    }));
    assert_eq!(me(&after).health.right, health.right - 1);
    assert_eq!(me(&after).health.left, health.left + 1);
    assert_eq!(after.spaces[terrain()].adventure, Some(card("Hill Wolf")));
    assert!(after.decks.adventure.discard.is_empty());
}

#[test]
fn on_loss_effects_replace_the_default_and_stop_at_zero() {
    // Roadside Cutthroat: losing costs 2 Gold instead of a Health.
    let mut state = meet("Roadside Cutthroat");
    state.adventurers[0].gold = Gold(1);
    let health = me(&state).health;
    let seed = outcome_seed(strength(&state), 3, BattleOutcome::Loss);
    let (after, events) = play(state, P1, fight(BattleKind::Strength, seed));
    assert!(events.contains(&Event::EffectApplied {
        player: P1,
        effect: Effect::LoseGold(2),
        applied: 1
    }));
    assert_eq!(me(&after).gold, Gold(0));
    assert_eq!(me(&after).health, health);
}

#[test]
fn three_lives_need_three_wins_in_one_battle() {
    // Deserter Band: Strength 5, three lives, a Common Item as treasure.
    let state = meet("Deserter Band");
    let s = strength(&state);
    assert_eq!(
        state.battle_odds(P1, BattleKind::Strength, &[], false),
        Some(three_lives_odds(s, 5))
    );
    let win = seed_where(s, 5, 3, |_, o| o == BattleOutcome::Win);
    let (after, events) = play(state.clone(), P1, fight(BattleKind::Strength, win));
    let (_, _, rolls, outcome) = battle_of(&events);
    assert_eq!((rolls.len(), outcome), (3, BattleOutcome::Win));
    let top = state.decks.common_items.draw[0];
    assert!(events.contains(&Event::ItemDrawn {
        player: P1,
        deck: DeckKind::CommonItems,
        item: top
    }));
    assert_eq!(me(&after).items, vec![top]);

    // A draw on the second roll ends the battle as a draw.
    let draw_second = seed_where(s, 5, 3, |r, o| r.len() == 2 && o == BattleOutcome::Draw);
    let (after, events) = play(state, P1, fight(BattleKind::Strength, draw_second));
    let (_, _, rolls, outcome) = battle_of(&events);
    assert_eq!((rolls.len(), outcome), (2, BattleOutcome::Draw));
    assert_eq!(
        after.spaces[terrain()].adventure,
        Some(card("Deserter Band"))
    );
    assert!(me(&after).items.is_empty());
}

#[test]
fn an_empty_item_deck_is_reshuffled_with_the_commands_seed() {
    let mut state = meet("Deserter Band");
    let pile = std::mem::take(&mut state.decks.common_items.draw);
    state.decks.common_items.discard = pile[..3].to_vec();
    state.decks.common_items.draw.clear();
    let s = strength(&state);
    let win = seed_where(s, 5, 3, |_, o| o == BattleOutcome::Win);
    let (after, events) = play(state, P1, fight(BattleKind::Strength, win));
    assert!(events.iter().any(|e| matches!(
        e,
        Event::DeckReshuffled {
            deck: DeckKind::CommonItems,
            ..
        }
    )));
    assert_eq!(me(&after).items.len(), 1);
    assert_eq!(after.decks.common_items.draw.len(), 2);
}

#[test]
fn battle_odds_equal_dice_opposed() {
    let mut state = meet("Hill Wolf");
    state.adventurers[0].health.right = 2;
    assert_eq!(
        state.battle_odds(P1, BattleKind::Strength, &[], false),
        Some(opposed_odds(2, 3))
    );
    assert_eq!(state.battle_odds(P1, BattleKind::Wills, &[], false), None);
    assert_eq!(
        state.battle_odds(P2, BattleKind::Strength, &[], false),
        None,
        "no creature"
    );
    let state = meet("Briar Hound Pack");
    assert_eq!(
        state.battle_odds(P1, BattleKind::Strength, &[], false),
        Some(three_lives_odds(strength(&state), 3))
    );
}

#[test]
fn losing_a_health_with_none_on_the_right_kills_and_passes_the_turn() {
    let mut state = meet("Hill Wolf");
    state.adventurers[0].health.left += state.adventurers[0].health.right;
    state.adventurers[0].health.right = 0;
    let seed = outcome_seed(0, 3, BattleOutcome::Loss);
    let (state, events) = play(state, P1, fight(BattleKind::Strength, seed));
    assert!(events.contains(&Event::AdventurerDied { player: P1 }));
    assert!(!me(&state).alive);
    assert_eq!(
        events.last(),
        Some(&Event::TurnEnded {
            player: P1,
            next: P2,
            extra: false
        })
    );
    // Her turns are skipped and she can do nothing.
    assert_eq!(refused(&state, P1, Action::EndTurn), Refusal::Dead);
    let state = run(state, P2, draw(1));
    let state = run(state, P2, Action::EndTurn);
    let state = run(state, P3, draw(2));
    let (_, events) = play(state, P3, Action::EndTurn);
    assert_eq!(
        events,
        vec![Event::TurnEnded {
            player: P3,
            next: P2,
            extra: false
        }]
    );
}

#[test]
fn the_last_survivor_wins() {
    let mut state = meet("Hill Wolf");
    state.adventurers[0].health.right = 0;
    state.adventurers[2].alive = false;
    let seed = outcome_seed(0, 3, BattleOutcome::Loss);
    let (state, events) = play(state, P1, fight(BattleKind::Strength, seed));
    assert!(events.contains(&Event::AdventurerDied { player: P1 }));
    assert!(matches!(
        events.last(),
        Some(Event::GameWon { winner: P2, .. })
    ));
    assert!(matches!(state.phase, Phase::Won { winner: P2, .. }));
    assert_eq!(refused(&state, P2, Action::EndTurn), Refusal::GameOver);
}

#[test]
fn with_nobody_alive_the_game_ends_without_a_winner() {
    let mut state = meet("Hill Wolf");
    state.adventurers[0].health.right = 0;
    state.adventurers[1].alive = false;
    state.adventurers[2].alive = false;
    let seed = outcome_seed(0, 3, BattleOutcome::Loss);
    let (state, events) = play(state, P1, fight(BattleKind::Strength, seed));
    let ranking = Ranking(vec![(P1, 0), (P2, 0), (P3, 0)]);
    assert_eq!(
        events.last(),
        Some(&Event::GameEndedWithoutWinner {
            ranking: ranking.clone()
        })
    );
    assert_eq!(state.phase, Phase::Ended { ranking });
}

#[test]
fn an_opportunity_may_be_used_and_is_discarded() {
    let state = meet("Abandoned Camp");
    assert_eq!(state.turn().unwrap().step, Step::Moved);
    assert_eq!(
        refused(&before("Abandoned Camp"), P1, use_opportunity(0)),
        Refusal::EncounterAfterMoving
    );
    let gold = me(&state).gold;
    let (after, events) = play(state, P1, use_opportunity(0));
    let id = card("Abandoned Camp");
    assert_eq!(
        events[0],
        Event::OpportunityUsed {
            player: P1,
            card: id,
            space: SpaceId::of(terrain())
        }
    );
    assert_eq!(me(&after).gold, Gold(gold.0 + 2));
    assert_eq!(after.spaces[terrain()].adventure, None);
    assert_eq!(after.decks.adventure.discard, vec![id]);
    let refusal = refused(&after, P1, use_opportunity(0));
    assert_eq!(refusal, Refusal::NoOpportunity);
    assert_eq!(refusal.rule(), "Opportunities");
}

#[test]
fn an_opportunity_left_stays_face_up() {
    let state = meet("Abandoned Camp");
    let after = run(state, P1, Action::EndTurn);
    assert_eq!(
        after.spaces[terrain()].adventure,
        Some(card("Abandoned Camp"))
    );
}

#[test]
fn opportunity_effects_are_bounded_by_the_cubes() {
    // Healing Spring heals 2, but only what lies on the left.
    let mut state = meet("Healing Spring");
    state.adventurers[0].health.right -= 1;
    state.adventurers[0].health.left += 1;
    let (after, events) = play(state, P1, use_opportunity(0));
    assert!(events.contains(&Event::EffectApplied {
        player: P1,
        effect: Effect::Heal(2),
        applied: 1
    }));
    assert_eq!(me(&after).health.left, 0);

    // Hermit's Riddles: one Health for a permanent Willpower.
    let state = meet("Hermit's Riddles");
    let (health, magic) = (me(&state).health, me(&state).magic);
    let after = run(state, P1, use_opportunity(0));
    assert_eq!(me(&after).health.right, health.right - 1);
    assert_eq!(me(&after).magic.right, magic.right + 1);
    assert_eq!(me(&after).magic.maximum(), magic.maximum() + 1);

    // Shrine of the Sea with no Gold: no offering, no insight (the price is paid in full).
    let mut state = meet("Shrine of the Sea");
    state.adventurers[0].gold = Gold(0);
    assert!(matches!(
        refused(&state, P1, use_opportunity(0)),
        Refusal::PriceUnpaid { what: "Gold", .. }
    ));
}

/// A Health an Opportunity takes is part of its price: with none left she cannot use it, so an
/// Opportunity never kills (a Creature still can).
#[test]
fn an_opportunity_cannot_take_a_health_she_does_not_have() {
    let mut state = meet("Buried Chest");
    state.adventurers[0].health.left += state.adventurers[0].health.right;
    state.adventurers[0].health.right = 0;
    assert!(matches!(
        refused(&state, P1, use_opportunity(0)),
        Refusal::PriceUnpaid { what: "Health", .. }
    ));
}

#[test]
fn a_missed_turn_is_skipped() {
    let state = meet("Lost Caravan Trail");
    let state = run(state, P1, use_opportunity(0));
    assert!(me(&state).miss_turn);
    let state = run(state, P1, Action::EndTurn);
    let state = run(state, P2, draw(1));
    let state = run(state, P2, Action::EndTurn);
    let state = run(state, P3, draw(2));
    let (state, events) = play(state, P3, Action::EndTurn);
    assert_eq!(
        events,
        vec![
            Event::TurnMissed { player: P1 },
            Event::TurnEnded {
                player: P3,
                next: P2,
                extra: false
            }
        ]
    );
    assert!(!me(&state).miss_turn);
}
