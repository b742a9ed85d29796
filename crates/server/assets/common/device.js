// Pass the phone: the seats one browser holds at a table. The page speaks for one of them at a
// time (its socket's `?seat=N`, the `Prophecy-Seat` header of its requests), remembered for
// this tab. When the table waits for another of them, "Pass to Bo" hides the one player's page
// before it shows the next one's; the bar above the table lists them, and adds a player.

import { h } from './dom.js';
import { button } from './controls.js';

/**
 * @typedef {import('./page-types').AnyContext} Ctx
 * @typedef {import('./page-types').DeviceSeat} DeviceSeat
 * @typedef {import('./page-types').Waiting} Waiting
 */

/** @param {string} token */
const storageKey = (token) => `prophecy.seat.${token}`;

/**
 * The seat this tab chose at the table `token`, or null (the browser's first).
 * @param {string | null} token
 * @returns {number | null}
 */
export function chosenSeat(token) {
  if (!token) return null;
  try {
    const chosen = sessionStorage.getItem(storageKey(token));
    return chosen && /^\d+$/.test(chosen) ? Number(chosen) : null;
  } catch {
    return null;
  }
}

/**
 * Remembers the seat this tab speaks for (`null`: the browser's first).
 * @param {string} token
 * @param {number | null} player
 */
export function chooseSeat(token, player) {
  try {
    if (player === null) sessionStorage.removeItem(storageKey(token));
    else sessionStorage.setItem(storageKey(token), String(player));
  } catch {
    // Storage refused (a private window): the page speaks for the browser's first seat.
  }
}

/**
 * The headers that name this tab's seat in a request to the table.
 * @param {string | null} token
 * @returns {Record<string, string>}
 */
export function seatHeaders(token) {
  const chosen = chosenSeat(token);
  return chosen === null ? {} : { 'Prophecy-Seat': String(chosen) };
}

/**
 * The safety tools' words, as the page says them to players who share a device.
 * @param {string} tools "the X-card and flags"
 */
export function anonymityWords(tools) {
  return `${tools[0].toUpperCase()}${tools.slice(1)} are not anonymous among the players who share this device: they can see who holds it when one is used.`;
}

/**
 * After the table changed: the "Pass to" screen when it waits for another seat of this browser
 * and not for this one; none once it waits for this one again. A wait the player turned down
 * ("Stay") is not offered again.
 * @param {{state: import('./page-types').SharedState<unknown, unknown, unknown>, ui: import('./page-types').SharedUi,
 *   game: {waitingOn?: (view: any) => Waiting | null}}} page
 */
export function checkPass(page) {
  const { state, ui, game } = page;
  if (state.device.length < 2 || state.watching || ui.replay || !state.view || !game.waitingOn) return;
  const you = state.me ? state.me.player : null;
  const waiting = game.waitingOn(state.view);
  const next = waiting && !waiting.players.some((p) => p === you) ? state.device.find((s) => s.player !== you && waiting.players.includes(s.player)) : null;
  if (!waiting || !next) {
    // A pass the table asked for is over; one a player asked for stays.
    if (ui.passTo && ui.passTo.what) ui.passTo = null;
    return;
  }
  const key = `${waiting.what}:${waiting.id === undefined ? '' : waiting.id}:${waiting.players.join(',')}`;
  if (ui.passStayed === key) return;
  ui.passTo = { player: next.player, name: next.name, what: waiting.what, key };
}

/** @type {Record<string, (name: string) => string>} */
const WHY = {
  turn: (name) => `It is ${name}’s turn.`,
  agreement: (name) => `The table waits for ${name} to agree.`,
  roll: (name) => `${name} has a roll to make.`,
};

/**
 * The screen between two players of one device: who takes it and why, what just happened, and
 * the button that shows their seat. Nothing of the last player's page is on it.
 * @param {{state: import('./page-types').SharedState<unknown, unknown, unknown>, ui: import('./page-types').SharedUi}} page
 * @param {(player: number) => void} take
 * @param {() => void} stay
 */
export function passScreen(page, take, stay) {
  const { state, ui } = page;
  const pass = /** @type {import('./page-types').PassTo} */ (ui.passTo);
  const you = state.device.find((s) => state.me && s.player === state.me.player);
  const yourName = you ? you.name : 'me';
  const why = pass.what ? WHY[pass.what](pass.name) : `${yourName} passes the device to ${pass.name}.`;
  const recent = state.log.slice(-3);
  return h(
    'main',
    { class: 'center-screen pass-screen', id: 'main', testid: 'pass-screen', 'data-player-id': pass.player },
    h('p', { class: 'brand' }, 'Prophecy'),
    h('h1', { testid: 'pass-title', tabindex: -1 }, `Pass to ${pass.name}`),
    h('p', { class: 'pass-why', testid: 'pass-why' }, why),
    recent.length
      ? h(
          'section',
          { class: 'pass-recent', 'aria-labelledby': 'pass-recent-h' },
          h('h2', { id: 'pass-recent-h' }, 'What just happened'),
          h('ol', { class: 'log' }, recent.map((e) => h('li', { 'data-key': 's' + e.seq }, e.text))),
        )
      : null,
    h(
      'div',
      { class: 'pass-actions' },
      button(`I am ${pass.name}: show my seat`, () => take(pass.player), { class: 'primary', testid: 'pass-take' }),
      button(pass.what ? `Stay as ${yourName}` : `Back to ${yourName}`, stay, { class: 'ghost', testid: 'pass-stay' }),
    ),
  );
}

/**
 * Above the table when this browser holds several seats: who plays here (a tap passes the
 * device), adding one more, and what sharing a device costs the safety tools' anonymity.
 * @param {Ctx} ctx
 */
export function deviceBar(ctx) {
  if (ctx.device.length < 2 || ctx.watching) return null;
  return h(
    'section',
    { class: 'device-bar', 'aria-label': 'Players on this device', testid: 'device-bar', 'data-key': 'device-bar' },
    h(
      'div',
      { class: 'device-seats' },
      h('span', { class: 'device-label' }, 'On this device:'),
      ctx.device.map((s) =>
        s.player === ctx.you
          ? h('span', { class: 'device-seat current', 'aria-current': 'true', testid: 'device-seat', 'data-player-id': s.player, 'data-key': 'd' + s.player }, s.name)
          : button(s.name, () => ctx.passTo(s.player), { class: 'ghost small device-seat', testid: 'device-seat', 'data-player-id': s.player, 'data-key': 'd' + s.player, title: `Pass the device to ${s.name}` }),
      ),
      addHere(ctx),
    ),
    ctx.anonymity ? h('p', { class: 'small device-note', testid: 'device-anonymity' }, anonymityWords(ctx.anonymity)) : null,
  );
}

/**
 * "Add a player on this device", and its form: their name. Only while the table takes new
 * players (the invitation is open).
 * @param {Ctx} ctx
 */
export function addHere(ctx) {
  const { ui } = ctx;
  if (!ctx.invite || !ctx.invite.open || ctx.watching) return null;
  if (!ui.addingHere) {
    const open = () => {
      ui.addingHere = true;
      ui.addHereError = '';
      ctx.rerender();
      const field = document.getElementById('add-here-name');
      if (field) field.focus();
    };
    return button('Add a player on this device', open, { class: 'ghost small', testid: 'add-here', title: 'Someone who plays on this phone or tablet, passed from hand to hand' });
  }
  /** @param {HTMLFormElement} form */
  const send = async (form) => {
    const field = /** @type {HTMLInputElement} */ (form.elements.namedItem('name'));
    if (await ctx.addHere(field.value)) field.value = '';
  };
  const close = () => {
    ui.addingHere = false;
    ui.addHereError = '';
    ctx.rerender();
  };
  return h(
    'form',
    { class: 'add-here', testid: 'add-here-form', novalidate: true, 'aria-busy': ui.addHerePending ? 'true' : null, onsubmit: (e, form) => send(form) },
    h('label', { for: 'add-here-name' }, 'Name of the player who joins on this device'),
    h(
      'div',
      { class: 'row' },
      h('input', { id: 'add-here-name', name: 'name', type: 'text', maxlength: 80, autocomplete: 'off', required: true, testid: 'add-here-name', 'data-key': 'add-here-name' }),
      h('button', { type: 'submit', class: 'btn primary small', testid: 'add-here-submit', disabled: ui.addHerePending }, ui.addHerePending ? 'Adding…' : 'Add'),
      button('Done', close, { class: 'ghost small', testid: 'add-here-close' }),
    ),
    // With several seats here, the bar above says it already.
    h('p', { class: 'meta' }, 'They play on this device, passed from hand to hand: when the table waits for them, the page asks you to pass it.', ctx.anonymity && ctx.device.length < 2 ? ' ' + anonymityWords(ctx.anonymity) : null),
    ui.addHereError ? h('p', { class: 'message error', role: 'alert', testid: 'add-here-error' }, ui.addHereError) : null,
  );
}
