// The board game at moments that dice rarely bring (issue 31): a Creature that asks for two
// battles, and a shop. Two people start a real game; the server is stopped and the game's
// set-up, in its real SQLite file, gets stacked decks and dealt characters (as a dealer could
// stack a real deck); every later event comes from the restarted server's own rules. Then:
// - Ada meets the Drowned Priest (a Battle of Wills, then one of Strength): the battle's text
//   names both battles and their values, in view. She carries a Boar Spear (a drawn Item added
//   to the stored log, as a dealer could hand her one): ticking it offers "Throw it", in view,
//   and throwing it changes the odds shown; the fight sends the choice.
// - Bo boats to a village the Tradesman has stocked: each shop button says what its Item does.
// Twice, so that each moment is seen on a laptop (1280 px) and on a phone (375 px).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { withTable, createGameTable, inviteLink, tid, view, seq, sameSeq, comesIntoView, consoleErrors, shot, WAIT } from './table.mjs';

const PHONE = { width: 375, height: 812 };
const LAPTOP = { width: 1280, height: 800 };

/** One statement through the `sqlite3` command (the server is stopped). */
const sql = (db, statement) => execFileSync('sqlite3', [db, statement], { encoding: 'utf8' });
const quote = (text) => `'${text.replaceAll("'", "''")}'`;

const byName = (list, name) => {
  const found = list.find((x) => x.name === name);
  assert.ok(found, `no ${name} in the content`);
  return found.id;
};

/**
 * The stored set-up of the only table, changed by `stack(setUp)` and written back. The stored
 * event is `{"v":…, …}` with the game's event inside; whichever key holds it is found by its
 * `type`.
 */
function restack(db, stack) {
  const rows = sql(db, 'SELECT table_id, seq, body FROM events ORDER BY table_id, seq;').trim().split('\n');
  const row = rows.map((r) => /^(\d+)\|(\d+)\|(.*)$/.exec(r)).find((m) => m && m[3].includes('"game_set_up"'));
  assert.ok(row, `no set-up among ${rows.length} events`);
  const body = JSON.parse(row[3]);
  const setUp = findSetUp(body);
  assert.ok(setUp, `no set-up in ${row[3].slice(0, 200)}`);
  stack(setUp);
  sql(db, `UPDATE events SET body = ${quote(JSON.stringify(body))} WHERE table_id = ${row[1]} AND seq = ${row[2]};`);
}

/**
 * Adds to the stored log of the only table, after its last event, `event` drawn by the rules
 * crate (`{"type":"item_drawn",…}`), in the envelope the set-up is stored in.
 */
function appendGameEvent(db, event) {
  const rows = sql(db, 'SELECT table_id, seq, body FROM events ORDER BY table_id, seq;').trim().split('\n');
  const all = rows.map((r) => /^(\d+)\|(\d+)\|(.*)$/.exec(r)).filter((m) => m !== null);
  const setUp = all.find((m) => m[3].includes('"game_set_up"'));
  assert.ok(setUp, 'no set-up stored');
  const last = Math.max(...all.filter((m) => m[1] === setUp[1]).map((m) => Number(m[2])));
  const body = replaceSetUp(JSON.parse(setUp[3]), event);
  sql(db, `INSERT INTO events (table_id, seq, at, player, body) SELECT table_id, ${last + 1}, at, player, ${quote(JSON.stringify(body))} FROM events WHERE table_id = ${setUp[1]} AND seq = ${setUp[2]};`);
}

/** `value` with the set-up inside it replaced by `event`. */
function replaceSetUp(value, event) {
  if (!value || typeof value !== 'object') return value;
  if (value.type === 'game_set_up') return event;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, replaceSetUp(v, event)]));
}

function findSetUp(value) {
  if (!value || typeof value !== 'object') return null;
  if (value.type === 'game_set_up') return value;
  for (const v of Object.values(value)) {
    const found = findSetUp(v);
    if (found) return found;
  }
  return null;
}

/** Clicks and waits for the page to apply the event it caused. */
async function act(p, locator) {
  const before = await seq(p);
  await locator.click();
  await p.page.waitForFunction((s) => window.prophecy.seq() > s, before, { timeout: WAIT });
}

async function stackedGame(sizes) {
  await withTable(`board-stacked-${sizes.ada.width}`, async (table) => {
    const { server } = table;
    const ada = await table.open('Ada', { viewport: sizes.ada });
    await createGameTable(ada, server, 'Ada', 'board', { bots: 0 });
    const link = await inviteLink(ada);
    const bo = await table.open('Bo', { viewport: sizes.bo });
    await bo.page.goto(link);
    await bo.page.getByTestId('join-name').fill('Bo');
    await bo.page.getByTestId('join-submit').click();
    await bo.page.getByTestId('lobby').waitFor();
    await ada.page.waitForFunction(() => document.querySelectorAll('[data-testid="seat"]').length === 2);
    await act(ada, ada.page.getByTestId('start-game'));
    const content = await ada.page.evaluate(() => window.prophecy.content());
    const ids = Object.fromEntries((await view(ada)).seats.map((s) => [s.name, s.player]));

    // Ada is the Smith (her first guild, the Fortress, is beside two Plains) and begins;
    // Bo the Cutpurse (the Thieves' Guild, a port). Plains comes first, then the Tradesman;
    // the Drowned Priest tops the Adventure deck.
    await server.stop();
    restack(server.db, (setUp) => {
      const dealt = { Ada: byName(content.characters, 'Drogo Ironhand, Smith'), Bo: byName(content.characters, 'Tobin Quickfingers, Cutpurse') };
      for (const seat of setUp.seats) seat.character = dealt[seat.name];
      setUp.first_player = ids.Ada;
      const plains = byName(content.chance, 'Plains');
      const tradesman = byName(content.chance, 'Tradesman');
      setUp.chance_deck = [plains, tradesman, ...removeOnce(removeOnce(setUp.chance_deck, plains), tradesman)];
      const priest = byName(content.adventures, 'Drowned Priest');
      setUp.adventure_deck = [priest, ...removeOnce(setUp.adventure_deck, priest)];
    });
    const spear = byName(content.items, 'Boar Spear');
    appendGameEvent(server.db, { type: 'item_drawn', player: ids.Ada, deck: 'common_items', item: spear });
    await server.restart();
    for (const p of [ada, bo]) {
      await p.page.reload();
      await p.page.getByTestId('board').waitFor({ state: 'attached' });
    }
    await sameSeq([ada, bo]);

    // Ada: Plains puts the Priest beside her; the move there warns of the fight.
    await act(ada, ada.page.getByTestId('draw-chance'));
    const priest = byName(content.adventures, 'Drowned Priest');
    const where = (await view(ada)).spaces.findIndex((s) => s.adventure === priest);
    assert.ok(where >= 0, 'the Priest was placed');
    const move = ada.page.locator(tid('move', { to: where }));
    assert.ok(await comesIntoView(ada, move), 'the move to the Priest is out of view');
    assert.match(await move.textContent(), /Drowned Priest: a fight/);
    await act(ada, move);
    const values = ada.page.locator(`${tid('battle-values')}`);
    // The move opened the battle: its text, its odds and the Fight button come into view.
    assert.ok(await comesIntoView(ada, values), "the battle's text is out of view");
    assert.ok(await comesIntoView(ada, ada.page.locator(tid('fight', { kind: 'wills' }))), 'the Fight button is out of view');
    const text = await values.textContent();
    const battle = (await view(ada)).options.battles.find((b) => b.kind === 'wills');
    assert.ok(battle && battle.then, `a two-stage battle is offered: ${JSON.stringify((await view(ada)).options)}`);
    assert.ok(text.includes(`First a Battle of Wills: You: ${battle.yours}`), text);
    assert.ok(text.includes(`If you win it, a Battle of Strength: ${battle.then.yours}`), text);
    assert.ok(text.includes(`against ${battle.then.theirs} + its die. The chances below are of winning both.`), text);
    assert.equal((await ada.page.locator(tid('fight', { kind: 'wills' })).textContent()).trim(), 'Fight a Battle of Wills, then of Strength');
    await shot(ada, `board-two-battles-${sizes.ada.width}`);

    // The spear: no "Throw it" until it is ticked; ticked, held at first, then thrown.
    const odds = ada.page.getByTestId('battle-odds');
    const throwBox = ada.page.getByTestId('battle-throw');
    assert.equal(await throwBox.count(), 0, 'no "Throw it" without a weapon that may be thrown');
    await ada.page.locator(tid('battle-item', { 'item-id': spear })).check();
    await ada.page.waitForFunction((id) => document.querySelector('[data-testid="battle-odds"]')?.getAttribute('data-items') === String(id), spear);
    assert.ok(await comesIntoView(ada, throwBox), 'the "Throw it" box is out of view');
    assert.equal(await throwBox.isChecked(), false, 'held unless she throws it');
    const offered = (await view(ada)).options.battles.filter((b) => b.kind === 'wills' && b.items.length === 1 && b.items[0] === spear);
    const held = offered.find((b) => !b.throw);
    const thrown = offered.find((b) => b.throw);
    assert.ok(held && thrown && thrown.thrown === spear && thrown.then.first_roll_bonus === 4, JSON.stringify(offered));
    assert.notEqual(held.odds.win, thrown.odds.win);
    assert.equal(await odds.getAttribute('data-win'), held.odds.win, 'held: the held odds');
    assert.equal(await odds.getAttribute('data-throw'), 'false');
    const throwOdds = ada.page.getByTestId('throw-odds');
    assert.equal(await throwOdds.getAttribute('data-thrown'), thrown.odds.win);
    assert.equal(await throwOdds.getAttribute('data-held'), held.odds.win);
    await throwBox.check();
    await ada.page.waitForFunction(() => document.querySelector('[data-testid="battle-odds"]')?.getAttribute('data-throw') === 'true');
    assert.equal(await odds.getAttribute('data-win'), thrown.odds.win, 'thrown: the odds change to the thrown ones');
    // The box stays where the player ticked it, in view, with the chances thrown and held.
    assert.ok(await comesIntoView(ada, throwBox), 'the "Throw it" box is out of view once ticked');
    assert.match(await ada.page.getByTestId('battle-values').textContent(), /\(\+4 thrown, on the first roll only\)/);
    await shot(ada, `board-throw-${sizes.ada.width}`);
    await act(ada, ada.page.locator(tid('fight', { kind: 'wills' })));
    // The fight sent the choice: a Battle of Strength fought after the Battle of Wills threw
    // the spear (and damaged it); a Battle of Wills lost kept it whole.
    const after = await view(ada);
    const adaNow = after.adventurers.find((a) => a.player === ids.Ada);
    const foughtBoth = after.last_battle.kind === 'strength';
    assert.equal(after.last_battle.thrown, foughtBoth ? spear : null, JSON.stringify(after.last_battle));
    assert.deepEqual(adaNow.damaged, foughtBoth ? [spear] : [], JSON.stringify(adaNow));
    await ada.page.getByTestId('end-turn').waitFor();
    await act(ada, ada.page.getByTestId('end-turn'));

    // Bo: the Tradesman stocks Kettle Hollow; the boat takes him there from the Wharf.
    await bo.page.getByTestId('draw-chance').waitFor();
    await act(bo, bo.page.getByTestId('draw-chance'));
    const village = content.board.find((s) => s.kind === 'village');
    // (A list of moves to choose from: on a phone, the player scrolls down it.)
    await act(bo, bo.page.locator(tid('move', { to: village.id })));
    const stock = (await view(bo)).spaces[village.id].items;
    assert.equal(stock.length, 2, 'the Tradesman laid out two Items');
    for (const item of stock) {
      const button = bo.page.locator(tid('buy-item', { 'item-id': item }));
      assert.ok(await comesIntoView(bo, button), `the shop button for item ${item} is out of view`);
      const it = content.items.find((x) => x.id === item);
      const effect = await button.getByTestId('item-effect').textContent();
      const bonus = [it.strength_bonus && `+${it.strength_bonus} Strength`, it.willpower_bonus && `+${it.willpower_bonus} Willpower`].filter(Boolean);
      for (const b of bonus) assert.ok(effect.includes(b), `${it.name}: "${effect}" does not say ${b}`);
      // Its slot, unless it has none in particular.
      if (it.slot === 'other') assert.match(effect, /^\+/, `${it.name}: "${effect}"`);
      else assert.ok(effect.toLowerCase().startsWith(it.slot), `${it.name}: "${effect}" does not name its slot, ${it.slot}`);
    }
    await shot(bo, `board-shop-${sizes.bo.width}`);
    for (const p of [ada, bo]) assert.deepEqual(consoleErrors(p, { network: true }), [], `${p.name}'s console`);
  });
}

/** `deck` without the first copy of `card`. */
function removeOnce(deck, card) {
  const i = deck.indexOf(card);
  assert.ok(i >= 0, `card ${card} is in the deck`);
  return [...deck.slice(0, i), ...deck.slice(i + 1)];
}

test('a two-stage fight names both battles, and shop buttons say what Items do: Ada on a laptop, Bo on a phone', { timeout: 120_000 }, () => stackedGame({ ada: LAPTOP, bo: PHONE }));

test('the same on the other sizes: Ada on a phone, Bo on a laptop', { timeout: 120_000 }, () => stackedGame({ ada: PHONE, bo: LAPTOP }));
