// The board game's page: what it keeps of its own (board/main.js) and the context its view
// receives (common/page-types.d.ts, with the board game's view and content).

import type { SharedUi, TableContext } from '../common/page-types';
import type { BattleKind, BoardContent, BoardOwn, BoardView, BotLevel } from './view-types';

export interface BoardUi extends SharedUi {
  /** The space whose details are shown. */
  space: number | null;
  /** The space that holds the board's tab stop. */
  focusSpace: number | null;
  /** The battle's choices, for one battle (`key`): its kind, the Items, and throwing the weapon. */
  battle: { key: string | null; kind: BattleKind | null; items: Set<number>; throw: boolean };
  /** The level of the next bot the creator seats. */
  botLevel: BotLevel;
  /** The player's choices a card asks for (the direction of a one-space move, the Item lost). */
  choice: { clockwise: boolean; lose_item: number | null };
  tab: string;
  /** Whether the last Chance card and battle arrived just now (they turn over, roll). */
  fresh: { chance: boolean; battle: boolean };
  /** The last log line before this turn began (its lines are "This turn" in the turn's panel). */
  turnFromSeq: number | null;
  /** Pieces walking to where they moved, by player: the spaces on the way, and the one shown. */
  walks: Map<number, { path: number[]; at: number }>;
}

export interface BoardContext extends TableContext<BoardView, BoardContent, BoardOwn, BoardUi> {
  /** The table is drawn only once the content came (board/main.js `waiting`). */
  readonly content: BoardContent;
  /** A phone's width. */
  readonly narrow: boolean;
}
