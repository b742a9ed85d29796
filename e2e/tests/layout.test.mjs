// The table on a phone and on a laptop (issue 13): on a 375 × 812 phone the story page is a few
// views switched from a bar at the bottom (the phase's work, the outline, the characters, the
// table), with what is new marked on the views the player is not looking at; starting a scene
// brings it into view on both sizes; finishing one leaves the phone at the top of the scene
// view, not on the log. Screenshots: e2e/artifacts/layout-*.png.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  withTable, gameToStory, startScene, proposePair, narrate, finishScene, makeCheck, panel, sameSeq,
  aspectId, tid, consoleErrors, shot, showTab, reveal,
} from './table.mjs';

const PHONE = { width: 375, height: 812 };
const LAPTOP = { width: 1280, height: 800 };

/** The ids of the views the tab bar offers, and the one shown. */
async function tabs(p) {
  return p.page.evaluate(() => ({
    offered: Array.from(document.querySelectorAll('[data-testid="tabbar"] .tab')).map((b) => b.getAttribute('data-testid').slice(4)),
    shown: document.querySelector('[data-testid="layout"]').getAttribute('data-tab'),
    visible: getComputedStyle(document.querySelector('[data-testid="tabbar"]')).display !== 'none',
  }));
}

/** Whether `locator`'s first element is on screen now (some of it inside the viewport). */
async function onScreen(p, locator, height) {
  const box = await locator.first().boundingBox();
  return !!box && box.y < height && box.y + box.height > 0;
}

test('a phone switches between views; a started scene comes into view; a finished one leaves the phone on the scene view', { timeout: 240_000 }, async () => {
  await withTable('layout', async (table) => {
    const { players, precursor } = await gameToStory(table, [
      { name: 'Ada', options: { viewport: LAPTOP } },
      { name: 'Bo', options: { viewport: PHONE } },
    ]);
    const [ada, bo] = players;

    // A laptop shows no tab bar: the scene's work and the table side by side.
    assert.equal((await tabs(ada)).visible, false, 'no tab bar on a laptop');
    assert.ok(await ada.page.getByTestId('log').isVisible(), 'the log shows on a laptop');
    assert.ok(await ada.page.getByTestId('outline').or(ada.page.locator('.outline-scroll')).first().isVisible(), 'the outline shows on a laptop');

    // The QR code for phones opens over the page: nothing below it moves.
    // (Where the layout starts in the page, whatever the page's scroll.)
    const layoutTop = () => ada.page.getByTestId('layout').evaluate((el) => el.getBoundingClientRect().top + window.scrollY);
    const before = await layoutTop();
    await ada.page.getByTestId('show-qr').click();
    await ada.page.waitForFunction(() => document.querySelector('[data-testid="qr"]')?.complete);
    assert.equal(await layoutTop(), before, 'the page below stays where it was');
    await shot(ada, 'layout-laptop-qr');
    await ada.page.getByTestId('show-qr').click();

    // The phone offers the story's four views and shows the scene's.
    const t = await tabs(bo);
    assert.deepEqual(t.offered, ['now', 'outline', 'characters', 'table']);
    assert.equal(t.shown, 'now');
    assert.equal(await bo.page.getByTestId('tab-now').textContent(), 'Scene');
    assert.ok(await bo.page.getByTestId('available-scene').first().isVisible(), 'the next scene to choose shows');
    // The rules of this phase, one tap away.
    const help = bo.page.locator(tid('rules-help', { help: 'phase-story' }));
    await help.locator('summary').click();
    await help.getByText('A 4, 5 or 6 is a hit; every 6 rolls one more die.').waitFor();
    assert.equal(await bo.page.getByTestId('log').isVisible(), false, 'the log waits in the Table view');
    await showTab(bo, 'table');
    assert.ok(await bo.page.getByTestId('log').isVisible(), 'the Table view shows the log');
    assert.equal(await bo.page.getByTestId('available-scene').first().isVisible(), false, 'and not the scene');
    await shot(bo, 'layout-phone-table');
    await showTab(bo, 'characters');
    assert.ok(await bo.page.locator(tid('object-card', { yours: 'true' })).isVisible(), 'the Characters view shows the cards');

    // Ada starts the scene on her laptop: it comes into view there; Bo, on the Characters
    // view, sees the Scene view marked.
    await startScene(ada, precursor);
    assert.ok(await onScreen(ada, panel(ada), LAPTOP.height), 'the started scene is on Ada’s screen');
    const top = await panel(ada).boundingBox();
    assert.ok(top.y >= -1 && top.y < LAPTOP.height / 2, `the scene panel starts near the top of the screen (y ${top.y})`);
    await shot(ada, 'layout-laptop-scene');
    // The log names the scene by its objective, in a sentence that reads right.
    const began = ada.page.getByTestId('log-entry').filter({ hasText: 'began; the timer runs.' }).last();
    assert.equal(await began.locator('.log-text').textContent(), 'Steal the bell-keeper’s chart began; the timer runs.');
    assert.equal(await began.locator('q.log-ref').textContent(), 'Steal the bell-keeper’s chart');
    await bo.page.locator(tid('tab-now', { attention: 'true' })).waitFor();
    await bo.page.locator(tid('tab-table', { attention: 'true' })).waitFor();
    assert.match(await bo.page.getByTestId('tab-table').textContent(), /^Table\d+$/, 'the Table view counts what is new in the log');
    await showTab(bo, 'now');
    assert.ok(await onScreen(bo, panel(bo), PHONE.height), 'the Scene view shows the scene being played');
    assert.equal(await bo.page.locator(tid('tab-now', { attention: 'true' })).count(), 0, 'looking clears the mark');
    // What this scene does to the Finale: its success makes the Finale likelier than its failure.
    const whatIf = panel(bo).getByTestId('what-if');
    await whatIf.waitFor();
    const [up, down] = await Promise.all([whatIf.getAttribute('data-success'), whatIf.getAttribute('data-failure')]);
    assert.ok(Number(up) > Number(down), `the Finale's chance: ${up} after a success, ${down} after a failure`);
    assert.match(await whatIf.textContent(), /^The Finale’s chance, now [<>]?\d+(\.\d)?%: [<>]?\d+(\.\d)?% if this scene succeeds, [<>]?\d+(\.\d)?% if it fails\.$/);
    await shot(bo, 'layout-phone-scene');

    // Bo plays the scene through on the phone and finishes it: the phone is at the top of the
    // Scene view afterwards, not at the log.
    const character = await aspectId(bo, 'Archivist');
    const environment = await aspectId(bo, 'Flooded stacks');
    await proposePair(bo, character, environment, 'She reads the flooded shelves by touch.');
    await makeCheck(bo);
    await panel(bo).getByTestId('check-result').waitFor();
    // "Finish scene" stands apart from the narration's button above it, on both pages.
    for (const p of [ada, bo]) {
      const finish = await (await reveal(p, panel(p).getByTestId('finish-scene'))).boundingBox();
      const record = await panel(p).getByTestId('narrate').boundingBox();
      assert.ok(finish.y - (record.y + record.height) >= 8, `${p.name}: ${finish.y - (record.y + record.height)} px between "Record narration" and "Finish scene"`);
    }
    // Ada starts writing a narration on her laptop; Bo records his first. Ada's draft stays,
    // with his narration above it and a word about what happened.
    const draft = 'Ash slipped the chart into her sleeve.';
    await panel(ada).getByTestId('narration').fill(draft);
    await narrate(bo, 'The chart was where the water kept it.');
    await panel(ada).getByTestId('narration-meanwhile').waitFor();
    assert.equal(await panel(ada).getByTestId('narration').inputValue(), draft, 'Ada’s draft is kept');
    await panel(ada).getByTestId('narration-text').filter({ hasText: 'The chart was where the water kept it.' }).waitFor();
    await shot(ada, 'layout-narration-kept');
    await panel(ada).getByTestId('discard-narration').click();
    await panel(ada).getByTestId('narration').waitFor({ state: 'detached' });
    await finishScene(bo, precursor);
    await sameSeq(players);
    const after = await tabs(bo);
    assert.equal(after.shown, 'now', 'the phone shows the Scene view after finishing');
    const scrollY = await bo.page.evaluate(() => window.scrollY);
    assert.ok(scrollY < 200, `the phone is at the top of the page (scrollY ${scrollY})`);
    assert.ok(await onScreen(bo, bo.page.getByTestId('available-scene'), PHONE.height), 'the next scene to choose is on screen');
    await shot(bo, 'layout-phone-after-scene');

    // No page scrolls sideways on the phone, in any view.
    for (const view of ['now', 'outline', 'characters', 'table']) {
      await showTab(bo, view);
      const { scroll, width } = await bo.page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
      assert.ok(scroll <= width, `the ${view} view is ${scroll}px wide on a ${width}px screen`);
    }
    for (const p of [ada, bo]) assert.deepEqual(consoleErrors(p), [], `${p.name}'s console errors`);
  });
});
