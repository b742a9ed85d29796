// The Challenge rules' page: what it keeps of its own (challenge/main.js: the forms being
// filled in) and the context its view receives (common/page-types.d.ts).

import type { SharedUi, TableContext } from '../common/page-types';
import type { Aptitude, ChallengeOwn, ChallengeView, Situation, Skill } from './view-types';

/** A row of the GM's own band table; its numbers are as typed until the call is sent. */
export interface CallBand {
  key: number;
  from: number | string;
  to: number | string;
  label: string;
}

/** The GM's challenge being called: the form's fields as typed. */
export interface Call {
  /** The character's id, as the select has it ('' before there is one). */
  character: string;
  description: string;
  situation: Situation;
  aptitude: Aptitude;
  skills: Set<Skill>;
  allowSteps: string;
  custom: boolean;
  bands: CallBand[];
}

/** A fight being written down. */
export interface FightDraft {
  description: string;
  cost: string;
  /** The player who suggested the cost, as the select has it ('' for none). */
  suggested: string;
}

/** The sheet being made or edited: the form's fields as typed. */
export interface SheetDraft {
  mode: 'create' | 'edit';
  character: number | null;
  owner: string;
  name: string;
  concept: string;
  aptitudes: Record<string, string>;
  skills: Set<Skill>;
  specialties: Array<{ key: number; skill: Skill; name: string }>;
  abilities: string;
  nextKey: number;
}

export interface ChallengeUi extends SharedUi {
  /** Challenge id → the narration being written. */
  narrations: Record<number, string>;
  draft: SheetDraft | null;
  call: Call | null;
  fight: FightDraft | null;
  /** Whom the GM says rested ('' for everyone). */
  rest: string;
  /** Challenge id → the player's choice: a Specialty (its index, or -1) and an Aptitude point. */
  choices: Map<number, { specialty: number; spend: boolean }>;
  /** Bumped to give a form fresh fields. */
  gens: { call: number; fight: number; sheet: number };
  /** An element id to focus after the next render. */
  focusNext: string | null;
  announce: string;
  tab: string;
}

export interface ChallengeContext extends TableContext<ChallengeView, null, ChallengeOwn, ChallengeUi> {
  /** Focuses the element `id` after the next render. */
  focus(id: string): void;
}
