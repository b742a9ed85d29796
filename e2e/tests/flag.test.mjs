// The X-card: any player flags a text, anonymously; every page pauses play and hides the text
// until someone replaces it, in whatever phase the game is (an aspect, the prophecy after it is
// settled, a checked pair's justification, a performed scene's narration and objective).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  withTable, gameToStory, startScene, proposePair, narrate, finishScene, panel, sameSeq, accepted,
  aspectId, objectId, cardOf, selectScene, tid, consoleErrors, makeCheck,
  logLine,
  reveal,
} from './table.mjs';

/**
 * Every page shows the paused banner, and its game (the main column) no longer shows `text`;
 * where the text was (`where`, when given) a placeholder says it is flagged.
 */
async function assertHidden(players, flag, text, where) {
  for (const p of players) {
    await p.page.getByTestId('paused-banner').waitFor();
    if (where && where(p)) await reveal(p, where(p).locator(tid('flagged', { flag })));
    // Anywhere in the page, shown or in a view a phone is not showing now.
    const shown = await p.page.locator('#main').evaluate((el, t) => el.textContent.includes(t), text);
    assert.equal(shown, false, `${p.name} still shows "${text}"`);
  }
}

async function assertResumed(players, text, where = (p) => p.page.locator('#main')) {
  for (const p of players) {
    await p.page.getByTestId('paused-banner').waitFor({ state: 'detached' });
    await reveal(p, where(p).getByText(text));
    await where(p).getByText(text).first().waitFor();
  }
}

test('a flagged text is hidden and pauses play until replaced, in any phase', { timeout: 150_000 }, async () => {
  await withTable('flag', async (table) => {
    const { players, precursor } = await gameToStory(table, [{ name: 'Ada' }, { name: 'Bo' }, { name: 'Cy', options: { viewport: { width: 375, height: 800 } } }]);
    const [ada, bo, cy] = players;
    await startScene(ada, precursor);
    await proposePair(bo, await aspectId(bo, 'Archivist'), await aspectId(bo, 'Flooded stacks'), 'He reads the shelf marks');
    await sameSeq(players);
    // The log names the pair by its two aspects, as they read now, on every page (Cy's a phone).
    for (const p of players) {
      const line = (await logLine(p, 'proposed a pair')).first();
      assert.match(await line.textContent(), /Bo proposed a pair for .+: Archivist with Flooded stacks\.$/);
      assert.deepEqual((await line.locator('q').allTextContents()).slice(1), ['Archivist', 'Flooded stacks'], 'quoted');
    }

    // Ada flags an aspect of Bo's character.
    const ash = await objectId(ada, 'Ash');
    const archivist = await aspectId(ada, 'Archivist');
    const flag = `aspect:${archivist}`;
    await accepted(ada, 'flag an aspect', () => cardOf(ada, ash).locator(tid('flag', { flag })).click());
    await assertHidden(players, flag, 'Archivist');
    // The flag is anonymous: the log says a text was flagged, not by whom.
    for (const p of players) {
      const entry = await logLine(p, 'A text was flagged');
      assert.ok(!/Ada|Bo|Cy/.test(await entry.textContent()));
    }
    // Nothing of it is left anywhere, the log included, not even for a page that loads now.
    for (const p of players) assert.ok(!(await p.page.getByTestId('log').textContent()).includes('Archivist'), `${p.name}'s log quotes the flagged text`);
    const fresh = await cy.context.newPage();
    try {
      await fresh.goto(cy.page.url());
      await fresh.getByTestId('paused-banner').waitFor();
      assert.ok(!(await fresh.locator('body').innerText()).includes('Archivist'), 'a fresh page is sent the flagged text');
    } finally {
      await fresh.close();
    }
    // While paused, proposing the check is refused and the page says why.
    await panel(ada).getByTestId('make-check').click();
    await panel(ada).getByTestId('refusal').filter({ hasText: 'Safety tools' }).waitFor();
    // Anyone may replace a flagged aspect (an absent owner would keep the table paused): Cy
    // does, though the character is Bo's.
    for (const p of players) await reveal(p, cardOf(p, ash).locator(tid('replace', { flag })));
    await cardOf(cy, ash).locator(tid('replace', { flag })).click();
    await accepted(cy, 'replace the aspect', async () => {
      await cardOf(cy, ash).getByTestId('aspect-edit-text').fill('Librarian');
      await cardOf(cy, ash).getByTestId('save-aspect').click();
    });
    await assertResumed(players, 'Librarian', (p) => cardOf(p, ash));
    // The log reads the replaced text where it named the flagged one.
    for (const p of players) await logLine(p, 'Librarian with Flooded stacks');

    // The prophecy, long after it was settled: Cy flags it and replaces it.
    const prophecy = await ada.page.getByTestId('prophecy-text').textContent();
    await accepted(cy, 'flag the prophecy', async () => (await reveal(cy, cy.page.locator(tid('flag', { flag: 'prophecy' })))).click());
    await assertHidden(players, 'prophecy', prophecy.trim().slice(0, 30), (p) => p.page.locator('#prophecy'));
    await (await reveal(cy, cy.page.locator(tid('replace', { flag: 'prophecy' })))).click();
    await accepted(cy, 'replace the prophecy', async () => {
      await cy.page.getByTestId('prophecy-edit').fill('The bell will ring thirteen times, and the river will rise.');
      await cy.page.getByTestId('save-prophecy').click();
    });
    await assertResumed(players, 'The bell will ring thirteen times', (p) => p.page.getByTestId('prophecy-text'));

    // A pair's justification after the check: anyone can replace it.
    await makeCheck(cy);
    await sameSeq(players);
    const pair = await panel(bo).getByTestId('pair').first().getAttribute('data-pair-id');
    const jflag = `justification:${pair}`;
    await accepted(bo, 'flag the justification', async () => (await reveal(bo, panel(bo).locator(tid('flag', { flag: jflag })))).click());
    await assertHidden(players, jflag, 'He reads the shelf marks', panel);
    await (await reveal(ada, panel(ada).locator(tid('replace', { flag: jflag })))).click();
    await accepted(ada, 'replace the justification', async () => {
      await panel(ada).getByTestId('justification-edit').fill('He knows the old catalogue');
      await panel(ada).getByTestId('save-justification').click();
    });
    await assertResumed(players, 'He knows the old catalogue', panel);

    // A performed scene's narration: found from the banner's list, replaced in the outline.
    await narrate(ada, 'Ash found the chart where the catalogue said.');
    await finishScene(bo, precursor);
    const detail = await selectScene(cy, precursor);
    const detailOf = (p) => p.page.locator(tid('scene-detail', { 'scene-id': precursor }));
    await selectScene(ada, precursor);
    const nflag = `narration:${precursor}`;
    await accepted(cy, 'flag the narration', () => detail.locator(tid('flag', { flag: nflag })).click());
    await assertHidden(players, nflag, 'Ash found the chart', (p) => (p === bo ? null : detailOf(p)));
    await bo.page.getByTestId('paused-banner').getByRole('button', { name: 'a scene’s narration' }).click();
    await detailOf(bo).locator(tid('replace', { flag: nflag })).click();
    await accepted(bo, 'replace the narration', async () => {
      await detailOf(bo).getByTestId('narration').fill('The chart was in the third drowned stack.');
      await detailOf(bo).getByTestId('narrate').click();
    });
    await assertResumed(players, 'The chart was in the third drowned stack', detailOf);

    // The same performed scene's objective (in the outline too). The log names the scene by
    // its objective until then, and by its level once it is flagged.
    const oflag = `objective:${precursor}`;
    const refs = (p) => p.page.locator(`[data-testid="log"] .log-ref[data-scene-id="${precursor}"]`);
    for (const p of players) assert.ok((await refs(p).count()) >= 3, `${p.name}'s log names the scene by its objective`);
    assert.equal(await refs(ada).first().textContent(), 'Steal the bell-keeper’s chart');
    await accepted(ada, 'flag the objective', () => detailOf(ada).locator(tid('flag', { flag: oflag })).click());
    await assertHidden(players, oflag, 'Steal the bell-keeper’s chart', (p) => (p === bo ? null : detailOf(p)));
    for (const p of players) {
      const log = await p.page.getByTestId('log').textContent();
      assert.ok(!log.includes('Steal the bell-keeper’s chart'), `${p.name}'s log still quotes the flagged objective`);
      assert.ok(log.includes('the primary scene (3)'), `${p.name}'s log names the scene by its level`);
    }
    for (const p of players) await p.page.locator(tid('outline-node', { 'scene-id': precursor })).locator('.node-objective.is-flagged').waitFor();
    await detailOf(cy).locator(tid('replace', { flag: oflag })).click();
    await accepted(cy, 'replace the objective', async () => {
      await detailOf(cy).getByTestId('objective-text').fill('Borrow the bell-keeper’s chart');
      await detailOf(cy).getByTestId('save-objective').click();
    });
    await assertResumed(players, 'Borrow the bell-keeper’s chart', detailOf);
    for (const p of players) await p.page.locator(tid('outline-node', { 'scene-id': precursor })).locator('title', { hasText: 'Borrow the bell-keeper’s chart' }).waitFor({ state: 'attached' });

    for (const p of players) assert.deepEqual(consoleErrors(p), [], `${p.name}'s console errors`);
  });
});
