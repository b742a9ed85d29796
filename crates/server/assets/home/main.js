// The home page: create a table of the story game (with its ruleset), of the board game (with
// a number of bots) or of the Challenge rules (its creator is the game master), with a name if
// its creator gives one. Without
// JavaScript the form posts and the server answers 303; with it, the page posts JSON and goes to
// the table's address. Above the form: the tables this browser has a seat at (common/your-tables.js),
// each asked for its summary, which only a seated browser gets.

import { delegate, h } from '../common/dom.js';
import { forgetTable, rememberedTables } from '../common/your-tables.js';

// The page's elements (home/index.html).
const form = /** @type {HTMLFormElement} */ (document.querySelector('[data-testid="create-form"]'));
const error = /** @type {HTMLElement} */ (document.querySelector('[data-testid="create-error"]'));
const button = /** @type {HTMLButtonElement} */ (document.querySelector('[data-testid="create-table"]'));

/**
 * The value of the form's field `name`, or null when the form has none.
 * @param {string} name
 */
function valueOf(name) {
  const el = form.elements.namedItem(name);
  return el instanceof RadioNodeList || el instanceof HTMLInputElement || el instanceof HTMLSelectElement ? el.value : null;
}

// The rulesets only matter for the story game, the bots only for the board game: show what the
// chosen game uses (without JavaScript, everything shows and the server ignores the rest).
function showGame() {
  const game = valueOf('game') || 'story';
  const around = /** @type {ParentNode} */ (form.parentNode);
  for (const el of around.querySelectorAll('[data-for-game]')) if (el instanceof HTMLElement) el.hidden = el.getAttribute('data-for-game') !== game;
}
form.addEventListener('change', (e) => {
  // Change events come from the form's fields.
  if (/** @type {HTMLInputElement} */ (e.target).name === 'game') showGame();
});
showGame();

/** @param {string} text */
function showError(text) {
  error.textContent = text;
  error.hidden = !text;
  // Below the button, it can fall under the window's edge (the board game's settings are long).
  if (text) error.scrollIntoView({ block: 'nearest' });
}

form.addEventListener('submit', async (e) => {
  e.preventDefault();
  const name = (valueOf('name') || '').trim();
  // The server trims it and says what is wrong with it (too long, control characters).
  const tableName = valueOf('table_name') || '';
  const ruleset = valueOf('ruleset');
  const game = valueOf('game') || 'story';
  const bots = Number(valueOf('bots') ?? 0);
  const botLevel = valueOf('bot_level') || 'standard';
  if (!name) {
    showError('Type your name first.');
    /** @type {HTMLInputElement} */ (form.elements.namedItem('name')).focus();
    return;
  }
  showError('');
  button.disabled = true;
  button.textContent = 'Creating…';
  try {
    const r = await fetch('/tables', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ ...(game === 'board' ? { name, game, ruleset, bots, bot_level: botLevel } : game === 'challenge' ? { name, game } : { name, game, ruleset }), table_name: tableName }),
      credentials: 'same-origin',
    });
    const body = await r.json().catch(() => ({}));
    if (!r.ok) throw new Error(body.error || `The server answered ${r.status}.`);
    location.assign(body.url || `/t/${body.token}`);
  } catch (err) {
    button.disabled = false;
    button.textContent = 'Create the table';
    showError(err instanceof Error && err.message && err.message !== 'Failed to fetch' ? err.message : 'Could not reach the server. Try again.');
  }
});

// ------------------------------------------------------------------------------ your tables

const yourTables = /** @type {HTMLElement} */ (document.querySelector('[data-testid="your-tables"]'));
const tableList = /** @type {HTMLElement} */ (document.querySelector('[data-testid="table-list"]'));

/**
 * A table's summary, or why there is none (`retry`: it may come later).
 * @typedef {{ok: true, summary: import('../common/messages').Summary} | {ok: false, why: string, retry?: boolean}} Answer
 */

/**
 * "5 minutes ago", "yesterday", or a date.
 * @param {number} ms
 * @param {number} [now]
 */
export function ago(ms, now = Date.now()) {
  if (!ms) return 'nothing yet';
  const s = Math.max(0, Math.round((now - ms) / 1000));
  if (s < 60) return 'just now';
  const m = Math.round(s / 60);
  if (m < 60) return m === 1 ? 'a minute ago' : `${m} minutes ago`;
  const hours = Math.round(m / 60);
  if (hours < 24) return hours === 1 ? 'an hour ago' : `${hours} hours ago`;
  const days = Math.round(hours / 24);
  if (days === 1) return 'yesterday';
  if (days < 14) return `${days} days ago`;
  return new Date(ms).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
}

/**
 * What the table says about itself, or why it cannot: {ok, summary} or {ok: false, why}.
 * @param {string} token
 * @returns {Promise<Answer>}
 */
async function summaryOf(token) {
  try {
    const r = await fetch(`/t/${token}/summary`, { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
    if (r.ok) return { ok: true, summary: await r.json() };
    if (r.status === 401 || r.status === 403) return { ok: false, why: 'You no longer have a seat at this table.' };
    if (r.status === 404) return { ok: false, why: 'This table no longer exists.' };
    const body = await r.json().catch(() => ({}));
    return { ok: false, why: body.error || `The server answered ${r.status}.`, retry: true };
  } catch {
    return { ok: false, why: 'Could not reach the server.', retry: true };
  }
}

/**
 * @param {string} token
 * @param {Answer} answer
 */
function tableEntry(token, answer) {
  const forget = h(
    'button',
    {
      type: 'button',
      class: 'btn ghost small',
      testid: 'forget-table',
      // The name starts with the words shown (WCAG 2.5.3), then says which table.
      'aria-label': answer.ok ? `Remove from list: “${answer.summary.title}”` : 'Remove from list: this table',
      onclick: () => {
        forgetTable(token);
        showTables();
      },
    },
    'Remove from list',
  );
  if (!answer.ok) {
    return h(
      'li',
      { class: 'table-entry unavailable', testid: 'table-entry', 'data-token': token },
      h('p', { class: 'entry-why', testid: 'table-unavailable' }, answer.why),
      answer.retry ? h('a', { href: `/t/${token}` }, 'Try to open it') : null,
      forget,
    );
  }
  const s = answer.summary;
  const others = (s.players || []).filter((name) => name !== s.you.name);
  return h(
    'li',
    { class: 'table-entry', testid: 'table-entry', 'data-token': token },
    h(
      'a',
      { class: 'entry-open', href: `/t/${token}`, testid: 'open-table' },
      h('span', { class: 'entry-title' }, s.title),
      h('span', { class: 'entry-game' }, s.game_name || s.game),
    ),
    h('p', { class: 'entry-progress', testid: 'table-progress' }, s.progress),
    h(
      'p',
      { class: 'entry-meta small muted' },
      `You are ${s.you.name}`,
      others.length ? ` · with ${others.join(', ')}` : '',
      ` · last activity ${ago(s.last_activity)}`,
    ),
    forget,
  );
}

async function showTables() {
  const tables = rememberedTables();
  if (!tables.length) {
    yourTables.hidden = true;
    tableList.replaceChildren();
    return;
  }
  const answers = await Promise.all(tables.map((t) => summaryOf(t.token)));
  const entries = tables.map((t, i) => ({ token: t.token, answer: answers[i] }));
  // The most recently active first; tables that cannot answer last.
  entries.sort((a, b) => (b.answer.ok ? b.answer.summary.last_activity || 1 : 0) - (a.answer.ok ? a.answer.summary.last_activity || 1 : 0));
  tableList.replaceChildren(...entries.map((e) => tableEntry(e.token, e.answer)));
  yourTables.hidden = false;
}

delegate(tableList, ['click']);

showTables();
// Coming back to the tab (or through the back button) shows fresh summaries.
window.addEventListener('pageshow', (e) => {
  if (e.persisted) showTables();
});
