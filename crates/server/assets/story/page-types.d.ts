// The story game's page: the view as the page holds it (each object marked as this player's
// character, and whether they may edit it: story/main.js `personalize`), what the page keeps of
// its own (story/main.js), and the context its view receives (common/page-types.d.ts).

import type { SharedUi, TableContext } from '../common/page-types';
import type { StoryContent, StoryObject, StoryOwn, StoryView } from './view-types';

/** An object as the page holds it: marked by `personalize` as soon as each view comes. */
export type PageObject = StoryObject & {
  /** This player's character. */
  yours: boolean;
  /** This player may edit it (any object but another player's character). */
  editable: boolean;
};

/** The view as the page holds it. */
export type PageView = Omit<StoryView, 'objects'> & { objects: PageObject[] };

/** When each die of a check is thrown and lands, and when the result shows (ms; story/dice.js). */
export interface Timeline {
  throwAt: number[];
  land: number[];
  result: number;
}

/** A text the X-card can hide (the `flag` action's `target`). */
export interface FlagTarget {
  text: 'prophecy' | 'object_name' | 'aspect' | 'objective' | 'setting' | 'narration' | 'justification' | 'flashback' | 'long_term_effects' | 'question';
  id?: number;
}

/** A flagged text, for the paused banner's list (story/banners.js). */
export interface FlaggedText {
  target: FlagTarget;
  label: string;
  scene?: number;
  key: string;
}

export interface StoryUi extends SharedUi {
  /** The scene whose details show. */
  selected: number | null;
  /** Select the Finale once it is sketched. */
  selectFinale: boolean;
  /** The editors open, by key. */
  editing: Set<string>;
  /** The scene whose check with an empty pool the player is asked to confirm. */
  confirmEmpty: number | null;
  /** An aspect's category being chosen, by form key. */
  cat: Map<string, string>;
  world: string | null;
  module: string | null;
  /** The dice of a check, rolling. */
  anim: { scene: number; start: number; elapsed: number; times: Timeline } | null;
  /** The scenes whose check was shown. */
  seenChecks: Set<number>;
  /** Log lines from this seq wait until the dice have landed. */
  holdLogFrom: number | null;
  freshRoll: boolean;
  /** A form to focus after the next render. */
  focusNext: string | null;
  scrollToDetail: boolean;
  /** An object being created from a scene, to place there once it exists. */
  placeAfterCreate: { scene: number; name: string; known: Set<number> } | null;
  centerOutline: boolean;
  /** Scene id → the faces typed so far (real dice). */
  faces: Map<number, string>;
  /** The moderator's chosen question. */
  question: string;
  /** Form key → text typed and not saved (narrations). */
  drafts: Map<string, string>;
  tab: string;
  /** Views with something new since the player last looked. */
  attention: Set<string>;
  /** After the next render: the scene being played, or the top. */
  scrollTo: 'scene' | 'top' | 'check' | 'finale' | 'long-term' | null;
}

export interface StoryContext extends TableContext<PageView, StoryContent, StoryOwn, StoryUi> {
  skipAnimation(): void;
  goToFlag(f: FlaggedText): void;
  /** The scene being played comes into view (on a phone, its view first). */
  showScene(): void;
}
