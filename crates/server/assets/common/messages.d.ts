// What every game's page receives from the server, whatever its game (PROTOCOL.md): the socket's
// messages, with the game's view and `own` as parameters, and the answers over HTTP. Written by
// hand, and checked against what pages really receive (e2e/tools/check-views.mjs).

/** One line of the log. */
export interface LogEntry {
  seq: number;
  /** Milliseconds since the epoch. */
  at: number;
  /** The acting player, or `null` for the anonymous safety tools and the table itself. */
  by: number | null;
  text: string;
  /** The line in pieces where it names what players wrote (the story game): each thing by
   * id, with the words that stand in for its text when it is flagged or gone. */
  parts?: Array<string | LogRef>;
}

/** A scene, object or aspect a log line names. */
export type LogRef =
  | { scene: number; text: string }
  | { object: number; text: string }
  | { aspect: number; text: string };

/** One operation of a JSON Patch (RFC 6902), as the server sends them. */
export interface PatchOp {
  op: 'add' | 'remove' | 'replace';
  path: string;
  value?: unknown;
}

/** The whole table: the answer to `hello`, and after the page fell behind. */
export interface SyncMessage<View, Own> {
  type: 'sync';
  seq: number;
  now: number;
  /** This page's player; `null` on a watcher's page. */
  you: number | null;
  log: LogEntry[];
  /** Some older lines were left out. */
  older: boolean;
  view: View;
  own: Own;
  online: number[];
  /** Watchers' pages open at this server. */
  watchers: number;
  /** The name the table's creator gave it; null when none. */
  name: string | null;
  /** The table's title as *Your tables* shows it: its name, or the game's for it. */
  title: string;
}

/** After every accepted action: a patch against the view at `base`, or the whole view. */
export type UpdateMessage<View> = {
  type: 'update';
  seq: number;
  now: number;
  log: LogEntry[];
} & ({ base: number; patch: PatchOp[]; view?: undefined } | { view: View; base?: undefined; patch?: undefined });

/** An update as the page takes it in (common/net.js): with the whole view, patched when a patch came. */
export interface TakenUpdate<View> {
  type: 'update';
  seq: number;
  now: number;
  log: LogEntry[];
  base?: number;
  patch?: PatchOp[];
  view: View;
}

/** Older log lines, the answer to `log`. */
export interface LogMessage {
  type: 'log';
  req: number;
  log: LogEntry[];
  older: boolean;
}

export interface DoneMessage {
  type: 'done';
  req: number;
  seq: number;
}

/** The rules said no: `code` is a stable name, `rule` the rule's name. */
export interface RefusedMessage {
  type: 'refused';
  req: number;
  code: string;
  rule: string;
  message: string;
}

/** The message itself was wrong (or too fast); `req` is `null` when it was not an action. */
export interface ErrorMessage {
  type: 'error';
  req?: number | null;
  message: string;
}

export interface PresenceMessage {
  type: 'presence';
  online: number[];
  /** Watchers' pages open at this server. */
  watchers: number;
}

export interface OwnMessage<Own> {
  type: 'own';
  own: Own;
}

export interface RemovedMessage {
  type: 'removed';
  message: string;
}

/** A watcher's page: the watch link was closed, and the socket closes. */
export interface ClosedMessage {
  type: 'closed';
  message: string;
}

/** A seat this browser holds at the table (pass the phone). */
export interface DeviceSeat {
  player: number;
  name: string;
}

/** The seats this page's browser holds at the table, after the first sync. */
export interface DeviceMessage {
  type: 'device';
  seats: DeviceSeat[];
}

/** The invitation or the published story's link changed: fetch `/t/{token}/invite` again. */
export interface InviteMessage {
  type: 'invite';
}

/** An answer to an action. */
export type AnswerMessage = DoneMessage | RefusedMessage | ErrorMessage;

/** Every message a table page's socket receives. */
export type ServerMessage<View, Own> =
  | SyncMessage<View, Own>
  | UpdateMessage<View>
  | LogMessage
  | AnswerMessage
  | PresenceMessage
  | OwnMessage<Own>
  | RemovedMessage
  | ClosedMessage
  | InviteMessage
  | DeviceMessage;

/** `GET /t/{token}/me`: who this page is, or why it has no seat. */
export type Me =
  | { player: number; name: string; creator: boolean; seats: DeviceSeat[] }
  | {
      player: null;
      joining: 'open' | 'closed' | 'wrong_link';
      message: string | null;
      table: { game: GameName; game_name: string; title: string; players: string[] } | null;
    };

export type GameName = 'story' | 'board' | 'challenge';

/** `GET /t/{token}/invite`. */
export interface Invite {
  open: boolean;
  /** `null` while joining is closed. */
  link: string | null;
  creator: boolean;
  /** The published story's link. */
  share: string | null;
  /** The watch link, `null` while none is open. */
  watch: string | null;
}

/** `GET /t/{token}/summary`: a seated player's table in a few words, for the home page. */
export interface Summary {
  game: GameName;
  /** The game's name for players ("Prophecy, the board game"). */
  game_name: string;
  title: string;
  progress: string;
  players: string[];
  last_activity: number;
  you: { player: number; name: string };
}
