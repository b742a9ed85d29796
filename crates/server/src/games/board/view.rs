//! The board game's view: what every page sees (the lobby, the board with its face-up cards,
//! every adventurer, the decks' sizes but never their order, the last Chance card and battle,
//! what the player whose turn it is may do now, with the exact odds of every battle), and the
//! static content a page needs once.

use super::table::{CONTENT, Table, engine_action};
use super::words::{effect_words, guild_name, space_name};
use crate::game::Context;
use board::State as BoardState;
use board::command::{Action, BattleKind, Command, MoveKind};
use board::content::{AdventureCard, CreatureStats, Effect, Guild, Slot, SpaceKind};
use board::event::Event as BoardEvent;
use board::ids::{ItemId, PlayerId, SpaceId};
use board::model::{Adventurer, Phase, Ranking, Step};
use dice::Seed;
use dice::opposed::BattleOdds;
use serde_json::{Value, json};

/// Most Item combinations whose odds the view lists for one battle.
const MAX_ITEM_CHOICES: usize = 64;

/// Exact fractions ("7/12"): the page shows them as percentages.
fn odds_json(odds: &BattleOdds) -> Value {
    json!({
        "win": odds.win.to_string(),
        "draw": odds.draw.to_string(),
        "loss": odds.loss.to_string(),
    })
}

fn step_name(step: Step) -> &'static str {
    match step {
        Step::DrawChance => "draw_chance",
        Step::Move => "move",
        Step::Battle => "battle",
        Step::Moved => "moved",
    }
}

/// How well the bot playing `player`'s seat plays; `None` if a person plays it.
fn bot_level(table: &Table, player: PlayerId) -> Option<&'static str> {
    (table.lobby.seat(player))
        .filter(|s| s.bot)
        .map(|s| s.level.name())
}

fn adventurer_json(table: &Table, a: &Adventurer) -> Value {
    json!({
        "player": a.player.0,
        "name": a.name,
        "bot": table.lobby.seat(a.player).is_some_and(|s| s.bot),
        "level": bot_level(table, a.player),
        "character": a.character.0,
        "space": a.space.0,
        "gold": a.gold.0,
        "experience": a.experience.0,
        "health": {"right": a.health.right, "left": a.health.left},
        "magic": {"right": a.magic.right, "left": a.magic.left},
        "certificates": a.certificates.iter().map(|c| c.0).collect::<Vec<Guild>>(),
        "items": a.items.iter().map(|i| i.0).collect::<Vec<u32>>(),
        "damaged": a.damaged.iter().map(|i| i.0).collect::<Vec<u32>>(),
        "alive": a.alive,
        "miss_turn": a.miss_turn,
    })
}

/// An action as the page sends it, with a seed.
fn page_action(action: Value) -> Option<Action> {
    engine_action(&action, &Context { now: 0, seed: 0 }).ok()
}

/// Whether the engine would accept `action` from `player` now.
fn allowed(table: &Table, player: PlayerId, action: Action) -> Option<Vec<BoardEvent>> {
    board::decide(&table.game, Command::new(player, action)).ok()
}

fn moves(table: &Table, player: PlayerId) -> Vec<Value> {
    let content = &table.game.content;
    let mut kinds = vec![MoveKind::Stay];
    for clockwise in [true, false] {
        kinds.push(MoveKind::Walk { clockwise });
        kinds.push(MoveKind::Horse { clockwise });
        kinds.push(MoveKind::Boat { clockwise });
    }
    for gate in content.board.magic_gates() {
        kinds.push(MoveKind::MagicGate {
            to: SpaceId::of(gate),
        });
    }
    kinds
        .into_iter()
        .filter_map(|how| {
            let events = allowed(table, player, Action::Move(how))?;
            let (to, paid) = events.iter().find_map(|e| match e {
                BoardEvent::Moved { to, paid, .. } => Some((*to, *paid)),
                _ => None,
            })?;
            let creature = table.game.creature_on(to).map(|(card, _)| card.0);
            Some(json!({
                "how": how,
                "to": to.0,
                "to_name": space_name(content, to),
                "cost": paid.0,
                "creature": creature,
                "battle": if creature.is_some() {
                    best_battle_after(table, player, &events)
                } else {
                    Value::Null
                },
            }))
        })
        .collect()
}

/// Every set of usable Items for a battle, with its odds: none, and each combination the
/// rules allow (at most [`MAX_ITEM_CHOICES`]); a set with a weapon that may be thrown in a
/// Battle of Strength twice, held and thrown.
fn battles(table: &Table, player: PlayerId) -> Vec<Value> {
    battle_choices(&table.game, player)
        .into_iter()
        .map(|(_, value)| value)
        .collect()
}

/// The best battle she could fight where a move would take her (by the chance of winning), so
/// that the odds are known before she commits to the move.
fn best_battle_after(table: &Table, player: PlayerId, moved: &[BoardEvent]) -> Value {
    // The game's state shares its parts with the table's until the move changes them.
    let after = moved.iter().fold(table.game.clone(), board::evolve);
    battle_choices(&after, player)
        .into_iter()
        .max_by(|a, b| a.0.win.to_f64().total_cmp(&b.0.win.to_f64()))
        .map_or(Value::Null, |(_, value)| value)
}

/// The battles she may fight where she stands, each with its odds and its entry in the view's
/// `battles`: each kind of battle and set of usable Items, held, then thrown where the rules
/// allow it.
pub(super) fn battle_choices(game: &BoardState, player: PlayerId) -> Vec<(BattleOdds, Value)> {
    let Some(a) = game.adventurer(player) else {
        return Vec::new();
    };
    let usable: Vec<ItemId> = a
        .items
        .iter()
        .copied()
        .filter(|i| !a.damaged.contains(i))
        .take(6)
        .collect();
    let mut out = Vec::new();
    for kind in [BattleKind::Strength, BattleKind::Wills] {
        for mask in 0u32..(1 << usable.len()) {
            let items: Vec<ItemId> = usable
                .iter()
                .enumerate()
                .filter(|(i, _)| mask & (1 << i) != 0)
                .map(|(_, item)| *item)
                .collect();
            // Held; then thrown, which the engine refuses without a weapon to throw or a
            // Battle of Strength to throw it in.
            for throw in [false, true] {
                let Ok(battle) = board::encounter::battle(game, player, kind, &items, throw) else {
                    continue;
                };
                let odds = board::encounter::odds(&battle);
                out.push((odds.clone(), battle_json(&battle, &items, throw, &odds)));
            }
            if out.len() >= MAX_ITEM_CHOICES {
                return out;
            }
        }
    }
    out
}

/// One entry of the view's `battles`.
fn battle_json(
    battle: &board::encounter::Battle,
    items: &[ItemId],
    throw: bool,
    odds: &BattleOdds,
) -> Value {
    json!({
        "kind": battle.kind,
        "items": items.iter().map(|i| i.0).collect::<Vec<u32>>(),
        // Her weapon thrown (in the Battle of Strength): which, and its bonus on the first roll.
        "throw": throw,
        "thrown": battle.thrown.or(battle.then.and_then(|t| t.thrown)).map(|i| i.0),
        "yours": battle.yours,
        "first_roll_bonus": battle.first_roll_bonus,
        "theirs": battle.theirs,
        "magic": battle.magic_cost,
        "lives": battle.lives,
        // The Battle of Strength fought after this Battle of Wills, if it is won.
        "then": battle.then.map(|t| json!({
            "yours": t.yours,
            "first_roll_bonus": t.first_roll_bonus,
            "theirs": t.theirs,
        })),
        "odds": odds_json(odds),
    })
}

/// What the player whose turn it is may do now, each as the engine would accept it.
/// Each amount she may recover where she stands, with what it heals, recharges and costs.
fn recover_options(table: &Table, a: &Adventurer) -> Vec<Value> {
    let mut recover = Vec::new();
    for amount in 1..=a.health.left.max(a.magic.left).max(1) {
        if let Some(events) = allowed(table, a.player, Action::Recover { amount }) {
            let (healed, recharged, paid) = events
                .iter()
                .find_map(|e| match e {
                    BoardEvent::Recovered {
                        healed,
                        recharged,
                        paid,
                        ..
                    } => Some((*healed, *recharged, paid.0)),
                    _ => None,
                })
                .unwrap_or_default();
            recover.push(
                json!({"amount": amount, "healed": healed, "recharged": recharged, "cost": paid}),
            );
        }
    }
    recover
}

fn options(table: &Table, player: PlayerId, step: Step) -> Value {
    let game = &table.game;
    let content = &game.content;
    let Some(a) = game.adventurer(player) else {
        return Value::Null;
    };
    let here = a.space;
    let recover = recover_options(table, a);
    let trade = allowed(table, player, Action::Trade).map(|events| {
        events
            .iter()
            .find_map(|e| match e {
                BoardEvent::Traded {
                    health,
                    magic,
                    gold,
                    experience,
                    ..
                } => Some(json!({"health": health, "magic": magic, "gold": gold.0, "experience": experience.0})),
                _ => None,
            })
            .unwrap_or(Value::Null)
    });
    let for_sale = game
        .space(here)
        .map(|s| s.items.clone())
        .unwrap_or_default();
    let buy: Vec<Value> = for_sale
        .iter()
        .map(|item| {
            json!({
                "item": item.0,
                "cost": content.items.get(item.index()).map_or(0, |i| i.cost),
                "allowed": allowed(table, player, Action::BuyItem { item: *item }).is_some(),
            })
        })
        .collect();
    let sell: Vec<Value> = a
        .items
        .iter()
        .filter(|item| allowed(table, player, Action::SellItem { item: **item }).is_some())
        .map(|item| {
            json!({
                "item": item.0,
                "price": content.items.get(item.index()).map_or(0, |i| board::market::sale_price(i).0),
            })
        })
        .collect();
    let repair: Vec<u32> = a
        .damaged
        .iter()
        .filter(|item| allowed(table, player, Action::RepairItem { item: **item }).is_some())
        .map(|item| item.0)
        .collect();
    let certificate = allowed(table, player, Action::BuyCertificate).and_then(|events| {
        events.iter().find_map(|e| match e {
            BoardEvent::CertificateBought {
                guild,
                experience,
                gold,
                ..
            } => Some(json!({"guild": guild, "experience": experience.0, "gold": gold.0})),
            _ => None,
        })
    });
    let special_rule = allowed(table, player, Action::UseSpecialRule).and_then(|_| {
        let (_, creature) = game.creature_on(here)?;
        let rule = creature.special.as_ref()?;
        let cost = match rule.rule {
            board::content::SpecialKind::PayToPass { gold } => gold,
            _ => 0,
        };
        Some(json!({"rule": rule.rule.name(), "text": rule.text, "cost": cost}))
    });
    let card_here = game
        .space(here)
        .and_then(|s| s.adventure)
        .and_then(|card| content.adventures.get(card.index()));
    // The choices a card here may ask for (the page asks them before the action).
    let asks = |effects: Vec<Effect>| -> Vec<&'static str> {
        let mut asks = Vec::new();
        if effects.contains(&Effect::MoveOneSpace) {
            asks.push("clockwise");
        }
        if effects.contains(&Effect::LoseItem) && !a.items.is_empty() {
            asks.push("lose_item");
        }
        asks
    };
    let choices = match card_here {
        Some(AdventureCard::Creature(c)) => {
            asks(c.treasure.iter().chain(c.loss_effects()).copied().collect())
        }
        Some(AdventureCard::Opportunity(o)) => asks(o.effects.clone()),
        None => Vec::new(),
    };
    let opportunity = game.space(here).and_then(|s| s.adventure).filter(|card| {
        matches!(
            content.adventures.get(card.index()),
            Some(AdventureCard::Opportunity(_))
        )
    });
    // After moving, an Opportunity she cannot use (its price, say) says why, beside the card.
    let verdict = (opportunity.filter(|_| step == Step::Moved))
        .zip(page_action(json!({"action": "use_opportunity"})))
        .map(|(card, action)| {
            (
                card,
                board::decide(&table.game, Command::new(player, action)),
            )
        });
    let usable = verdict
        .as_ref()
        .filter(|(_, v)| v.is_ok())
        .map(|(c, _)| c.0);
    let unusable = verdict.as_ref().and_then(|(card, v)| {
        let why = v.as_ref().err()?;
        Some(json!({ "card": card.0, "why": why.to_string() }))
    });
    json!({
        "player": player.0,
        "step": step_name(step),
        "draw_chance": allowed(table, player, Action::DrawChance { seed: Seed(0) }).is_some(),
        "moves": if step == Step::Move { moves(table, player) } else { Vec::new() },
        "battles": if step == Step::Battle { battles(table, player) } else { Vec::new() },
        "opportunity": usable,
        "opportunity_unusable": unusable,
        "special_rule": special_rule,
        "choices": choices,
        "recover": recover,
        "trade": trade,
        "buy": buy,
        "sell": sell,
        "repair": repair,
        "certificate": certificate,
        "end_turn": allowed(table, player, Action::EndTurn).is_some(),
    })
}

fn last_battle_json(table: &Table) -> Value {
    match &table.last_battle {
        Some(BoardEvent::BattleFought {
            player,
            card,
            kind,
            magic_paid,
            rolls,
            outcome,
            items,
            thrown,
            ..
        }) => json!({
            "player": player.0,
            "card": card.0,
            "kind": kind,
            "magic_paid": magic_paid,
            "rolls": rolls,
            "outcome": outcome.to_string(),
            "items": items.iter().map(|i| i.0).collect::<Vec<u32>>(),
            "thrown": thrown.map(|i| i.0),
        }),
        _ => Value::Null,
    }
}

fn ranking_json(ranking: &Ranking) -> Value {
    Value::Array(
        ranking
            .0
            .iter()
            .map(|(p, n)| json!({"player": p.0, "certificates": n}))
            .collect(),
    )
}

/// What every page sees: the lobby, the board with its face-up cards, every adventurer, the
/// decks' sizes (never their order), the last Chance card and battle, what the current player
/// may do now with the exact odds of every battle, and the result. `kind` is the game's name.
pub(super) fn view(kind: &str, table: &Table, creator: u32) -> Value {
    let game = &table.game;
    let (phase, turn, winner, ranking) = match &game.phase {
        Phase::NotSetUp => ("lobby", None, None, Value::Null),
        Phase::Playing(turn) => ("playing", Some(*turn), None, Value::Null),
        Phase::Won { winner, ranking } => ("won", None, Some(winner.0), ranking_json(ranking)),
        Phase::Ended { ranking } => ("ended", None, None, ranking_json(ranking)),
    };
    let spaces: Vec<Value> = game
        .spaces
        .iter()
        .map(|s| {
            json!({
                "adventure": s.adventure.map(|c| c.0),
                "items": s.items.iter().map(|i| i.0).collect::<Vec<u32>>(),
            })
        })
        .collect();
    let deck = |draw: usize, discard: usize| json!({"draw": draw, "discard": discard});
    json!({
        "game": kind,
        "phase": phase,
        "creator": creator,
        "seats": table.lobby.seats.iter().map(|s| json!({"player": s.player.0, "name": s.name, "bot": s.bot, "level": bot_level(table, s.player)})).collect::<Vec<Value>>(),
        "players": board::MIN_PLAYERS,
        "max_players": board::MAX_PLAYERS,
        "turn": turn.map(|t| json!({
            "player": t.player.0,
            "step": step_name(t.step),
            "extra": t.extra,
            "number": table.turns,
        })),
        "adventurers": game.adventurers.iter().map(|a| adventurer_json(table, a)).collect::<Vec<Value>>(),
        "turns_played": table.turns,
        "spaces": spaces,
        "decks": {
            "adventure": deck(game.decks.adventure.draw.len(), game.decks.adventure.discard.len()),
            "chance": deck(game.decks.chance.draw.len(), game.decks.chance.discard.len()),
            "common_items": deck(game.decks.common_items.draw.len(), game.decks.common_items.discard.len()),
            "rare_items": deck(game.decks.rare_items.draw.len(), game.decks.rare_items.discard.len()),
        },
        "last_chance": table.last_chance.map(|(p, c)| json!({"player": p.0, "card": c.0})),
        "last_battle": last_battle_json(table),
        "options": turn.map_or(Value::Null, |t| options(table, t.player, t.step)),
        "winner": winner,
        "ranking": ranking,
    })
}

/// The static content every board-game page needs once: the board, characters and cards by
/// id (served over HTTP, not in every view).
pub(super) fn content_json() -> Value {
    let content = &**CONTENT;
    let kind = |k: SpaceKind| -> Value { serde_json::to_value(k).unwrap_or(Value::Null) };
    let stats = |s: CreatureStats| match s {
        CreatureStats::Strength(v) => json!({"strength": v}),
        CreatureStats::Willpower(v) => json!({"willpower": v}),
        CreatureStats::StrengthThenWillpower {
            strength,
            willpower,
        } => json!({"strength": strength, "willpower": willpower, "first": "strength"}),
        CreatureStats::WillpowerThenStrength {
            willpower,
            strength,
        } => json!({"strength": strength, "willpower": willpower, "first": "willpower"}),
    };
    let effects = |effects: &[Effect]| -> Vec<String> {
        effects
            .iter()
            .map(|e| effect_words(*e, e.amount().unwrap_or(1)))
            .collect()
    };
    json!({
        "board": content.board.spaces.iter().enumerate().map(|(i, s)| json!({
            "id": i,
            "name": s.name,
            "kind": kind(s.kind),
            "port": s.port,
            "magic_gate": s.magic_gate,
            "guild": match s.kind { SpaceKind::Guild(g) => serde_json::to_value(g).unwrap_or(Value::Null), _ => Value::Null },
        })).collect::<Vec<Value>>(),
        "guilds": Guild::ALL.iter().map(|g| json!({"guild": g, "name": guild_name(*g)})).collect::<Vec<Value>>(),
        "characters": content.characters.iter().enumerate().map(|(i, c)| json!({
            "id": i, "name": c.name, "strength": c.strength, "willpower": c.willpower, "guilds": c.guilds,
        })).collect::<Vec<Value>>(),
        "adventures": content.adventures.iter().enumerate().map(|(i, card)| match card {
            AdventureCard::Creature(c) => json!({
                "id": i,
                "kind": "creature",
                "name": c.name,
                "stats": stats(c.stats),
                "experience": c.experience,
                "treasure": effects(&c.treasure),
                "on_loss": effects(c.loss_effects()),
                "three_lives": c.three_lives,
                "special": c.special.as_ref().map(|r| json!({"mandatory": r.mandatory(), "text": r.text})),
            }),
            AdventureCard::Opportunity(o) => json!({
                "id": i,
                "kind": "opportunity",
                "name": o.name,
                "text": o.text,
                "effects": effects(&o.effects),
            }),
        }).collect::<Vec<Value>>(),
        "chance": content.chance.iter().enumerate().map(|(i, c)| json!({
            "id": i, "name": c.name, "kind": c.kind, "copies": c.copies,
        })).collect::<Vec<Value>>(),
        "items": content.items.iter().enumerate().map(|(i, item)| json!({
            "id": i,
            "name": item.name,
            "cost": item.cost,
            "rarity": item.rarity,
            "slot": slot_name(item.slot),
            "thrown": matches!(item.slot, Slot::Weapon { thrown: Some(_), .. }),
            // Its Strength bonus when thrown (first roll only, then damaged), if it may be.
            "thrown_bonus": match item.slot {
                Slot::Weapon { thrown, .. } => thrown,
                _ => None,
            },
            "strength_bonus": item.strength_bonus,
            "willpower_bonus": item.willpower_bonus,
        })).collect::<Vec<Value>>(),
    })
}

fn slot_name(slot: Slot) -> &'static str {
    match slot {
        Slot::Weapon {
            hands: board::content::Hands::Two,
            ..
        } => "two-handed weapon",
        Slot::Weapon { .. } => "weapon",
        Slot::Shield => "shield",
        Slot::HandItem => "hand item",
        Slot::Headwear => "headwear",
        Slot::Other => "other",
    }
}
