// What the story game's page receives (PROTOCOL.md, "The view (story game)"): the view every
// page is sent (crates/server/src/games/story/view.rs, `StoryView`), what only this player may
// know (`own`), and the worlds and modules (GET /games/story/content.json). Written by hand,
// and checked against the views of a game played to its end (e2e/tools/check-views.mjs).

export type PhaseId = 'prophecy' | 'characters' | 'outline' | 'story' | 'ended';
export type CategoryId = 'occupation' | 'physical_or_mental' | 'psychological' | 'relationship' | 'affiliation';
export type Motion =
  | 'advance' | 'return_to_outline' | 'make_check' | 'withdraw_pair' | 'resume' | 'end_game'
  | 'choose_moderator' | 'choose_dice' | 'publish';

export interface Proposal {
  id: number;
  motion: Motion;
  scene: number | null;
  pair: number | null;
  /** `advance`: the phase it moves to. */
  to: PhaseId | null;
  /** `choose_moderator`: who (`null`: no moderator). */
  player: number | null;
  /** `choose_dice`: real dice or the server's. */
  physical: boolean | null;
  label: string;
  by: number;
  agreed: number[];
  waiting: number[];
}

export interface Timer {
  timed: 'scene' | 'flashback' | 'flashforward';
  scene: number | null;
  minutes: number;
  counting: boolean;
  /** While it counts: when the time runs out (server clock). */
  deadline: number | null;
  /** While stopped: the time left (negative once it is up). */
  remaining_ms: number | null;
  held: boolean;
}

export interface Aspect {
  id: number;
  /** `null` when flagged. */
  text: string | null;
  flagged: boolean;
  category: CategoryId | null;
  category_name: string | null;
  /** A relationship's other character. */
  with: number | null;
  in_pair: boolean;
}

export interface StoryObject {
  id: number;
  name: string | null;
  name_flagged: boolean;
  kind: 'character' | 'person' | 'place' | 'thing' | 'npc';
  player: number | null;
  /** A character's categories still without an aspect. */
  missing: string[];
  aspects: Aspect[];
}

export interface Pair {
  id: number;
  character_aspect: number;
  environment_aspect: number;
  justification: string | null;
  justification_flagged: boolean;
  proposed_by: number;
  accepted_by: number[];
  objections: number[];
  counts: boolean;
}

export type PoolEntry = { kind: 'die' } | { kind: 'matching_pair'; pair: number } | { kind: 'reward_die'; precursor: number };

export interface Odds {
  dice: number;
  p_success: number;
  exact: string;
  /** The scene being played only: with one more matching pair, and by the number of dice. */
  p_next?: number;
  exact_next?: string;
  curve?: number[];
}

export interface Die {
  face: number;
  hit: boolean;
  cause: PoolEntry | { kind: 'exploded_from'; index: number };
}

export interface Check {
  physical: boolean;
  difficulty: number;
  outcome: 'success' | 'failure';
  hits: number;
  dice: Die[];
}

export interface Scene {
  id: number;
  parent: number | null;
  objective: string | null;
  objective_flagged: boolean;
  difficulty: number;
  /** In words: "the Finale", "a primary scene (3)". */
  level: string;
  depth: number;
  precursors: number[];
  time: string | null;
  place: string | null;
  setting_flagged: boolean;
  objects: number[];
  status: 'sketched' | 'available' | 'in_progress' | 'performed';
  started_at: number | null;
  rolling: boolean;
  pairs: Pair[];
  pool: PoolEntry[];
  odds: Odds | null;
  check: Check | null;
  narration: string | null;
  narration_flagged: boolean;
}

export type ProphecySource =
  | { kind: 'catastrophe'; world: string; roll: number; tens: number; units: number }
  | { kind: 'module'; title: string }
  | { kind: 'written' };

export interface StoryView {
  game: 'story';
  title: string;
  creator: number;
  ruleset: {
    id: '1.0' | '1.1' | 'temporal';
    name: string;
    finale_difficulty: number;
    scene_minutes: number;
    temporal: boolean;
    moderator_allowed: boolean;
  };
  phase: { id: PhaseId; name: string; act: string | null; next: { id: PhaseId; name: string } | null };
  paused: boolean;
  x_card: boolean;
  proposal: Proposal | null;
  voters: number[];
  physical_dice: boolean;
  timer: Timer | null;
  question: string | null;
  question_flagged: boolean;
  checked_any: boolean;
  players: Array<{ id: number; name: string; character: number | null; moderator: boolean }>;
  moderator: number | null;
  /** Never who drew them: `own.lines` tells each player their own. */
  lines: Array<{ id: number; text: string }>;
  prophecy: { text: string | null; flagged: boolean; editable: boolean; source: ProphecySource } | null;
  objects: StoryObject[];
  categories: Array<{ id: CategoryId; name: string }>;
  finale: number | null;
  in_progress: number | null;
  scenes: Scene[];
  flashback: string | null;
  flashback_flagged: boolean;
  long_term_effects: string | null;
  long_term_effects_flagged: boolean;
  warnings: string[];
  /** Each unperformed scene's chance, by scene id. */
  outline_odds: Record<string, number>;
  /** The Finale's chance if a scene succeeds and if it fails, by scene id. */
  finale_if: Record<string, [number, number]>;
}

/** What only this player may know: the lines they drew, and whether the X-card pause is theirs. */
export interface StoryOwn {
  lines: number[];
  paused: boolean;
}

export interface World {
  slug: string;
  name: string;
  genre: string;
  summary: string;
  temporal: boolean;
}

export interface Module {
  slug: string;
  title: string;
  summary: string;
  /** The world's slug. */
  world: string | null;
  temporal: boolean;
  prophecy: string;
}

/** GET /games/story/content.json: the worlds and modules. */
export interface StoryContent {
  worlds: World[];
  modules: Module[];
}
