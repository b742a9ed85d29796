// A player's connection drops for a while (their browser goes offline) while the others play:
// the page says it is reconnecting, refuses to send, and once back online shows every action it
// missed, exactly once.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  withTable, seatPlayers, rollProphecy, advance, createCharacter, attachAspect, createObject,
  myCard, cardOf, sameSeq, seq, logOf, contiguous, accepted, tid, consoleErrors,
  reveal,
} from './table.mjs';

async function addLine(p, text) {
  await accepted(p, `add the line ${text}`, async () => {
    await (await reveal(p, p.page.getByTestId('line-text'))).fill(text);
    await p.page.getByTestId('add-line').click();
  });
}

test('a player offline for a while resyncs: every missed action shown once', { timeout: 120_000 }, async () => {
  await withTable('offline', async (table) => {
    const { players } = await seatPlayers(table, [{ name: 'Ada' }, { name: 'Bo' }, { name: 'Cy', options: { viewport: { width: 375, height: 800 } } }]);
    const [ada, bo, cy] = players;
    await rollProphecy(ada);
    await advance(ada, 'characters');
    await createCharacter(ada, 'Wren');
    await createCharacter(bo, 'Ash');
    await createCharacter(cy, 'Moss');
    await addLine(bo, 'spiders');
    await sameSeq(players);
    const before = await seq(cy);

    // Cy's phone loses the network.
    await cy.context.setOffline(true);
    await cy.page.getByTestId('reconnecting-banner').waitFor();
    assert.equal(await cy.page.evaluate(() => window.prophecy.connected()), false);
    // What Cy tries now is not sent, and the page says so.
    await (await reveal(cy, cy.page.getByTestId('line-text'))).fill('drowning');
    await cy.page.getByTestId('add-line').click();
    await cy.page.getByTestId('request-error').filter({ hasText: 'Not connected' }).waitFor();

    // Meanwhile the others play on.
    await attachAspect(ada, myCard(ada), 'Smuggler', 'occupation');
    await attachAspect(bo, myCard(bo), 'Archivist', 'occupation');
    await addLine(ada, 'no harm to animals');
    const archive = await createObject(bo, 'The Sunken Archive', 'place');
    await attachAspect(bo, cardOf(bo, archive), 'Flooded stacks');
    // Only whoever drew a line lifts it: Bo drew "spiders".
    await accepted(bo, 'lift a line', () => bo.page.getByTestId('line').filter({ hasText: 'spiders' }).getByTestId('remove-line').click());
    await sameSeq([ada, bo]);
    const missed = (await seq(ada)) - before;
    assert.equal(missed, 6, 'two aspects, a line, an object and its aspect, a line removed');
    assert.equal(await seq(cy), before, 'nothing reached the offline page');
    assert.equal(await cy.page.getByText('Smuggler', { exact: true }).count(), 0);

    // Back online: the page reconnects by itself and catches up.
    await cy.context.setOffline(false);
    await cy.page.getByTestId('reconnecting-banner').waitFor({ state: 'detached' });
    await sameSeq(players);
    const logs = await Promise.all(players.map(logOf));
    assert.deepEqual(logs[2], logs[0], 'Cy shows the same log as Ada');
    assert.ok(contiguous(logs[2]), `every seq once, none missing: ${logs[2].map(([s]) => s)}`);
    assert.equal(new Set(logs[2].map(([s]) => s)).size, logs[2].length);
    await reveal(cy, cardOf(cy, await cardOf(cy, archive).getAttribute('data-object-id')).getByText('Flooded stacks'));
    await reveal(cy, cy.page.locator(tid('object-card', { kind: 'character' })).filter({ hasText: 'Wren' }).getByText('Smuggler'));
    assert.deepEqual(await cy.page.getByTestId('line').locator('.line-text').allTextContents(), ['no harm to animals']);
    const wren = cy.page.locator(tid('object-card', { kind: 'character' })).filter({ hasText: 'Wren' });
    assert.equal(await wren.getByText('Smuggler', { exact: true }).count(), 1, 'shown once');
    // Back, Cy is told what was missed, in the log's words, where the page begins.
    const away = cy.page.getByTestId('while-away');
    await away.waitFor();
    assert.ok((await away.getByTestId('away-line').allTextContents()).includes('Wren gained an aspect: Smuggler.'));
    assert.equal(await cy.page.getByTestId('log-entry').filter({ hasText: 'gained an aspect' }).count(), 3, 'each missed aspect logged once');
    // Each line names the aspect: the log reads what was missed, not "gained an aspect" thrice.
    assert.equal(await cy.page.getByTestId('log-entry').filter({ hasText: 'Wren gained an aspect: Smuggler.' }).count(), 1);

    // And Cy plays on.
    await addLine(cy, 'drowning');
    await sameSeq(players);
    for (const p of players) assert.deepEqual(await p.page.getByTestId('line').locator('.line-text').allTextContents(), ['no harm to animals', 'drowning']);

    for (const p of [ada, bo]) assert.deepEqual(consoleErrors(p), [], `${p.name}'s console errors`);
    assert.deepEqual(consoleErrors(cy, { network: true }), [], 'Cy: only network errors while offline');
  });
});
