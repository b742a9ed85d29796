// A player reloads in the middle of a scene: they come back as themselves (their seat is a
// cookie), with the scene, its pair, the timer and the log as they were, and can act at once.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  withTable, gameToStory, startScene, proposePair, panel, sameSeq, seq, view, logOf,
  aspectId, myCard, tid, consoleErrors, makeCheck,
  glance, seatPlayers,
} from './table.mjs';

/** What a player sees of the table that must survive a reload. */
async function snapshot(p) {
  return {
    seq: await seq(p),
    view: await view(p),
    log: await logOf(p),
    me: await myCard(p).getByTestId('object-name-text').textContent(),
    pairs: await panel(p).getByTestId('pair').allInnerTexts(),
    deadline: await p.page.locator(tid('timer', { timed: 'scene' })).getAttribute('data-deadline'),
    own: await p.page.evaluate(() => window.prophecy.own()),
    players: await p.page.getByTestId('player').allInnerTexts(),
  };
}

test('a player who reloads mid-scene comes back as themselves with nothing lost', { timeout: 120_000 }, async () => {
  await withTable('reload', async (table) => {
    const { players, precursor, link } = await gameToStory(table, [{ name: 'Ada' }, { name: 'Bo' }, { name: 'Cy', options: { viewport: { width: 375, height: 800 } } }]);
    const [ada, bo, cy] = players;
    await startScene(ada, precursor);
    await proposePair(bo, await aspectId(bo, 'Archivist'), await aspectId(bo, 'Flooded stacks'), 'He reads the shelf marks');
    await sameSeq(players);
    const before = await snapshot(bo);
    assert.equal(before.me, 'Ash');
    assert.equal(before.pairs.length, 1);

    await bo.page.reload();
    await bo.page.locator(tid('scene-panel', { 'scene-id': precursor })).waitFor();
    assert.equal(await bo.page.getByTestId('join-form').count(), 0, 'no join form: the seat is remembered');
    const after = await snapshot(bo);
    assert.deepEqual(after, before);
    assert.match(after.players[1], /^Bo\s*you\s*Ash$/i, 'the players list says which one is you');
    await panel(bo).getByTestId('justification').filter({ hasText: 'He reads the shelf marks' }).waitFor();
    // The others see Bo online again.
    for (const p of [ada, cy]) await glance(p, p.page.locator(tid('player', { 'player-id': 2, online: 'true' })));

    // He can act at once: another pair, and the check; everyone sees both.
    await proposePair(bo, await aspectId(bo, 'Stubborn'), await aspectId(bo, 'Unguarded at dawn'), 'He waits for dawn');
    await makeCheck(bo);
    await sameSeq(players);
    for (const p of players) {
      assert.equal(await panel(p).getByTestId('pair').count(), 2);
      await panel(p).getByTestId('check-result').waitFor();
    }

    // Opening the invitation link again later, in a new tab, is the same seat too.
    const again = await bo.context.newPage();
    await again.goto(link);
    await again.locator(tid('object-card', { yours: 'true' })).getByTestId('object-name-text').filter({ hasText: 'Ash' }).waitFor();
    assert.equal(await again.getByTestId('join-form').count(), 0);
    await again.close();

    for (const p of players) assert.deepEqual(consoleErrors(p), [], `${p.name}'s console errors`);

    // A page whose seat cookie is gone (cleared by the browser) offers to join again when it
    // next reconnects, instead of retrying for ever.
    await cy.context.clearCookies();
    await cy.context.setOffline(true);
    await cy.page.getByTestId('reconnecting-banner').waitFor();
    await cy.context.setOffline(false);
    await cy.page.getByTestId('join-form').waitFor();
    assert.equal(await cy.page.getByTestId('reconnecting-banner').count(), 0);
  });
});

test('a reload whose hello is refused as too fast asks again and draws the table', { timeout: 60_000 }, async () => {
  await withTable('hello-again', async (table) => {
    const { players } = await seatPlayers(table, [{ name: 'Ada' }, { name: 'Bo' }]);
    const [ada] = players;
    const last = await sameSeq(players);
    // The server's own refusal of a hello past the seat's budget (quick reloads spend it), in
    // place of the server's answer to the page's first hello; everything else goes through.
    const hellos = [];
    let sockets = 0;
    await ada.page.routeWebSocket(/\/ws$/, (ws) => {
      sockets++;
      const server = ws.connectToServer();
      ws.onMessage((message) => {
        const msg = JSON.parse(String(message));
        if (msg.type === 'hello') hellos.push(sockets);
        if (msg.type === 'hello' && hellos.length === 1) {
          ws.send(JSON.stringify({ type: 'error', req: null, message: 'Too fast: your seat may send 10 messages a second. Try again in 1 second.' }));
        } else {
          server.send(message);
        }
      });
    });
    await ada.page.reload();
    await ada.page.waitForFunction((s) => window.prophecy && window.prophecy.seq() === s, last);
    // Asked again on the same socket, not after the server gave up on it (it closes a socket
    // that has not said hello within 10 s).
    assert.deepEqual(hellos, [1, 1], 'the page said hello once more, on the same socket');
    await ada.page.getByTestId('layout').waitFor();
    assert.deepEqual(consoleErrors(ada), [], "Ada's console errors");
  });
});

test("a returning player's page opens its one socket while its script is still on its way", { timeout: 60_000 }, async () => {
  await withTable('early-socket', async (table) => {
    const { players } = await seatPlayers(table, [{ name: 'Ada' }, { name: 'Bo' }]);
    const [ada] = players;
    const last = await sameSeq(players);
    // A fresh browser with Ada's cookie (an empty cache), whose page's module comes late.
    const context = await table.browser.newContext({ storageState: await ada.context.storageState() });
    try {
      const page = await context.newPage();
      const events = [];
      const errors = [];
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('websocket', () => events.push('socket'));
      await page.route(/\/assets\/story\/main\.[0-9a-f]+\.js$/, async (route) => {
        await new Promise((done) => setTimeout(done, 3000));
        events.push('script');
        await route.continue();
      });
      await page.goto(ada.page.url());
      await page.waitForFunction((s) => window.prophecy && window.prophecy.seq() === s, last);
      await page.getByTestId('layout').waitFor();
      assert.deepEqual(events, ['socket', 'script'], 'one socket, opened before the script came');
      assert.equal(await page.evaluate(() => window.prophecy.me().player), await ada.page.evaluate(() => window.prophecy.me().player), 'the sync said who she is');
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
});
