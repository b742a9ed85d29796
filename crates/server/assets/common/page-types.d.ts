// The types of what every table page shares: the element builder's properties (common/dom.js),
// the page's state and presentation state, the context every game's view receives, and the
// parts a game gives `openTable` (common/table-page.js). The views themselves are in
// common/messages.d.ts and each game's view-types.d.ts.

import type { Invite, LogEntry, Me, RefusedMessage, SyncMessage, TakenUpdate } from './messages';

// ---------------------------------------------------------------- the element builder

/** What `h` takes as children: nodes, text, lists of them; null, undefined and booleans are skipped. */
export type Child = Node | string | number | boolean | null | undefined | Child[];

/** A class: a string, or a list whose empty members are dropped. */
export type ClassValue = string | null | undefined | false | Array<string | null | undefined | false>;

/**
 * Delegated handlers (common/dom.js `delegate`): each gets the event and the element that
 * carries it (an element of the tag `h` built). `null`: none.
 */
export interface Handlers<E> {
  onclick?: ((e: MouseEvent, el: E) => void) | null;
  onsubmit?: ((e: SubmitEvent, el: E) => void) | null;
  onchange?: ((e: Event, el: E) => void) | null;
  oninput?: ((e: Event, el: E) => void) | null;
  onkeydown?: ((e: KeyboardEvent, el: E) => void) | null;
  ontoggle?: ((e: Event, el: E) => void) | null;
  onfocus?: ((e: FocusEvent, el: E) => void) | null;
}

/** The element `h(tag)` builds. */
export type ElementOf<T extends string> = T extends keyof HTMLElementTagNameMap
  ? HTMLElementTagNameMap[T]
  : T extends `svg:${string}`
    ? SVGElement
    : HTMLElement;

/** The properties of a form of common/controls.js: `onsubmit` gets the form. */
export type FormProps = Omit<Handlers<HTMLFormElement>, 'onsubmit'> & {
  onsubmit: (form: HTMLFormElement) => void;
  class?: string | null;
  [attribute: string]: unknown;
};

/** `h`'s properties: `class`, `text`, `testid`, handlers, and any attribute. */
export type Props<E = Element> = Handlers<E> & {
  class?: ClassValue;
  text?: string | number | null;
  testid?: string | null;
  [attribute: string]: unknown;
};

// ---------------------------------------------------------------- requests and messages

/** An action as the page sends it: `{"action": name, ...fields}` (PROTOCOL.md). */
export type Action = { action: string; [field: string]: unknown };

/** What to do when an action is answered (common/requests.js `act`). */
export interface ActOptions {
  onDone?: () => void;
  onRefused?: (msg: RefusedMessage) => void;
  /** Reset the place's form on success. */
  reset?: boolean;
  /** Names of the place's fields set back to their defaults on success. */
  resetFields?: string[];
}

/**
 * A refusal or error shown at the place where the player acted; `at` is when it came (a check
 * made by the page itself may leave it out).
 */
export type PlaceMessage =
  | { kind: 'refused'; rule?: string; text: string; at: number }
  | { kind: 'error' | 'info'; rule?: string; text: string; at?: number };

export interface Toast {
  id: number;
  kind: string;
  text: string;
  rule?: string;
}

// ---------------------------------------------------------------- the page

/** The view as the page holds it: the server's, with `you` added by the page (from `sync`). */
export type Seen<View> = View & { you: number | null };

/** The screens of a table page. */
export type Screen = 'loading' | 'join' | 'table' | 'removed' | 'gone';

/** The page's state that every game shares (common/table-page.js `sharedState`). */
export interface SharedState<View, Content, Own> {
  screen: Screen;
  me: { player: number | null; name?: string; creator?: boolean } | null;
  view: Seen<View> | null;
  content: Content | null;
  own?: Own | null;
  seq: number;
  log: LogEntry[];
  logSeqs: Set<number>;
  lastLogSeq: number;
  logOlder: boolean;
  logAsking: boolean;
  online: Set<number>;
  /** A watcher's page (`/w/CODE`): no seat, nothing to act on. */
  watching: boolean;
  /** Watchers' pages open at this server. */
  watchers: number;
  connected: boolean;
  everTried: boolean;
  /** Server clock − local clock. */
  offset: number;
  removedMessage: string;
  goneMessage: string;
  joinError: string;
  joinPending: boolean;
  joinRefusal: string;
  joinAbout: Extract<Me, { player: null }>['table'] | null;
  invite: Invite | null;
  /** The name the table's creator gave it, from the sync; null when none. */
  name: string | null;
  /** The table's title from the sync: its name, or the game's for it (a dated default). */
  title: string | null;
  /** The seats this browser holds at the table (pass the phone), this page's among them. */
  device: DeviceSeat[];
}

/** A seat this browser holds. */
export type DeviceSeat = import('./messages').DeviceSeat;

/** Who the table waits for now (`TableGame.waitingOn`): their `turn`, `agreement` or `roll`.
 * `id` tells one wait from the next with the same players (a proposal's, a turn's number). */
export interface Waiting {
  players: number[];
  what: 'turn' | 'agreement' | 'roll';
  id?: number | string;
}

/** The "Pass to Bo" screen: the seat of this browser to pass to, and why (`null`: a player
 * chose it). */
export interface PassTo {
  player: number;
  name: string;
  what: Waiting['what'] | null;
  /** The wait it answers, for "Stay". */
  key?: string;
}

/** The presentation state every game shares (common/table-page.js `sharedUi`). */
export interface SharedUi {
  /** Place key → the request sent there and not answered yet. */
  pending: Map<string, number>;
  msgs: Map<string, PlaceMessage>;
  /** The <details> left open. */
  open: Set<string>;
  confirm: string | null;
  copied: boolean;
  toasts: Toast[];
  /** The last log line shown to the player. */
  seenLogSeq: number;
  /** The view a phone shows. */
  tab?: string;
  /** "While you were away" (common/away.js): what others did after `from` shows. */
  away: { from: number } | null;
  /** The last log entry when the page was hidden, while it is. */
  hiddenSeq: number | null;
  /** The replay being stepped through (common/replay.js), or none. */
  replay?: import('./replay.js').Replaying | null;
  /** The "Pass to Bo" screen, while it shows (common/device.js). */
  passTo: PassTo | null;
  /** The wait whose "Pass to" the player turned down ("Stay"), so it is not offered again. */
  passStayed: string | null;
  /** The form that adds a player on this device: open, sending, its error. */
  addingHere: boolean;
  addHerePending: boolean;
  addHereError: string;
}

/** The context every render function receives (common/table-page.js `context`). */
export interface TableContext<View, Content, Own, Ui extends SharedUi> {
  /** The server's view (never changed by the page); there whenever the table is drawn. */
  readonly view: Seen<View>;
  readonly content: Content | null;
  readonly online: Set<number>;
  readonly connected: boolean;
  readonly log: LogEntry[];
  readonly logOlder: boolean;
  readonly logAsking: boolean;
  readonly invite: Invite | null;
  readonly own: Own | null | undefined;
  /** The name the table's creator gave it (it wins over the game's own title); null when none. */
  readonly name: string | null;
  /** The table's title as *Your tables* shows it (at the last sync); null before one. */
  readonly title: string | null;
  /** This page's player. */
  readonly you: number | null;
  /** A watcher's page: it shows the table and acts on nothing. */
  readonly watching: boolean;
  /** Watchers' pages open at this server. */
  readonly watchers: number;
  /** A watcher's page in the stream layout (`?layout=stream`): the game draws `streamLayout`. */
  readonly stream: boolean;
  ui: Ui;
  token: string | null;
  /** Sends an action for the place `key`, where its refusal will show. */
  act(key: string, action: Action, opts?: ActOptions): void;
  rerender(): void;
  /** The server's clock. */
  serverNow(): number;
  copyLink(url: string): Promise<void>;
  changeInvite(action: string): Promise<void>;
  changeShare(action: string): Promise<void>;
  /** Opens (`open`) or closes (`close`) the watch link. */
  changeWatch(action: string): Promise<void>;
  /** Opens the replay of the game from its first event. */
  openReplay(): Promise<void>;
  /** The seats this browser holds at the table (pass the phone). */
  readonly device: DeviceSeat[];
  /** The words of the game's safety tools, when they are anonymous at the table: sharing a
   * device, they are not (`TableGame.anonymity`). */
  readonly anonymity: string | null;
  /** Adds a player named `name` on this device; whether it did. */
  addHere(name: string): Promise<boolean>;
  /** Shows the "Pass to" screen for a seat of this device. */
  passTo(player: number): void;
  olderLines(): void;
  toggled(key: string, open: boolean): void;
  dismissToast(id: number): void;
  dismissAway(): void;
  showTab(tab: string): void;
}

/** What a game gives `openTable` (common/table-page.js). */
export interface TableGame<View, Content, Own, Ui extends SharedUi, Ctx extends TableContext<View, Content, Own, Ui>> {
  name: string;
  content: boolean;
  intro: string;
  state?: Partial<SharedState<View, Content, Own>> & Record<string, unknown>;
  ui: Omit<Ui, keyof SharedUi> & Partial<SharedUi>;
  /** The game's own members of the context (getters kept). */
  ctx?: Omit<Ctx, keyof TableContext<View, Content, Own, Ui>> & Partial<TableContext<View, Content, Own, Ui>>;
  view(ctx: Ctx): Child;
  title(ctx: Ctx): string;
  logTab: string;
  waiting?(ctx: Ctx): string | null;
  viewed?(view: Seen<View>, before: Seen<View> | null): void;
  /** Who the table waits for now, for the "Pass to" screen when they share this device. */
  waitingOn?(view: Seen<View>): Waiting | null;
  /** The safety tools that are anonymous at the table ("the X-card and flags"): the page says
   * they are not among players who share a device. */
  anonymity?: string;
  /** What the game works out from the view and its player alone (a replay's steps have it too). */
  personalize?(view: Seen<View>): void;
  synced?(msg: SyncMessage<View, Own>, arriving: boolean): void;
  updated?(msg: TakenUpdate<View>, before: Seen<View> | null, firstNew: number): void;
  own?(msg: { own: Own }): void;
  beforeRender?(): unknown;
  afterRender?(memo: unknown): void;
}

/** The page `openTable` returns. */
export interface TablePage<View, Content, Own, Ui extends SharedUi, Ctx extends TableContext<View, Content, Own, Ui>> {
  game: TableGame<View, Content, Own, Ui, Ctx>;
  root: HTMLElement;
  state: SharedState<View, Content, Own>;
  ui: Ui;
  ctx: Ctx;
  render(): void;
  act(key: string, action: Action, opts?: ActOptions): void;
  toast(kind: string, text: string, rule?: string): void;
  /** Opens "While you were away", as when the player's turn comes round (shown at the next
   * render). */
  showAway(): void;
}

/** The context as the shared parts (common/shell.js, common/controls.js) use it, in any game. */
export type AnyContext = TableContext<unknown, unknown, unknown, SharedUi>;
