// What the board game's page receives (PROTOCOL.md, "The view (board game)"): the view every
// page is sent, and the game's static content (GET /games/board/content.json). Written by hand
// from crates/server/src/games/board.rs, and checked against the views of a whole game
// (e2e/tools/check-views.mjs).

export type Guild = 'fortress' | 'thieves-guild' | 'magic-tower' | 'forest-camp' | 'monastery';
export type Terrain = 'mountains' | 'forest' | 'plains';
export type Step = 'draw_chance' | 'move' | 'battle' | 'moved';
export type BattleKind = 'strength' | 'wills';
export type Phase = 'lobby' | 'playing' | 'won' | 'ended';

/** How a move is made (the `move` action's `how`). */
export type MoveHow =
  | 'stay'
  | { walk: { clockwise: boolean } }
  | { horse: { clockwise: boolean } }
  | { boat: { clockwise: boolean } }
  | { magic_gate: { to: number } };

/** Exact fractions ("7/12"). */
export interface Odds {
  win: string;
  draw: string;
  loss: string;
}

/** A battle she may fight, with the Items used, and its odds. */
export interface Battle {
  kind: BattleKind;
  items: number[];
  /**
   * Whether she throws her weapon (one that may be thrown, among `items`) in the Battle of
   * Strength: a set of Items with such a weapon is listed twice, held (false) and thrown (true).
   */
  throw: boolean;
  /** The weapon thrown, when `throw`. */
  thrown: number | null;
  yours: number;
  /** A thrown weapon's thrown bonus, on the first roll only. */
  first_roll_bonus: number;
  theirs: number;
  magic: number;
  lives: number;
  /** A Battle of Wills won is followed by this Battle of Strength (`wills_then_strength`). */
  then: { yours: number; first_roll_bonus: number; theirs: number } | null;
  /** Of the whole fight: both battles when there are two. */
  odds: Odds;
}

export interface Move {
  how: MoveHow;
  to: number;
  to_name: string;
  cost: number;
  /** The Creature on the space she would reach. */
  creature: number | null;
  /** The best battle there, when a Creature waits. */
  battle: Battle | null;
}

/** What the player whose turn it is may do now. */
export interface Options {
  player: number;
  step: Step;
  draw_chance: boolean;
  moves: Move[];
  battles: Battle[];
  opportunity: number | null;
  /** The Opportunity here that she cannot use now, and why (its price, say). */
  opportunity_unusable: { card: number; why: string } | null;
  special_rule: { rule: 'pay_to_pass' | 'let_go'; text: string; cost: number } | null;
  /** The choices a card here asks for before the action. */
  choices: Array<'clockwise' | 'lose_item'>;
  recover: Array<{ amount: number; healed: number; recharged: number; cost: number }>;
  trade: { health: number; magic: number; gold: number; experience: number } | null;
  buy: Array<{ item: number; cost: number; allowed: boolean }>;
  sell: Array<{ item: number; price: number }>;
  repair: number[];
  certificate: { guild: Guild; experience: number; gold: number } | null;
  end_turn: boolean;
}

/** Health or Magic: the points on the right (available) and on the left (lost or spent). */
export interface Track {
  right: number;
  left: number;
}

/** How well a bot plays. */
export type BotLevel = 'easy' | 'standard' | 'strong';

export interface Adventurer {
  player: number;
  name: string;
  bot: boolean;
  /** The level of the bot playing the seat; null when a person plays it. */
  level: BotLevel | null;
  character: number;
  space: number;
  gold: number;
  experience: number;
  health: Track;
  magic: Track;
  certificates: Guild[];
  items: number[];
  damaged: number[];
  alive: boolean;
  miss_turn: boolean;
}

export interface Deck {
  draw: number;
  discard: number;
}

export interface BoardView {
  game: 'board';
  phase: Phase;
  creator: number;
  seats: Array<{ player: number; name: string; bot: boolean; level: BotLevel | null }>;
  /** The fewest and the most seats a game starts with. */
  players: number;
  max_players: number;
  turn: { player: number; step: Step; extra: boolean; number: number } | null;
  adventurers: Adventurer[];
  turns_played: number;
  spaces: Array<{ adventure: number | null; items: number[] }>;
  decks: { adventure: Deck; chance: Deck; common_items: Deck; rare_items: Deck };
  last_chance: { player: number; card: number } | null;
  last_battle: {
    player: number;
    card: number;
    kind: BattleKind;
    magic_paid: number;
    rolls: Array<[number, number]>;
    outcome: 'win' | 'draw' | 'loss';
    items: number[];
    /** The weapon she threw in this Battle of Strength, if any. */
    thrown: number | null;
  } | null;
  options: Options | null;
  winner: number | null;
  ranking: Array<{ player: number; certificates: number }> | null;
}

/** Nothing is one player's secret in the board game. */
export type BoardOwn = null;

export type SpaceKind = Guild | Terrain | 'city' | 'village' | 'enchanted-wilderness';

export interface Creature {
  id: number;
  kind: 'creature';
  name: string;
  stats: { strength?: number; willpower?: number; first?: 'strength' | 'willpower' };
  experience: number;
  treasure: string[];
  on_loss: string[];
  three_lives: boolean;
  special: { mandatory: boolean; text: string } | null;
}

export interface Opportunity {
  id: number;
  kind: 'opportunity';
  name: string;
  text: string;
  effects: string[];
}

export type ChanceKind =
  | { terrain: Terrain }
  | { restock: { space: 'city' | 'village'; deck: 'common' | 'rare'; count: number } }
  | { wind: { heal: number; recharge: number } }
  | { good_times: { gold: number } }
  | { charity: { gold: number; heal: number; recharge: number } }
  | 'peaceful_times';

export interface Item {
  id: number;
  name: string;
  cost: number;
  rarity: 'common' | 'rare';
  slot: 'two-handed weapon' | 'weapon' | 'shield' | 'hand item' | 'headwear' | 'other';
  /** A weapon that may be thrown. */
  thrown: boolean;
  /** Its Strength bonus when thrown (first roll only, then damaged); null if it cannot be. */
  thrown_bonus: number | null;
  strength_bonus: number;
  willpower_bonus: number;
}

/** GET /games/board/content.json: the board, characters and cards by id. */
export interface BoardContent {
  board: Array<{ id: number; name: string; kind: SpaceKind; port: boolean; magic_gate: boolean; guild: Guild | null }>;
  guilds: Array<{ guild: Guild; name: string }>;
  characters: Array<{ id: number; name: string; strength: number; willpower: number; guilds: Guild[] }>;
  adventures: Array<Creature | Opportunity>;
  chance: Array<{ id: number; name: string; kind: ChanceKind; copies: number }>;
  items: Item[];
}
