//! Random legal play, driven by a seeded generator over a few hundred seeds, with battles (with
//! and without Items, with the players' choices), Creatures' special rules, Opportunities, the
//! spaces' Possibilities, buying, selling and repairing:
//! it never panics, never leaves Gold or Experience out of bounds, never loses a card, ends
//! games by Certificates or by deaths, and replays exactly.

use crate::*;
use board::content::Rarity;
use board::model::{Experience, Gold, Phase};
use board::{BattleKind, MoveKind};
use dice::DiceRng;

fn candidates(state: &State, rng: &mut DiceRng) -> Vec<Command> {
    let players: Vec<PlayerId> = state.adventurers.iter().map(|a| a.player).collect();
    let mut commands = Vec::new();
    let seed = Seed(u64::from(rng.next_byte()) << 8 | u64::from(rng.next_byte()));
    for &by in &players {
        commands.push(Command::new(by, Action::DrawChance { seed }));
        commands.push(Command::new(by, Action::EndTurn));
        commands.push(Command::new(by, Action::BuyCertificate));
        for kind in [BattleKind::Strength, BattleKind::Wills] {
            commands.push(Command::new(by, fight_using(kind, seed.0, vec![])));
            // Every carried Item, and each one alone.
            if let Some(a) = state.adventurer(by) {
                let mut choices = vec![a.items.clone()];
                choices.extend(a.items.iter().map(|&i| vec![i]));
                for items in choices {
                    commands.push(Command::new(by, fight_using(kind, seed.0, items.clone())));
                    // Thrown, where the engine allows it.
                    commands.push(Command::new(by, fight_throwing(kind, seed.0, items)));
                }
            }
        }
        commands.push(Command::new(by, use_opportunity(seed.0)));
        commands.push(Command::new(by, Action::UseSpecialRule));
        // Choices: the other way, and each carried Item to lose.
        let mut choices = vec![(Some(false), None)];
        if let Some(a) = state.adventurer(by) {
            choices.extend(a.items.iter().map(|&i| (None, Some(i))));
        }
        for (clockwise, lose_item) in choices {
            commands.push(Command::new(
                by,
                Action::UseOpportunity {
                    seed,
                    clockwise,
                    lose_item,
                },
            ));
            commands.push(Command::new(
                by,
                Action::Fight {
                    kind: BattleKind::Strength,
                    seed,
                    items: vec![],
                    throw: false,
                    clockwise,
                    lose_item,
                },
            ));
        }
        for amount in 1..=3 {
            commands.push(Command::new(by, Action::Recover { amount }));
        }
        commands.push(Command::new(by, Action::Trade));
        if let Some(a) = state.adventurer(by) {
            for &item in &a.items {
                commands.push(Command::new(by, Action::SellItem { item }));
                commands.push(Command::new(by, Action::RepairItem { item }));
            }
            for &item in &state.spaces[a.space.index()].items {
                commands.push(Command::new(by, Action::BuyItem { item }));
            }
        }
        for clockwise in [true, false] {
            for how in [
                MoveKind::Walk { clockwise },
                MoveKind::Horse { clockwise },
                MoveKind::Boat { clockwise },
            ] {
                commands.push(Command::new(by, Action::Move(how)));
            }
        }
        commands.push(Command::new(by, Action::Move(MoveKind::Stay)));
        for gate in state.content.board.magic_gates() {
            let to = SpaceId::of(gate);
            commands.push(Command::new(by, Action::Move(MoveKind::MagicGate { to })));
        }
    }
    commands
}

fn check_invariants(state: &State) {
    let content = &state.content;
    for a in &state.adventurers {
        let character = &content.characters[a.character.index()];
        assert!(a.gold.0 < 10_000 && a.experience.0 < 10_000, "{a:?}");
        // Strength and Willpower only grow (cubes from the bank).
        assert!(a.health.maximum() >= character.strength, "{a:?}");
        assert!(a.magic.maximum() >= character.willpower, "{a:?}");
        assert!(a.alive || a.health.right == 0, "{a:?}");
        assert!(a.space.index() < content.board.spaces.len());
        let mut guilds = a.certificates.clone();
        guilds.sort();
        guilds.dedup();
        assert_eq!(guilds.len(), a.certificates.len(), "one per guild");
        assert!(a.damaged.iter().all(|i| a.items.contains(i)), "{a:?}");
    }
    let decks = &state.decks;
    let on_board = state
        .spaces
        .iter()
        .filter(|s| s.adventure.is_some())
        .count();
    assert_eq!(
        decks.adventure.draw.len() + decks.adventure.discard.len() + on_board,
        content.adventures.len()
    );
    let copies: u32 = content.chance.iter().map(|c| c.copies).sum();
    assert_eq!(
        decks.chance.draw.len() + decks.chance.discard.len(),
        copies as usize
    );
    let lying: usize = state.spaces.iter().map(|s| s.items.len()).sum::<usize>()
        + state
            .adventurers
            .iter()
            .map(|a| a.items.len())
            .sum::<usize>();
    assert_eq!(
        decks.common_items.draw.len()
            + decks.common_items.discard.len()
            + decks.rare_items.draw.len()
            + decks.rare_items.discard.len()
            + lying,
        content.items_of(Rarity::Common).count() + content.items_of(Rarity::Rare).count()
    );
}

#[test]
fn random_legal_play_never_breaks_the_rules() {
    let content = content();
    let (mut certified, mut survived, mut fights, mut opportunities) = (0, 0, 0, 0);
    let (mut recovered, mut traded, mut bought, mut sold) = (0, 0, 0, 0);
    let (mut armed, mut repaired) = (0, 0);
    let (mut special, mut dragged, mut rose) = (0, 0, 0);
    for seed in 0..300u64 {
        let mut rng = DiceRng::new(Seed(seed));
        let players = 2 + u32::from(rng.face(4)) - 1;
        let seats = (1..=players)
            .map(|i| (PlayerId(i), format!("P{i}")))
            .collect();
        let mut state = run(
            State::new(content.clone()),
            P1,
            Action::SetUp {
                seats,
                seed: Seed(seed),
            },
        );
        // Experience comes from battles, slowly: half the games get a head start in
        // Experience and Gold, so that Certificates and wins happen as well as deaths.
        if seed % 2 == 0 {
            for a in &mut state.adventurers {
                a.experience = Experience(20 + u32::from(rng.face(40)));
                a.gold = Gold(u32::from(rng.face(30)));
            }
        }
        let start = state.clone();
        let mut log = Vec::new();
        for _ in 0..600 {
            match &state.phase {
                Phase::Won { winner, .. } => {
                    let alive = state.adventurers.iter().filter(|a| a.alive).count();
                    if alive == 1 {
                        survived += 1;
                    } else {
                        let w = state.adventurer(*winner).unwrap();
                        assert_eq!(w.certificates.len(), 5);
                        certified += 1;
                    }
                    break;
                }
                Phase::Ended { .. } => break,
                _ => {}
            }
            let legal: Vec<(Command, Vec<Event>)> = candidates(&state, &mut rng)
                .into_iter()
                .filter_map(|c| decide(&state, c.clone()).ok().map(|e| (c, e)))
                .collect();
            assert!(!legal.is_empty(), "someone can always act");
            // Buy a Certificate whenever possible, otherwise pick at random.
            let pick = legal
                .iter()
                .position(|(c, _)| c.action == Action::BuyCertificate)
                .unwrap_or_else(|| board::turn::below(&mut rng, legal.len()));
            let (command, events) = &legal[pick];
            match command.action {
                Action::Fight { ref items, .. } if !items.is_empty() => {
                    fights += 1;
                    armed += 1;
                }
                Action::Fight { .. } => fights += 1,
                Action::UseOpportunity { .. } => opportunities += 1,
                Action::UseSpecialRule => special += 1,
                Action::Recover { .. } => recovered += 1,
                Action::Trade => traded += 1,
                Action::BuyItem { .. } => bought += 1,
                Action::SellItem { .. } => sold += 1,
                Action::RepairItem { .. } => repaired += 1,
                _ => {}
            }
            for event in events {
                state = evolve(state, event);
            }
            for event in events {
                match event {
                    Event::MovedOneSpace { .. } => dragged += 1,
                    Event::CreatureRose { .. } => rose += 1,
                    _ => {}
                }
            }
            log.extend(events.iter().cloned());
            check_invariants(&state);
        }
        assert_eq!(log.iter().fold(start, evolve), state, "seed {seed}");
    }
    assert!(certified > 0, "some games reach five Certificates");
    assert!(survived > 0, "some games end with the last survivor");
    assert!(fights > 0 && opportunities > 0, "{fights} {opportunities}");
    assert!(recovered > 0 && traded > 0, "{recovered} {traded}");
    assert!(bought > 0 && sold > 0, "{bought} {sold}");
    assert!(armed > 0 && repaired > 0, "{armed} {repaired}");
    assert!(
        special > 0 && dragged > 0 && rose > 0,
        "{special} {dragged} {rose}"
    );
}
