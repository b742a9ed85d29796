// What the Challenge rules' page receives (PROTOCOL.md, "The view (Challenge rules)"). Written by
// hand from crates/server/src/games/challenge.rs, and checked against the views of a game
// played through its steps (e2e/tools/check-views.mjs).

export type Aptitude = 'knowledge' | 'awareness' | 'charisma' | 'physicality';
export type Skill =
  | 'nature' | 'society' | 'supernatural' | 'material'
  | 'surroundings' | 'people' | 'details' | 'animals'
  | 'persuade' | 'command' | 'deceive' | 'socialize'
  | 'might' | 'endure' | 'infiltrate' | 'manipulate';
export type Situation = 'difficult' | 'average' | 'favourable';
export type Band = 'failure_with_consequence' | 'failure' | 'partial_success' | 'success' | 'success_with_benefit';

export interface Specialty {
  skill: Skill;
  name: string;
}

/** A character sheet as its player wrote it (the `create_sheet` action's `sheet`). */
export interface Sheet {
  name: string;
  concept: string;
  aptitudes: Record<Aptitude, number>;
  skills: Skill[];
  specialties: Specialty[];
  abilities: string;
}

export interface Character {
  id: number;
  owner: number;
  owner_name: string;
  retired: boolean;
  sheet: Sheet;
  aptitudes: Array<{ aptitude: Aptitude; name: string; current: number; maximum: number }>;
  open_challenge: number | null;
}

/** The player's improvement: a Specialty (or none) and Aptitude points spent. */
export interface Choice {
  specialty?: Specialty | null;
  aptitude_points: number;
}

/** How many dice are rolled, and which is kept. */
export interface Pool {
  dice: number;
  keep: 'highest' | 'lowest';
}

export interface BandRange {
  from: number;
  to: number;
  label: string;
}

/** One improvement the player may choose, with the exact chance of each band, or its refusal. */
export type ChoiceOdds =
  | { choice: Choice; steps: number; pool: Pool; pool_words: string; bands: Array<BandRange & { p: string }>; refused?: undefined }
  | { choice: Choice; refused: { code: string; rule: string; message: string } };

export interface Challenge {
  id: number;
  character: number;
  called_by: number;
  description: string;
  situation: Situation;
  sides: number;
  situation_words: string;
  aptitude: Aptitude;
  skills: Skill[];
  allow_steps: number;
  bands: BandRange[];
  custom_bands: boolean;
  status: 'open' | 'cancelled' | 'rolled';
  outcome: {
    choice: Choice;
    skills_held: number;
    spent: Aptitude | null;
    pool: Pool;
    pool_words: string;
    steps: number;
    faces: number[];
    result: number;
    band: Band;
    label: string;
  } | null;
  narration: { by: number; text: string } | null;
  /** Only while the challenge is open. */
  choices: ChoiceOdds[];
}

export interface ChallengeView {
  game: 'challenge';
  creator: number;
  gm: number | null;
  players: Array<{ id: number; name: string; removed: boolean }>;
  characters: Character[];
  challenges: Challenge[];
  fights: Array<{ by: number; description: string; cost: string; suggested_by: number | null }>;
  /** The Skills under each Aptitude, with their names. */
  skills: Array<{ aptitude: Aptitude; name: string; skills: Array<{ skill: Skill; name: string; title: string }> }>;
}

/** Nothing is one player's secret in the Challenge rules. */
export type ChallengeOwn = null;
