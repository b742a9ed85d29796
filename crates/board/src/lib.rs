//! The rules core of Prophecy, the board game, basic version: pure and event-sourced like the
//! story game's (no I/O, no clock, no random generator of its own: every shuffle and roll comes
//! from a [`dice::Seed`] inside a command and its outcome is stored in the event, so replaying a
//! log never re-rolls or re-shuffles).
//!
//! A game is its events. [`decide()`] checks a [`Command`] against the [`State`] and returns the
//! [`Event`]s it becomes or a [`Refusal`] naming the rules' section; [`evolve`] applies an
//! event and never fails.
//!
//! - [`content`]: the original board, characters, Adventure and Chance cards and Items,
//!   embedded TOML files checked on load (format in `content/README.md`).
//! - [`ids`], [`model`]: adventurers (Gold, Experience, Health and Magic cubes on the right and
//!   left, Certificates), decks, what lies on each space, turns.
//! - [`command`], [`event`], [`state`], [`decide`](mod@decide), [`refusal`]: the engine.
//! - [`encounter`], [`possibility`], [`market`]: the rules of Adventure cards and battles, of
//!   the spaces' Possibilities, and of buying, selling and repairing Items.
//! - [`bot`], [`simulate`]: bots that play any seat legally, and whole games between them
//!   summed up (game length, wins by character and seat, deaths, cards met).
//!
//! # Slices built
//!
//! Set-up (characters dealt, decks shuffled, 3 Gold and 3 Experience, adventurers on their
//! first guild, rolls for the first player), the Chance card at the start of each turn (terrain
//! cards, merchants, winds, Good Times, Charity, Peaceful Times' extra turn; decks reshuffled
//! from their discards when they run out), movement (stay, walk, horse, boat, Magic Gate),
//! Certificates and the win at the fifth, and passing the turn.
//!
//! Encountering the Adventure card where a move ends ([`encounter`]): a Creature there (met by
//! ending a move on it, or by staying on it) must be fought before anything else that turn, in
//! the battles its values allow (a Battle of Strength, of Wills, or the optional Battle of Wills
//! for two Magic), once or up to three rolls against three lives, every die stored in the event;
//! winning discards it for its Experience and treasure, a draw changes nothing, losing applies
//! its loss effects (one Health by default) and it stays face-up. An Opportunity may be used
//! (its effects, then discarded) or left face-up. Items drawn go to the adventurer. Death:
//! losing a Health with none on the right; the dead are out, and the last survivor wins.
//!
//! - The spaces' Possibilities after moving ([`possibility`], `Recover`): the Monastery (1
//!   Health free, once per turn), the Forest Camp (any Health, 1 Gold each), the Enchanted
//!   Wilderness (up to 3 Magic free, once per turn), the Magic Tower (any Magic, 1 Gold per 2
//!   rounded up), the Village's tavern (1 Gold: 1 Health and 1 Magic, once per turn); never
//!   while a Creature must be fought.
//! - Possibilities instead of movement (`Trade`, only after `Stay`, once per turn): the City
//!   (1 Magic for 2 Gold), the Thieves' Guild (1 Health for 3 Gold), the Fortress (1 Health for
//!   2 Experience); spending the last Health is refused, as it would kill.
//! - Buying Items lying in the City and the Village for their cost, selling carried undamaged
//!   ones there for half rounded up (discarded), repairing damaged ones for 1 Gold in any
//!   civilization space ([`market`]).
//! - Items in battle: `Fight` names the Items used, checked against the rules' limits (one
//!   weapon, two hands, one headwear, any number of others; carried, undamaged); their
//!   Strength or Willpower bonuses count; a thrown weapon in a Battle of Strength counts on the
//!   first roll only and is damaged. [`State::battle_odds`] takes the Items and gives the exact
//!   chances with them.
//!
//! # This slice
//!
//! - Creatures' special rules, as data ([`content::SpecialKind`], with the card's words for the
//!   page). Mandatory ones apply by themselves in `Fight`: `only_wills`, `only_strength`,
//!   `wills_then_strength` (two battles in one command), `drain_before` (Magic lost before the
//!   first roll), `draw_is_loss`, `rises_again` (back on another empty space of a terrain,
//!   drawn with the battle's seed). Optional ones are used instead of fighting with
//!   `UseSpecialRule`: `pay_to_pass` (the Creature stays) and `let_go` (discarded, for
//!   nothing). A battle a rule forbids, or using a mandatory rule, is refused naming the rule.
//! - The player's choices: `Fight` and `UseOpportunity` carry `clockwise` (which way a
//!   `move_one_space` effect moves her; absent: clockwise) and `lose_item` (which Item a
//!   `lose_item` effect takes; absent: the most recently obtained); a choice the card does not
//!   ask for, or an Item she does not carry, is refused. Every effect of the vocabulary is
//!   played, and every Creature is met.
//!
//! # Next
//!
//! Out of scope: the Standard Version (Astral Planes, Artifacts, Guardians, abilities and
//! spells), which the basic version's rules leave out.

#![forbid(unsafe_code)]

pub mod bot;
pub mod command;
pub mod content;
pub mod decide;
pub mod encounter;
pub mod event;
pub mod ids;
pub mod market;
pub mod model;
pub mod possibility;
pub mod refusal;
pub mod simulate;
pub mod state;

pub use command::{Action, BattleKind, Choices, Command, MoveKind};
pub use decide::{MAX_PLAYERS, MIN_PLAYERS, decide};
pub use event::{Event, SetUp};
pub use refusal::Refusal;
pub use state::{State, evolve};
