//! The table's limits: every text and count a player can send is bounded, and going past a
//! limit is refused (never truncated), naming the limit.

/// Players seated at one table at once (removed players do not count).
pub const MAX_PLAYERS: usize = 16;
/// Seats ever taken at one table, removed ones included (the state keeps every player, for
/// the names in its records).
pub const SEATS_EVER: usize = 100;
/// Characters of a table (live ones; retired sheets do not count).
pub const MAX_CHARACTERS: usize = 64;
/// Live character sheets one player may own (the GM's non-player characters count as the GM's).
pub const SHEETS_PER_PLAYER: usize = 6;
/// A player's or a character's name, in characters.
pub const NAME_LEN: usize = 60;
/// A character's concept, in characters.
pub const CONCEPT_LEN: usize = 200;
/// The optional abilities of a sheet, free text, in characters.
pub const ABILITIES_LEN: usize = 2000;
/// One Specialty's words, in characters.
pub const SPECIALTY_LEN: usize = 80;
/// Specialties a character may have under one Skill.
pub const SPECIALTIES_PER_SKILL: usize = 4;
/// Aptitude points a character may have in one Aptitude (at most).
pub const MAX_APTITUDE_POINTS: u32 = 20;
/// A Challenge's short description, in characters.
pub const DESCRIPTION_LEN: usize = 300;
/// Steps of improvement the rules allow without a special rule.
pub const STEPS_WITHOUT_SPECIAL_RULE: u32 = 2;
/// The most steps a GM's special rule may allow on one Challenge (the dice rolled are one more
/// than the steps beyond one, so this keeps every pool at a handful of dice).
pub const MAX_STEPS: u32 = 8;
/// One label of a GM's band table, in characters.
pub const BAND_LABEL_LEN: usize = 80;
/// A fight's description, and its cost, in characters each.
pub const FIGHT_TEXT_LEN: usize = 1000;
/// What an Aptitude point spent outside a Challenge was spent on, in characters.
pub const REASON_LEN: usize = 200;
/// Longest narration of a rolled Challenge, in characters.
pub const NARRATION_LEN: usize = 4000;
