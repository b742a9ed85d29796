// "While you were away": a player who looked away (the page hidden: another tab, a phone put
// away) or who reloads finds, at the top of the page, what the others did since their own last
// action, in the log's words; their next action, or "Got it", puts it away.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withTable, seatPlayers, rollProphecy, accepted, sameSeq, reveal, consoleErrors, shot, inViewport } from './table.mjs';

const PHONE = { width: 375, height: 800 };
const LAPTOP = { width: 1280, height: 800 };

/**
 * The page is hidden, or shown again, as the browser says when its tab or phone is put away.
 * (Headless Chromium never hides a page, so the test says it for the browser.)
 */
function setHidden(p, hidden) {
  return p.page.evaluate((h) => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (h ? 'hidden' : 'visible') });
    document.dispatchEvent(new Event('visibilitychange'));
  }, hidden);
}

async function writeProphecy(p, text) {
  await accepted(p, 'write the prophecy', async () => {
    await (await reveal(p, p.page.getByTestId('prophecy-input'))).fill(text);
    await p.page.getByTestId('write-prophecy').click();
  });
}

test('a player who looked away or reloads finds what the others did, in view', { timeout: 120_000 }, async () => {
  await withTable('away', async (table) => {
    const { players } = await seatPlayers(table, [
      { name: 'Ada', options: { viewport: LAPTOP } },
      { name: 'Cy', options: { viewport: PHONE } },
    ]);
    const [ada, cy] = players;
    for (const p of players) assert.equal(await p.page.getByTestId('while-away').count(), 0, 'nothing to tell at first');

    // Cy's phone is put away; Ada receives the prophecy and writes her own.
    await writeProphecy(cy, 'The tide will not turn.');
    await setHidden(cy, true);
    await rollProphecy(ada);
    await writeProphecy(ada, 'The bells of Vael fall silent at the last eclipse.');
    await sameSeq(players);
    assert.equal(await cy.page.getByTestId('while-away').count(), 0, 'not while the page is hidden');
    await setHidden(cy, false);
    const away = cy.page.getByTestId('while-away');
    await away.waitFor();
    assert.ok(await inViewport(away), 'in view on the phone');
    const lines = await away.getByTestId('away-line').allTextContents();
    assert.equal(lines.length, 2, `${lines}`);
    assert.match(lines[0], /^The dice gave \d\d on the catastrophe table of .+: the prophecy is received\.$/);
    assert.equal(lines[1], 'The prophecy was changed.');
    await shot(cy, 'away-phone');
    // Cy's own next action puts it away.
    await writeProphecy(cy, 'The tide will not turn, and the bells fall silent.');
    await away.waitFor({ state: 'detached' });

    // Ada looks away on her laptop, and comes back while scrolled down: it is still in view.
    await setHidden(ada, true);
    await writeProphecy(cy, 'The last eclipse.');
    await sameSeq(players);
    await ada.page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await setHidden(ada, false);
    const adaAway = ada.page.getByTestId('while-away');
    await adaAway.waitFor();
    assert.ok(await inViewport(adaAway), 'in view on the laptop');
    // Since Ada's own last action, Cy changed the prophecy twice (once while she watched).
    assert.deepEqual(await adaAway.getByTestId('away-line').allTextContents(), ['The prophecy was changed.', 'The prophecy was changed.']);
    await shot(ada, 'away-laptop');
    await adaAway.getByTestId('away-dismiss').click();
    await adaAway.waitFor({ state: 'detached' });

    // A reload is coming back too: what the others did since the player's last action.
    await writeProphecy(ada, 'The bells, the eclipse, the tide.');
    await cy.page.reload();
    await cy.page.waitForFunction(() => window.prophecy && window.prophecy.connected());
    const again = cy.page.getByTestId('while-away');
    await again.waitFor();
    assert.ok(await inViewport(again), 'in view after a reload');
    assert.deepEqual(await again.getByTestId('away-line').allTextContents(), ['The prophecy was changed.']);
    for (const p of players) assert.deepEqual(consoleErrors(p), []);
  });
});
