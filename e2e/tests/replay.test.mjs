// Replay: a seated player steps through the game from its first event, on a laptop and on a
// phone: back and forward, a jump to a phase, playing at a speed; each step is the table as it
// looked then, and closing the replay shows the table now. A watcher waits for the end.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withTable, seatPlayers, rollProphecy, advance, consoleErrors, inViewport, reveal, shot, until, tid } from './table.mjs';

const PHONE = { viewport: { width: 375, height: 800 } };
const LAPTOP = { viewport: { width: 1280, height: 800 } };

/** The replay's "step N of T" as numbers. */
async function where(p) {
  const text = await p.page.getByTestId('replay-where').textContent();
  const [, at, total] = text.match(/step (\d+) of (\d+)/).map(Number);
  return { at, total, text };
}

test('a player replays the game step by step, jumps to a phase and plays it at a speed', { timeout: 120_000 }, async () => {
  await withTable('replay', async (table) => {
    const { players } = await seatPlayers(table, [{ name: 'Ada', options: LAPTOP }, { name: 'Bo', options: PHONE }]);
    const [ada, bo] = players;
    await rollProphecy(ada);
    await advance(bo, 'characters');

    for (const p of [ada, bo]) {
      await (await reveal(p, p.page.getByTestId('open-replay'))).click();
      const bar = p.page.getByTestId('replay-bar');
      await bar.waitFor();
      assert.ok(await inViewport(p.page.getByTestId('replay-where')), `${p.name} sees where the replay is`);
      let at = await where(p);
      assert.equal(at.at, 0, 'from the first event');
      // Forward, forward, back: one event a step.
      await p.page.getByTestId('replay-forward').click();
      await p.page.getByTestId('replay-forward').click();
      await p.page.getByTestId('replay-back').click();
      await p.page.getByTestId('replay-where').filter({ hasText: 'step 1 of' }).waitFor();
      // Before the table moved on, it was receiving its prophecy: so the replay draws it.
      await p.page.locator(tid('phase', { phase: 'prophecy' })).first().waitFor({ state: 'attached' });
      assert.deepEqual(await p.page.evaluate(() => Array.from(document.querySelectorAll('#app button')).filter((b) => b.getClientRects().length && !b.closest('[data-testid="replay-bar"]') && !b.closest('[data-testid="tabbar"]')).map((b) => b.dataset.testid || b.textContent)), [], 'nothing to act with in a replay');
      // A jump to the phase the table is in now.
      const jump = p.page.getByTestId('replay-jump');
      const characters = await jump.locator('option').filter({ hasText: 'Create the Characters' }).getAttribute('value');
      await jump.selectOption(characters);
      await p.page.locator(tid('phase', { phase: 'characters' })).first().waitFor({ state: 'attached' });
      at = await where(p);
      assert.equal(at.at, Number(characters));
      // Back to the start, then played at 4×: it reaches the end by itself.
      await jump.selectOption('0');
      await p.page.getByTestId('replay-speed').selectOption('4');
      await p.page.getByTestId('replay-play').click();
      await until(async () => (await where(p)).at === at.total);
      await p.page.getByTestId('replay-play').filter({ hasText: 'Play' }).waitFor();
      await shot(p, `replay-${p.name === 'Bo' ? 'phone' : 'laptop'}`);
      await p.page.getByTestId('replay-close').click();
      await bar.waitFor({ state: 'detached' });
    }
    // The table now, and acting again.
    await (await reveal(ada, ada.page.getByTestId('advance').first())).waitFor();
    for (const p of players) assert.deepEqual(consoleErrors(p), [], `${p.name}'s console errors`);
  });
});
