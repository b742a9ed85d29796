// The server is killed (SIGKILL: no chance to flush or say goodbye) in the middle of a game and
// started again on the same database and port. The pages reconnect by themselves, and every
// action a page had shown (so the server had acknowledged it) is still there, with the same seq.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  withTable, gameToStory, startScene, proposePair, narrate, panel, sameSeq, seq, view, logOf,
  contiguous, accepted, aspectId, tid, consoleErrors, makeCheck, WAIT,
  reveal,
} from './table.mjs';

const snapshot = async (p) => ({ seq: await seq(p), view: await view(p), log: await logOf(p) });

async function allDisconnected(players) {
  for (const p of players) await p.page.getByTestId('reconnecting-banner').waitFor();
}

async function allReconnected(players) {
  for (const p of players) {
    await p.page.getByTestId('reconnecting-banner').waitFor({ state: 'detached', timeout: 2 * WAIT });
    await p.page.waitForFunction(() => window.prophecy.connected());
  }
}

/** Adds lines one after the other until `stop.now` or the connection fails. */
async function addLines(p, prefix, stop) {
  for (let i = 1; i <= 8 && !stop.now; i++) {
    try {
      await (await reveal(p, p.page.getByTestId('line-text'))).fill(`${prefix} ${i}`, { timeout: 5000 });
      await p.page.getByTestId('add-line').click({ timeout: 5000 });
      await p.page.waitForFunction(() => !document.querySelector('[data-form="add-line"][aria-busy="true"]'), null, { timeout: 5000 });
    } catch {
      return;
    }
  }
}

test('SIGKILL and restart mid-game: the pages reconnect and no acknowledged action is lost', { timeout: 180_000 }, async (t) => {
  await withTable('restart', async (table) => {
    const { server } = table;
    const { players, precursor } = await gameToStory(table, [{ name: 'Ada' }, { name: 'Bo' }, { name: 'Cy', options: { viewport: { width: 375, height: 800 } } }]);
    const [ada, bo, cy] = players;

    // Several actions, each acknowledged and shown.
    await startScene(ada, precursor);
    await proposePair(bo, await aspectId(bo, 'Archivist'), await aspectId(bo, 'Flooded stacks'), 'He reads the shelf marks');
    await proposePair(cy, await aspectId(cy, 'Diver'), await aspectId(cy, 'Flooded stacks'), 'She reaches the lowest stacks');
    await makeCheck(bo);
    for (const p of players) await panel(p).getByTestId('check-result').waitFor();
    await narrate(cy, 'They came back with the chart, soaked.');
    await sameSeq(players);
    const before = await Promise.all(players.map(snapshot));

    // kill -9: every page notices and will not send.
    const exit = await server.kill();
    assert.equal(exit.signal, 'SIGKILL');
    await allDisconnected(players);
    await panel(ada).getByTestId('finish-scene').click();
    await panel(ada).getByTestId('request-error').filter({ hasText: 'Not connected' }).waitFor();

    // The same database, the same port: the pages come back by themselves, unchanged.
    await server.restart();
    await allReconnected(players);
    for (const [i, p] of players.entries()) {
      assert.deepEqual(await snapshot(p), before[i], `${p.name} shows the same table after the restart`);
    }
    // A page loaded from the restarted server (nothing kept by the page) shows it all too.
    await cy.page.reload();
    await cy.page.locator(tid('scene-panel', { 'scene-id': precursor })).getByTestId('check-result').waitFor();
    assert.deepEqual(await snapshot(cy), before[2], 'a fresh page shows the same table');

    // Now kill it in the middle of a burst of actions from all three pages.
    const base = await seq(ada);
    const stop = { now: false };
    const bursts = players.map((p) => addLines(p, `${p.name}'s line`, stop));
    await ada.page.waitForFunction((s) => window.prophecy.seq() >= s, base + 6, { polling: 10 });
    await server.kill();
    stop.now = true;
    await Promise.all(bursts);
    await allDisconnected(players);
    const shown = new Map(); // seq → text, everything any page showed before the kill
    const drawn = new Set(); // the lines any page showed
    for (const p of players) {
      for (const [s, text] of await logOf(p)) shown.set(s, text);
      for (const text of await p.page.getByTestId('line').locator('.line-text').allTextContents()) drawn.add(text);
    }
    assert.ok(Math.max(...shown.keys()) >= base + 6);

    await server.restart();
    await allReconnected(players);
    await sameSeq(players);
    for (const p of players) await p.page.reload();
    await Promise.all(players.map((p) => p.page.getByTestId('scene-panel').waitFor()));
    await sameSeq(players);
    const logs = await Promise.all(players.map(logOf));
    for (const [i, log] of logs.entries()) {
      assert.deepEqual(log, logs[0], `${players[i].name}'s log`);
      assert.ok(contiguous(log), 'every seq once, none missing');
    }
    const kept = new Map(logs[0]);
    t.diagnostic(`killed at seq ${Math.max(...shown.keys())} shown (burst from ${base}); ${Math.max(...kept.keys())} kept`);
    for (const [s, text] of shown) assert.equal(kept.get(s), text, `the action shown as #${s} survived the kill`);
    const lines = await ada.page.getByTestId('line').locator('.line-text').allTextContents();
    assert.ok(drawn.size >= 6);
    for (const text of drawn) assert.ok(lines.includes(text), `the line "${text}" is still drawn`);
    assert.equal(lines.length, logs[0].filter(([, text]) => text === 'A line was drawn.').length);

    // And play goes on, numbered after what was kept.
    const last = await seq(ada);
    await accepted(ada, 'finish the scene', () => panel(ada).getByTestId('finish-scene').click());
    await sameSeq(players);
    for (const p of players) {
      assert.equal(await seq(p), last + 1);
      await p.page.locator(tid('scene-panel', { 'scene-id': precursor })).waitFor({ state: 'detached' });
    }
    assert.ok(contiguous(await logOf(bo)));

    for (const p of players) assert.deepEqual(consoleErrors(p, { network: true }), [], `${p.name}'s console errors`);
  });
});
