// A long table: a page opens with the newest 200 lines of the log (what a phone receives does
// not grow with the table), and "Show earlier lines" brings the older ones, a page at a time,
// until the whole log is there.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withTable, seatPlayers, sameSeq, seq, logOf, contiguous, reveal, consoleErrors, tid, shot, inViewport } from './table.mjs';

/**
 * `n` actions sent from `p`'s browser on a socket of its own, one after the other, as fast as
 * the seat's budget of messages allows.
 */
async function writeProphecies(p, n) {
  await p.page.evaluate(async (n) => {
    const token = location.pathname.split('/')[2];
    const ws = new WebSocket(`ws://${location.host}/t/${token}/ws`);
    await new Promise((resolve) => (ws.onopen = resolve));
    const answers = [];
    let synced = false;
    ws.onmessage = (e) => {
      const msg = JSON.parse(e.data);
      if (msg.type === 'sync') synced = true;
      else if (msg.req) answers.push(msg);
      // A hello refused as too fast (the seat's budget is spent) is said again, as pages do.
      else if (msg.type === 'error' && !synced) setTimeout(() => ws.send(JSON.stringify({ type: 'hello', since: 0 })), 1000);
    };
    ws.send(JSON.stringify({ type: 'hello', since: 0 }));
    while (!synced) await new Promise((r) => setTimeout(r, 5));
    for (let i = 1; i <= n; i++) {
      const req = `${i}-${answers.length}`;
      ws.send(JSON.stringify({ type: 'act', req, action: { action: 'write_prophecy', text: `The ${i}th telling` } }));
      while (!answers.some((a) => a.req === req)) await new Promise((r) => setTimeout(r, 5));
      const answer = answers.find((a) => a.req === req);
      if (answer.type === 'error' && /^Too fast/.test(answer.message)) {
        await new Promise((r) => setTimeout(r, 200));
        i--;
      } else if (answer.type !== 'done') {
        throw new Error(JSON.stringify(answer));
      }
    }
    ws.close();
  }, n);
}

test('a long log opens at its end and older lines come on request', { timeout: 120_000 }, async () => {
  await withTable('log', async (table) => {
    const { players } = await seatPlayers(table, [{ name: 'Ada' }, { name: 'Bo', options: { viewport: { width: 375, height: 800 } } }]);
    const [ada, bo] = players;
    await Promise.all([writeProphecies(ada, 120), writeProphecies(bo, 120)]);
    const last = await sameSeq(players);
    assert.ok(last > 240);
    // The flood spent both seats' budgets of messages (10 a second, and asking for older lines
    // costs 4): a player scrolling back comes later than that, and so do these.
    await new Promise((r) => setTimeout(r, 1500));
    for (const p of players) {
      await p.page.reload();
      await p.page.waitForFunction((s) => window.prophecy && window.prophecy.seq() === s, last);
      const log = await logOf(p);
      assert.equal(log.length, 200, `${p.name} opens with the newest 200 lines`);
      assert.equal(log[log.length - 1][0], last);
      const older = await reveal(p, p.page.getByTestId('log-older'));
      await older.scrollIntoViewIfNeeded();
      assert.ok(await inViewport(older), `${p.name} sees the button`);
      await shot(p, `log-older-${p.name}`);
      await older.click();
      await p.page.locator(tid('log-entry', { seq: 1 })).waitFor({ state: 'attached' });
      const whole = await logOf(p);
      assert.ok(contiguous(whole) && whole.length === last, `${p.name} has the whole log, once each`);
      assert.equal(await p.page.getByTestId('log-older').count(), 0, 'no older lines are left');
    }
    // The table goes on as before.
    await writeProphecies(bo, 1);
    await sameSeq(players);
    assert.equal((await logOf(ada)).length, (await seq(ada)));
    for (const p of players) assert.deepEqual(consoleErrors(p), [], `${p.name}'s console errors`);
  });
});
