// What players do at the table, through the page: create and join a table, receive the
// prophecy, make characters, write the outline, perform scenes. Every helper drives the page by
// its `data-testid` hooks (click, fill, select) and waits for the result a player would see;
// ids are read from the debug hook (`window.prophecy.view()`) only to find the right control.

import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BIN, Server, launchBrowser, player } from './harness.mjs';

/** How long a single expected change may take on a slow, busy machine. */
export const WAIT = 20_000;

/** `[data-testid="…"]` plus attribute filters, for CSS. */
export function tid(id, attrs = {}) {
  return `[data-testid="${id}"]` + Object.entries(attrs).map(([k, v]) => `[data-${k}="${v}"]`).join('');
}

// ---------------------------------------------------------------- a table and its players

/**
 * Starts a server and a browser; `run(table)` gets {server, browser, players: [], open(name,
 * options)}. Everything is closed afterwards, even when `run` throws; on failure each page's
 * screenshot and console errors, and the server's output, are printed.
 */
export async function withTable(name, run) {
  const server = await Server.start();
  let browser;
  const table = { server, players: [] };
  try {
    browser = await launchBrowser();
    table.browser = browser;
    table.open = async (playerName, options = {}) => {
      const p = await player(browser, options);
      p.name = playerName;
      p.page.setDefaultTimeout(WAIT);
      // Every message the page receives, in order (what a curious player could read).
      p.frames = [];
      p.page.on('websocket', (ws) => ws.on('framereceived', (f) => p.frames.push(String(f.payload))));
      table.players.push(p);
      return p;
    };
    await run(table);
  } catch (e) {
    await report(name, table, e);
    throw e;
  } finally {
    if (browser) await browser.close().catch(() => {});
    server.cleanup();
  }
}

async function report(name, table, error) {
  const dir = join(tmpdir(), 'prophecy-e2e-failures');
  mkdirSync(dir, { recursive: true });
  const lines = [`\n--- ${name} failed: ${error && error.message}`];
  for (const p of table.players) {
    const file = join(dir, `${name}-${p.name}`.replace(/[^\w.-]+/g, "-") + ".png");
    try {
      await p.page.screenshot({ path: file, fullPage: true, timeout: 5000 });
      lines.push(`${p.name}: screenshot ${file}`);
    } catch {
      lines.push(`${p.name}: no screenshot`);
    }
    if (p.errors.length) lines.push(`${p.name}: console errors:\n  ${p.errors.join('\n  ')}`);
  }
  lines.push(`server output (last 3000 chars):\n${table.server.output.slice(-3000)}`);
  console.error(lines.join('\n'));
}

/** Console errors that a deliberately dropped connection or stopped server causes. */
const NETWORK_ERROR = /WebSocket connection to .* failed|Failed to load resource: net::ERR_|net::ERR_(CONNECTION_REFUSED|INTERNET_DISCONNECTED|CONNECTION_RESET|EMPTY_RESPONSE|NETWORK_CHANGED)/;

/** The console errors and page errors of `p` (network failures left out when `network` is allowed). */
export function consoleErrors(p, { network = false } = {}) {
  return p.errors.filter((e) => !(network && NETWORK_ERROR.test(e)));
}

/** The home page: a name, the rules, Create; the page goes to the new table. */
export async function createTable(p, server, name, ruleset = '1.0') {
  await p.page.goto(`${server.url}/`);
  await p.page.getByTestId('create-name').fill(name);
  await p.page.getByTestId(`ruleset-${ruleset}`).check();
  await p.page.getByTestId('create-table').click();
  await p.page.waitForURL(/\/t\/[0-9a-f]{32}$/);
  await p.page.getByTestId('phase').waitFor();
  return inviteLink(p);
}

/**
 * Creates a table of the board game or the Challenge rules (`game`) on the home page as
 * `name`, with `bots` bots at a board table; resolves once the table's address is open.
 */
export async function createGameTable(p, server, name, game, { bots } = {}) {
  await p.page.goto(`${server.url}/`);
  await p.page.getByTestId('create-name').fill(name);
  await p.page.getByTestId(`game-${game}`).check();
  if (bots !== undefined) await p.page.getByTestId('bots').selectOption(String(bots));
  await p.page.getByTestId('create-table').click();
  await p.page.waitForURL(/\/t\/[0-9a-f]{32}$/);
}

/** The invitation link the page shows (it carries the table's invitation code). */
export async function inviteLink(p) {
  await p.page.waitForFunction(() => /\?join=[0-9a-f]{32}$/.test(document.querySelector('[data-testid="invite-link"]')?.value ?? ''));
  return p.page.getByTestId('invite-link').inputValue();
}

/** The invitation link: the join form, a name, Join. */
export async function joinTable(p, link, name) {
  await p.page.goto(link);
  await p.page.getByTestId('join-name').fill(name);
  await p.page.getByTestId('join-submit').click();
  await p.page.getByTestId('phase').waitFor();
}

/** A table with players named `names`; the first creates it, the others join by the link. */
export async function seatPlayers(table, specs) {
  const [first, ...rest] = specs;
  const creator = await table.open(first.name, first.options);
  const link = await createTable(creator, table.server, first.name, first.ruleset);
  const players = [creator];
  for (const s of rest) {
    const p = await table.open(s.name, s.options);
    await joinTable(p, link, s.name);
    players.push(p);
  }
  seated(players);
  await sameSeq(players);
  return { link, players };
}

/**
 * Tells each player who else sits at the table (`p.peers`), for the helpers that need every
 * player's agreement. A moderator (`p.moderator = true`) does not vote.
 */
export function seated(players) {
  for (const p of players) p.peers = players;
  return players;
}

// ---------------------------------------------------------------- screenshots

/** Where the tests keep screenshots worth a look (git-ignored). */
export const ARTIFACTS = resolve(new URL('.', import.meta.url).pathname, '../artifacts');

/** A screenshot of what `p` sees now (the viewport, or the whole page), under e2e/artifacts/. */
export async function shot(p, name, { fullPage = false } = {}) {
  mkdirSync(ARTIFACTS, { recursive: true });
  const file = join(ARTIFACTS, `${name}.png`);
  await p.page.screenshot({ path: file, fullPage });
  return file;
}

// ---------------------------------------------------------------- views on a phone

/**
 * On a phone the table shows one view at a time (the tab bar at the bottom): taps the view
 * that holds `locator`'s first element when another one is shown, as a player would. Does
 * nothing on a wide screen, where every view shows. Returns that element's locator.
 */
export async function reveal(p, locator) {
  const l = locator.first();
  await l.waitFor({ state: 'attached' });
  const tab = await l.evaluate((el) => {
    const bar = document.querySelector('[data-testid="tabbar"]');
    const layout = el.closest('[data-tab]');
    const box = el.closest('[data-tabs]');
    if (!bar || getComputedStyle(bar).display === 'none' || !layout || !box) return null;
    const tabs = box.getAttribute('data-tabs').split(' ');
    return tabs.includes(layout.getAttribute('data-tab')) ? null : tabs[0];
  });
  if (tab) {
    await p.page.getByTestId(`tab-${tab}`).click();
    await l.waitFor();
  }
  return l;
}

/**
 * Whether an element is wholly inside the viewport and not under something fixed there (a
 * phone's tab bar, a sticky banner): the middle of its top and bottom edges hit it.
 * @param {Element} el
 */
const SEEN = (el) => {
  const r = el.getBoundingClientRect();
  // Within a pixel: layout is in fractions of one, scroll positions are whole.
  if (!(r.top >= -1 && r.left >= -1 && r.bottom <= innerHeight + 1 && r.right <= innerWidth + 1)) return false;
  const x = r.left + r.width / 2;
  const hits = (y) => {
    const hit = document.elementFromPoint(x, y);
    return !!hit && (el.contains(hit) || hit.contains(el));
  };
  return hits(Math.max(0, r.top) + Math.min(2, r.height / 2)) && hits(Math.min(innerHeight, r.bottom) - Math.min(2, r.height / 2));
};

/** Whether the element is wholly inside its page's viewport, and not covered there. */
export function inViewport(locator) {
  return locator.evaluate(SEEN);
}

/** Whether the element is, or within 3 s comes (a smooth scroll), wholly in view (`SEEN`). */
export async function comesIntoView(p, locator) {
  await locator.waitFor();
  const el = await locator.elementHandle();
  return p.page.waitForFunction(SEEN, el, { timeout: 3000 }).then(
    () => true,
    () => false,
  );
}

/**
 * Waits for the log's line holding `text` to be on screen (on a phone, in the Table view, and
 * then back to the view the player was on, as a player glancing at the log does). Returns it.
 */
export async function logLine(p, text) {
  return glance(p, p.page.getByTestId('log-entry').filter({ hasText: text }));
}

/**
 * Waits for `locator` to show, looking in the view that holds it on a phone, then goes back to
 * the view the player was on (a glance at the players or the log). Returns the locator.
 */
export async function glance(p, locator) {
  // The page must be drawn first (after a reload it may not be yet), or there is no view to
  // come back to.
  await locator.first().waitFor({ state: 'attached' });
  const layout = p.page.getByTestId('layout');
  const was = (await layout.count()) ? await layout.getAttribute('data-tab') : null;
  await reveal(p, locator);
  await locator.first().waitFor();
  if (was && (await layout.getAttribute('data-tab')) !== was) await showTab(p, was);
  return locator;
}

/** Taps view `tab` on a phone (nothing on a wide screen). */
export async function showTab(p, tab) {
  const button = p.page.getByTestId(`tab-${tab}`);
  if (await button.isVisible()) await button.click();
}

// ---------------------------------------------------------------- waiting

export const seq = (p) => p.page.evaluate(() => window.prophecy.seq());
export const view = (p) => p.page.evaluate(() => window.prophecy.view());

/** Waits until the page has applied `n` more events than `before`; says why not if refused. */
export async function waitSeq(p, atLeast, what = 'the action') {
  try {
    await p.page.waitForFunction((s) => window.prophecy && window.prophecy.seq() >= s, atLeast, { timeout: WAIT });
  } catch (e) {
    const messages = await p.page
      .locator(`${tid('refusal')}, ${tid('request-error')}, ${tid('toast')}`)
      .allTextContents()
      .catch(() => []);
    throw new Error(`${p.name}: ${what} was not accepted (seq ${await seq(p).catch(() => '?')} < ${atLeast}); messages: ${JSON.stringify(messages)}`, { cause: e });
  }
}

/** Polls `condition` (a Node-side check) until it holds or `ms` pass. */
export async function until(condition, ms = WAIT) {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}

/**
 * Runs `fn` (UI steps) and waits until `p` has seen `events` more events: its action, accepted
 * and shown (where others act at the same time, also wait for what the action shows).
 */
export async function accepted(p, what, fn, events = 1) {
  const before = await seq(p);
  await fn();
  await waitSeq(p, before + events, what);
}

/** Waits until every page has applied the latest event any of them has. */
export async function sameSeq(players) {
  const s = Math.max(...(await Promise.all(players.map(seq))));
  await Promise.all(players.map((p) => waitSeq(p, s, 'catching up')));
  return s;
}

/** What each page's log shows: [seq, text] in order. */
export function logOf(p) {
  return p.page.evaluate(() =>
    Array.from(document.querySelectorAll('[data-testid="log-entry"]')).map((li) => [Number(li.getAttribute('data-seq')), li.querySelector('.log-text').textContent]),
  );
}

/** Asserts a log has every seq from 1 to its last exactly once, in order. */
export function contiguous(log) {
  return log.every(([s], i) => s === i + 1);
}

// ---------------------------------------------------------------- the prophecy and characters

/** Rolls d66 on `world` (a slug; the first world when not given). */
export async function rollProphecy(p, world) {
  await accepted(p, 'roll d66', async () => {
    if (world) await (await reveal(p, p.page.getByTestId('world-select'))).selectOption(world);
    await (await reveal(p, p.page.getByTestId('roll-d66'))).click();
  });
  await p.page.getByTestId('d66-roll').waitFor();
}

// ---------------------------------------------------------------- proposals (consent)

/** The players whose agreement a proposal needs: everyone seated but a moderator. */
export function voters(p) {
  return (p.peers || [p]).filter((q) => !q.moderator);
}

/** The id of the open proposal as `p`'s page has it (null when none). */
export function proposalId(p) {
  return p.page.evaluate(() => {
    const v = window.prophecy.view();
    return v.proposal ? v.proposal.id : null;
  });
}

/**
 * Every voter but `p` agrees to the open proposal (through the bar at the top of their page);
 * waits until it carried and the bar is gone from every page.
 */
export async function othersAgree(p, what) {
  const id = await proposalId(p);
  if (id === null) return; // a table of one carries at once
  for (const o of voters(p).filter((q) => q !== p)) {
    const bar = o.page.locator(tid('proposal', { 'proposal-id': id }));
    await bar.waitFor();
    await accepted(o, `agree to ${what}`, () => bar.getByTestId('proposal-agree').click());
  }
  for (const q of p.peers || [p]) await q.page.locator(tid('proposal', { 'proposal-id': id })).waitFor({ state: 'detached' });
}

/** `p` proposes (by `propose`, UI steps) and the other players agree: the motion carries. */
export async function proposeAndAgree(p, what, propose) {
  await accepted(p, `propose to ${what}`, propose);
  await othersAgree(p, what);
}

/** Moving on to the phase `to`: proposed by `p`, agreed by all; every page shows it. */
export async function advance(p, to) {
  await proposeAndAgree(p, `move on to ${to}`, async () => (await reveal(p, p.page.locator(tid('advance', { to })))).click());
  for (const q of p.peers || [p]) await q.page.locator(tid('phase', { phase: to })).waitFor();
}

/** The check of the scene being performed: proposed by `p`, agreed by all. */
export async function makeCheck(p) {
  await proposeAndAgree(p, 'make the check', async () => (await reveal(p, panel(p).getByTestId('make-check'))).click());
}

/** Ending the game: proposed by `p`, agreed by all; every page shows the end. */
export async function endGame(p) {
  await proposeAndAgree(p, 'end the game', async () => (await reveal(p, p.page.getByTestId('end-game'))).click());
  for (const q of p.peers || [p]) await q.page.locator(tid('phase', { phase: 'ended' })).waitFor();
}

export async function createCharacter(p, name) {
  await reveal(p, p.page.getByTestId('character-name'));
  await accepted(p, 'create a character', async () => {
    await p.page.getByTestId('character-name').fill(name);
    await p.page.getByTestId('create-character').click();
  });
  return myCard(p).waitFor();
}

export const myCard = (p) => p.page.locator(tid('object-card', { yours: 'true' }));
export const cardOf = (p, objectId) => p.page.locator(tid('object-card', { 'object-id': objectId }));

/** Adds an aspect on a card (a character's: with its category, and whom a Relationship names). */
export async function attachAspect(p, card, text, category, withName) {
  await reveal(p, card);
  await accepted(p, `attach "${text}"`, async () => {
    await card.getByTestId('aspect-text').fill(text);
    if (category) await card.getByTestId('aspect-category').selectOption(category);
    if (withName) await card.getByTestId('aspect-relationship-with').selectOption({ label: withName });
    // Enter in the field submits the form, as a player on a keyboard does. A click would aim
    // at coordinates that another player's update can move (on a phone, the cards above grow
    // while several players add aspects at once), and be lost.
    await card.getByTestId('aspect-text').press('Enter');
  });
  await card.getByTestId('aspect-text-display').filter({ hasText: text }).waitFor();
}

export const CATEGORIES = ['occupation', 'physical_or_mental', 'psychological', 'relationship', 'affiliation'];

/**
 * Every player creates their character (`chars[i]` = {name, aspects: five texts}), then gives
 * it five aspects, one per category, the Relationship naming the next player's character.
 */
export async function makeCharacters(players, chars) {
  for (const [i, p] of players.entries()) await createCharacter(p, chars[i].name);
  await sameSeq(players);
  await Promise.all(
    players.map(async (p, i) => {
      const other = chars[(i + 1) % players.length].name;
      for (const [k, category] of CATEGORIES.entries()) {
        await attachAspect(p, myCard(p), chars[i].aspects[k], category, category === 'relationship' ? other : null);
      }
      await myCard(p).getByTestId('missing').waitFor({ state: 'detached' });
    }),
  );
  await sameSeq(players);
}

/** The id of an object, an aspect or a scene by its text, from the page's view. */
export async function objectId(p, name) {
  return p.page.evaluate((n) => window.prophecy.view().objects.find((o) => o.name === n).id, name);
}

export async function aspectId(p, text) {
  return p.page.evaluate((t) => {
    for (const o of window.prophecy.view().objects) for (const a of o.aspects) if (a.text === t) return a.id;
    throw new Error(`no aspect ${t}`);
  }, text);
}

export async function sceneId(p, objective) {
  return p.page.evaluate((t) => window.prophecy.view().scenes.find((s) => s.objective === t).id, objective);
}

// ---------------------------------------------------------------- the outline

export async function sketchFinale(p, objective) {
  await reveal(p, p.page.getByTestId('finale-objective'));
  await accepted(p, 'sketch the Finale', async () => {
    await p.page.getByTestId('finale-objective').fill(objective);
    await p.page.getByTestId('sketch-finale').click();
  });
  return sceneId(p, objective);
}

/** Shows the scene's details (selects its node in the outline unless it is already shown). */
export async function selectScene(p, id) {
  const detail = p.page.locator(tid('scene-detail', { 'scene-id': id }));
  await reveal(p, p.page.locator(tid('outline-node', { 'scene-id': id })));
  if (!(await detail.isVisible())) await p.page.locator(tid('outline-node', { 'scene-id': id })).click();
  await detail.waitFor();
  return detail;
}

export async function sketchPrecursor(p, parent, objective) {
  const detail = await selectScene(p, parent);
  await accepted(p, 'sketch a precursor', async () => {
    await detail.getByTestId('sketch-objective').fill(objective);
    await detail.getByTestId('sketch-scene').click();
  });
  const id = await sceneId(p, objective);
  await p.page.locator(tid('outline-node', { 'scene-id': id })).waitFor();
  return id;
}

/** Adds a person, place or thing in the objects section; its id. */
export async function createObject(p, name, kind) {
  await accepted(p, `create ${name}`, async () => {
    const form = p.page.locator('[data-form="create-object"]');
    await reveal(p, form);
    await form.getByTestId('object-name').fill(name);
    await form.getByTestId('object-kind').selectOption(kind);
    await form.getByTestId('create-object').click();
  });
  const id = await objectId(p, name);
  await cardOf(p, id).waitFor();
  return id;
}

export async function setSetting(p, scene, time, place) {
  const detail = await selectScene(p, scene);
  await detail.getByTestId('edit-setting').click();
  await accepted(p, 'set the setting', async () => {
    await detail.getByTestId('setting-time').fill(time);
    await detail.getByTestId('setting-place').fill(place);
    await detail.getByTestId('set-setting').click();
  });
  await detail.getByTestId('setting-text').filter({ hasText: place }).waitFor();
}

export async function placeObject(p, scene, object) {
  const detail = await selectScene(p, scene);
  await accepted(p, 'place an object', async () => {
    await detail.getByTestId('place-object-select').selectOption(String(object));
    await detail.getByTestId('place-object').click();
  });
  await detail.locator(tid('scene-object-chip', { 'object-id': object })).waitFor();
}

// ---------------------------------------------------------------- the story

export const panel = (p) => p.page.getByTestId('scene-panel');

/** Chooses an available scene and starts it; the scene panel shows for everyone. */
export async function startScene(p, scene) {
  await reveal(p, p.page.locator(tid('available-scene', { 'scene-id': scene })));
  await p.page.locator(tid('available-scene', { 'scene-id': scene })).click();
  const detail = p.page.locator(tid('scene-detail', { 'scene-id': scene }));
  await accepted(p, 'start the scene', () => detail.getByTestId('start-scene').click());
  await p.page.locator(tid('scene-panel', { 'scene-id': scene })).waitFor();
}

export async function proposePair(p, characterAspect, environmentAspect, justification) {
  const sp = await reveal(p, panel(p));
  await accepted(p, 'propose a pair', async () => {
    await sp.getByTestId('pair-character-aspect').selectOption(String(characterAspect));
    await sp.getByTestId('pair-environment-aspect').selectOption(String(environmentAspect));
    await sp.getByTestId('pair-justification').fill(justification);
    await sp.getByTestId('propose-pair').click();
  });
  await sp.getByTestId('justification').filter({ hasText: justification }).waitFor();
}

export async function narrate(p, text) {
  const sp = await reveal(p, panel(p));
  await accepted(p, 'narrate', async () => {
    await sp.getByTestId('narration').fill(text);
    await sp.getByTestId('narrate').click();
  });
  await sp.getByTestId('narration-text').filter({ hasText: text }).waitFor();
}

export async function finishScene(p, scene) {
  await reveal(p, panel(p));
  await accepted(p, 'finish the scene', () => panel(p).getByTestId('finish-scene').click());
  await p.page.locator(tid('scene-panel', { 'scene-id': scene })).waitFor({ state: 'detached' });
}

/** The dice a page shows for a scene's check: faces, hits and outcome. */
export function shownRoll(p, scene) {
  return p.page.evaluate((id) => {
    const roll = document.querySelector(`[data-testid="roll"][data-scene-id="${id}"]`);
    const result = roll.querySelector('[data-testid="check-result"]');
    return {
      faces: Array.from(roll.querySelectorAll('[data-testid="die"]')).map((d) => Number(d.getAttribute('data-face'))),
      hits: Number(result.getAttribute('data-hits')),
      outcome: result.getAttribute('data-outcome'),
      text: result.textContent,
    };
  }, scene);
}

/** Exact odds from the command line (`prophecy odds`), to compare with what the page shows. */
export function exactOdds(dice, difficulty) {
  return JSON.parse(execFileSync(BIN, ['odds', '--dice', String(dice), '--difficulty', String(difficulty), '--json'], { encoding: 'utf8' }));
}

/** The page's way of writing a chance (ui.js `percent`). */
export function percent(p) {
  if (p <= 0) return '0%';
  if (p >= 1) return '100%';
  const v = p * 100;
  if (v < 0.1) return '<0.1%';
  if (v > 99.9) return '>99.9%';
  return (v < 10 || v > 90 ? v.toFixed(1) : v.toFixed(0)) + '%';
}

// ---------------------------------------------------------------- a game up to the story

export const CHARS = [
  { name: 'Wren', aspects: ['Smuggler', 'Keen eyes', 'Reckless', 'Owes Ash a life', 'River Guild'] },
  { name: 'Ash', aspects: ['Archivist', 'Frail', 'Stubborn', 'Sister of Moss', 'The Lantern Order'] },
  { name: 'Moss', aspects: ['Diver', 'Strong swimmer', 'Calm', 'Rival of Wren', 'Bell-keepers'] },
];

/** The texts of the game `gameToStory` sets up (tests may use their own, e.g. with HTML). */
export const TEXTS = {
  prophecy: null, // null: roll d66 on the first world
  finale: 'Silence the drowned bell',
  precursor: 'Steal the bell-keeper’s chart',
  place: 'The Sunken Archive',
  placeAspects: ['Flooded stacks', 'Unguarded at dawn'],
};

/** Writes the table's own prophecy. */
export async function writeProphecy(p, text) {
  await accepted(p, 'write the prophecy', async () => {
    await (await reveal(p, p.page.getByTestId('prophecy-input'))).fill(text);
    await p.page.getByTestId('write-prophecy').click();
  });
  await p.page.getByTestId('prophecy-text').waitFor();
}

/**
 * Seats players, receives the prophecy, makes characters, sketches the Finale and one
 * precursor with a place (two aspects) in its setting, and moves to the story. Returns ids.
 */
export async function gameToStory(table, specs, { chars = CHARS, texts = TEXTS } = {}) {
  const { link, players } = await seatPlayers(table, specs);
  const [a, b] = players;
  if (texts.prophecy) await writeProphecy(a, texts.prophecy);
  else await rollProphecy(a);
  await advance(b, 'characters');
  await makeCharacters(players, chars);
  await advance(a, 'outline');
  const finale = await sketchFinale(a, texts.finale);
  const precursor = await sketchPrecursor(b, finale, texts.precursor);
  const archive = await createObject(a, texts.place, 'place');
  for (const aspect of texts.placeAspects) await attachAspect(a, cardOf(a, archive), aspect);
  await placeObject(a, precursor, archive);
  await advance(a, 'story');
  await sameSeq(players);
  return { link, players, finale, precursor, archive };
}
