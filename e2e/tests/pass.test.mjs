// Pass the phone: one browser holds several seats. Its page adds a player on this device,
// lists them above the table, and shows "Pass to Bo" (and nothing of the last player's page)
// whenever the turn, the agreement or the roll belongs to another seat of the device. The
// board game on one tablet with five people and on a phone with bots, a story table whose
// agreement goes round the phone, and a game master passing a laptop for a Challenge roll.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withTable, createGameTable, consoleErrors, inViewport, shot, view, tid, seatPlayers, accepted, reveal, joinTable, inviteLink, until } from './table.mjs';
import { createChallengeTable, makeSheet, callChallenge, roll } from './challenge-steps.mjs';

const PHONE = { viewport: { width: 375, height: 800 } };
const LAPTOP = { viewport: { width: 1280, height: 800 } };

/** Adds `name` on `p`'s device, through the invitation's "Add a player on this device". */
async function addHere(p, name) {
  const before = (await p.page.evaluate(() => window.prophecy.device().length)) || 1;
  const form = p.page.getByTestId('add-here-form');
  if (!(await form.isVisible())) await (await reveal(p, p.page.getByTestId('add-here').first())).click();
  await form.getByTestId('add-here-name').fill(name);
  await form.getByTestId('add-here-submit').click();
  await p.page.waitForFunction((n) => window.prophecy.device().length === n && window.prophecy.connected(), before + 1);
}

/** The seat `p`'s page speaks for now. */
const you = (p) => p.page.evaluate(() => window.prophecy.me()?.player ?? null);

/**
 * Waits for the "Pass to" screen and checks it: in view, naming `name`, nothing of the table
 * behind it; then takes it and waits for that seat's table.
 */
async function passTo(p, name, shotName) {
  const screen = p.page.getByTestId('pass-screen');
  await screen.waitFor();
  assert.equal(await p.page.getByTestId('pass-title').textContent(), `Pass to ${name}`);
  assert.ok(await inViewport(p.page.getByTestId('pass-take')), 'the button that hands over is in view');
  assert.equal(await p.page.locator('#app [data-testid="layout"], #app [data-testid="topbar"]').count(), 0, 'nothing of the last player’s page shows');
  if (shotName) await shot(p, shotName);
  const player = Number(await screen.getAttribute('data-player-id'));
  await p.page.getByTestId('pass-take').click();
  await p.page.waitForFunction((pl) => window.prophecy.me()?.player === pl && window.prophecy.connected() && document.querySelector('[data-testid="topbar"]'), player);
  return player;
}

/** One step of a board turn for whoever may act: draw, fight, move, end. */
async function boardStep(p) {
  const v = await view(p);
  const o = v.options;
  const turn = p.page.locator(tid('turn', { mine: 'true' }));
  const act = async (locator) => {
    const before = v.seq ?? (await p.page.evaluate(() => window.prophecy.seq()));
    await (await reveal(p, locator)).click();
    await p.page.waitForFunction((s) => window.prophecy.seq() > s || document.querySelector('[data-testid="pass-screen"]'), before);
  };
  if (o.draw_chance) return act(turn.getByTestId('draw-chance'));
  if (v.turn.step === 'battle') return act(o.battles.length ? turn.getByTestId('fight') : turn.getByTestId('use-special-rule'));
  if (o.moves.length) return act(turn.getByTestId('move').first());
  if (o.end_turn) return act(turn.getByTestId('end-turn'));
  throw new Error(`nothing to do at step ${v.turn.step}`);
}

/**
 * Plays the board game on one device for `turns` turns of its people: each turn, the page's
 * seat is the one whose turn it is, or the pass screen names them.
 */
async function playBoard(p, turns, names, shotPrefix) {
  const played = new Set();
  let shots = 0;
  for (let i = 0; played.size < turns; i++) {
    assert.ok(i < 200, `${turns} turns take too many steps (${[...played]})`);
    if (await p.page.getByTestId('pass-screen').isVisible()) {
      const v = await view(p);
      const waiting = v.options ? v.options.player : v.turn.player;
      const player = await passTo(p, names[waiting], shots++ < 1 ? `${shotPrefix}-pass` : null);
      assert.equal(player, waiting, 'the pass screen names the player who may act');
      continue;
    }
    const v = await view(p);
    if (v.phase !== 'playing') break;
    const acting = v.options ? v.options.player : v.turn.player;
    if (!(acting in names)) {
      // A bot plays: wait for its turn to end.
      await p.page.waitForFunction((t) => window.prophecy.view().turn?.number !== t || document.querySelector('[data-testid="pass-screen"]'), v.turn.number, { timeout: 30_000 });
      continue;
    }
    assert.equal(acting, await you(p), 'the page shows the seat whose turn it is');
    if (i === 2 && shotPrefix) await shot(p, `${shotPrefix}-turn`);
    played.add(`${v.turn.number}`);
    await boardStep(p);
  }
}

for (const [size, options, people, bots] of [
  ['tablet', LAPTOP, ['Ada', 'Bo', 'Cy', 'Di', 'Eve'], 0],
  ['phone', PHONE, ['Ada', 'Bo'], 2],
]) {
  test(`the board game on one ${size}: ${people.length} people${bots ? ` and ${bots} bots` : ''}, passed at every turn`, { timeout: 240_000 }, async () => {
    await withTable(`pass-board-${size}`, async (table) => {
      const p = await table.open(people[0], options);
      await createGameTable(p, table.server, people[0], 'board', { bots });
      await p.page.getByTestId('lobby').waitFor();
      for (const name of people.slice(1)) await addHere(p, name);
      // The seats are the lobby's, and the bar above the table names them.
      await p.page.waitForFunction((n) => document.querySelectorAll('[data-testid="seat"]').length === n, people.length + bots);
      const bar = p.page.getByTestId('device-bar');
      assert.ok(await inViewport(bar), 'the players on this device are listed in view');
      assert.deepEqual(await bar.getByTestId('device-seat').allTextContents(), people);
      assert.equal(await p.page.getByTestId('device-anonymity').count(), 0, 'the board game has no anonymous safety tools to warn of');
      await shot(p, `pass-board-${size}-lobby`);
      const v = await view(p);
      const names = Object.fromEntries(v.adventurers.length ? v.adventurers.map((a) => [a.player, a.name]) : []);
      await (await reveal(p, p.page.getByTestId('start-game'))).click();
      await p.page.waitForFunction(() => window.prophecy.view().phase === 'playing');
      const seats = (await view(p)).adventurers.filter((a) => !a.bot);
      for (const a of seats) names[a.player] = a.name;
      await playBoard(p, people.length + 1, names, `pass-board-${size}`);
      // Every seat of the device is at the table while its one page is open.
      const online = await p.page.evaluate(() => window.prophecy.online());
      for (const a of seats) assert.ok(online.includes(a.player), `${a.name} is shown at the table`);
      assert.deepEqual(consoleErrors(p), []);
    });
  });
}

test('a story table: the agreement goes round the phone, lines stay each player’s own, the X-card’s anonymity is said', { timeout: 180_000 }, async () => {
  await withTable('pass-story', async (table) => {
    const { players } = await seatPlayers(table, [{ name: 'Ada', options: PHONE }, { name: 'Cy', options: LAPTOP }]);
    const [ada, cy] = players;
    await addHere(ada, 'Bo');
    const bar = ada.page.getByTestId('device-bar');
    assert.ok(await inViewport(bar), 'the players on this device are listed in view');
    const note = ada.page.getByTestId('device-anonymity');
    assert.match(await note.textContent(), /The X-card and flags are not anonymous among the players who share this device/);
    assert.ok(await inViewport(note), 'the notice is in view');
    await shot(ada, 'pass-story-phone-bar');

    // A line Ada draws is hers: her page knows it, Bo's never does.
    await accepted(ada, 'draw a line', async () => {
      await (await reveal(ada, ada.page.getByTestId('line-text'))).fill('Drowned children');
      await ada.page.getByTestId('add-line').click();
    });
    await until(async () => (await ada.page.evaluate(() => window.prophecy.own().lines.length)) === 1);

    // Ada asks the table; it waits for Bo (here) and Cy (away): the phone goes to Bo.
    await (await reveal(ada, ada.page.getByTestId('open-watch-link'))).click();
    const bo = ada;
    const boId = await passTo(bo, 'Bo', 'pass-story-phone');
    assert.match(await bo.page.evaluate(() => document.body.innerText), /Bo/);
    assert.equal(await bo.page.evaluate(() => window.prophecy.own().lines.length), 0, 'Bo’s page knows nothing of Ada’s line');
    const proposal = bo.page.getByTestId('proposal');
    assert.ok(await inViewport(proposal) || (await reveal(bo, proposal)), 'the proposal waits for Bo');
    await accepted(bo, 'agree', async () => (await reveal(bo, proposal.getByTestId('proposal-agree'))).click());
    // Now it waits only for Cy, who is elsewhere: Bo's page stays.
    await bo.page.waitForFunction((b) => !window.prophecy.view().proposal?.waiting.includes(b), boId);
    assert.equal(await bo.page.getByTestId('pass-screen').count(), 0, 'no pass when the table waits for someone elsewhere');
    await accepted(cy, 'agree', async () => (await reveal(cy, cy.page.getByTestId('proposal-agree'))).click());
    await bo.page.waitForFunction(() => window.prophecy.view().proposal === null);

    // Bo hands the phone back by name: the pass screen first, and "Back to Bo" keeps it.
    await (await reveal(bo, bo.page.locator(tid('device-seat', { 'player-id': 1 })))).click();
    await bo.page.getByTestId('pass-screen').waitFor();
    assert.match(await bo.page.getByTestId('pass-why').textContent(), /Bo passes the device to Ada/);
    await bo.page.getByTestId('pass-stay').click();
    await bo.page.getByTestId('topbar').waitFor();
    assert.equal(await you(bo), boId);
    await (await reveal(bo, bo.page.locator(tid('device-seat', { 'player-id': 1 })))).click();
    await passTo(bo, 'Ada');
    assert.equal(await ada.page.evaluate(() => window.prophecy.own().lines.length), 1, 'Ada’s line is hers again');
    assert.deepEqual(consoleErrors(ada), []);
    assert.deepEqual(consoleErrors(cy), []);
    // A tab that names a seat its browser no longer holds (removed) comes back as the first.
    // (Its refused socket is the browser's one console error.)
    await ada.page.evaluate(() => sessionStorage.setItem(`prophecy.seat.${location.pathname.split('/')[2]}`, '7'));
    await ada.page.reload();
    await ada.page.waitForFunction(() => window.prophecy.me()?.player === 1 && window.prophecy.connected() && document.querySelector('[data-testid="topbar"]'));
  });
});

test('the Challenge rules: the game master passes the laptop for a roll', { timeout: 180_000 }, async () => {
  await withTable('pass-challenge', async (table) => {
    const gm = await table.open('Gina', LAPTOP);
    await createChallengeTable(gm, table.server, 'Gina');
    await addHere(gm, 'Tam');
    // Tam makes a sheet: the game master hands the laptop over by name.
    await (await reveal(gm, gm.page.locator(tid('device-seat', { 'player-id': 2 })))).click();
    await passTo(gm, 'Tam');
    const tam = gm;
    const sheet = await makeSheet(tam, { name: 'Tam', concept: 'A shy herald', aptitudes: { knowledge: 2, awareness: 2, charisma: 1, physicality: 1 }, skills: ['persuade', 'people'] });
    await (await reveal(tam, tam.page.locator(tid('device-seat', { 'player-id': 1 })))).click();
    await passTo(tam, 'Gina');
    const id = await callChallenge(gm, { character: sheet.id, description: 'Talk the bandits’ leader down', situation: 'average', aptitude: 'charisma', skills: ['persuade'] });
    // The roll is Tam's: the laptop goes to Tam.
    assert.match(await gm.page.getByTestId('pass-why').textContent({ timeout: 10_000 }), /Tam has a roll to make/);
    await passTo(gm, 'Tam', 'pass-challenge-laptop');
    const rolled = await roll(tam, id);
    assert.ok(rolled.band, 'Tam rolled');
    assert.deepEqual(consoleErrors(gm), []);
  });
});
