// On a phone (375 × 812): in every phase the page fits the screen's width (no sideways
// scrolling) and the main controls are on screen, large enough to tap, and work; a proposal
// shows at the top of the screen wherever the player has scrolled. Screenshots are kept under
// e2e/artifacts/ (phone-*.png) to look at.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  withTable, createTable, joinTable, rollProphecy, advance, makeCharacters, sketchFinale,
  sketchPrecursor, selectScene, createObject, attachAspect, cardOf, placeObject, startScene, proposePair,
  panel, myCard, aspectId, sameSeq, accepted, narrate, finishScene, tid, consoleErrors, CHARS,
  seated, makeCheck, othersAgree, shot, reveal,
} from './table.mjs';

const PHONE = { width: 375, height: 812 };

/** The proposal bar is on screen (at the top, stuck there), and so are its buttons. */
async function assertProposalOnScreen(p, where) {
  const bar = p.page.getByTestId('proposal');
  await bar.waitFor();
  const box = await bar.boundingBox();
  assert.ok(box && box.y >= -1 && box.y < 200 && box.y + box.height <= PHONE.height, `${where}: the proposal bar is not at the top of the screen (${JSON.stringify(box)})`);
  assert.ok(box.height < PHONE.height / 2, `${where}: the proposal bar takes ${box.height}px of the screen`);
  for (const id of ['proposal-agree', 'proposal-stop']) {
    if (!(await bar.getByTestId(id).count())) continue;
    const b = await bar.getByTestId(id).boundingBox();
    assert.ok(b.x >= 0 && b.x + b.width <= PHONE.width && b.height >= 24, `${where}: ${id} is not usable (${JSON.stringify(b)})`);
  }
}

/** The page does not scroll sideways. */
async function assertFitsWidth(p, where) {
  const { scroll, width } = await p.page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
  assert.ok(scroll <= width, `${where}: the page is ${scroll}px wide on a ${width}px screen`);
}

/** Each control is visible, inside the screen's width once scrolled to, and big enough to tap. */
async function assertUsable(p, where, locators) {
  await assertFitsWidth(p, where);
  for (const [name, locator] of Object.entries(locators)) {
    const l = locator.first();
    await reveal(p, l);
    await l.waitFor();
    await l.scrollIntoViewIfNeeded();
    const box = await l.boundingBox();
    assert.ok(box, `${where}: ${name} has no box`);
    assert.ok(box.x >= -0.5 && box.x + box.width <= PHONE.width + 0.5, `${where}: ${name} is off screen (x ${box.x}, width ${box.width})`);
    assert.ok(box.y >= -2 && box.y + box.height <= PHONE.height + 2, `${where}: ${name} is not on screen once scrolled to (y ${box.y}, height ${box.height})`);
    assert.ok(box.height >= 24 && box.width >= 24, `${where}: ${name} is too small to tap (${box.width}×${box.height})`);
  }
}

test('on a phone every phase fits the screen and its controls can be used', { timeout: 150_000 }, async () => {
  await withTable('phone', async (table) => {
    const ada = await table.open('Ada', { viewport: PHONE });
    await ada.page.goto(`${table.server.url}/`);
    const home = (id) => ada.page.getByTestId(id);
    await assertUsable(ada, 'home', { name: home('create-name'), 'rules 1.1': home('ruleset-1.1').locator('..'), create: home('create-table') });
    const link = await createTable(ada, table.server, 'Ada');
    const bo = await table.open('Bo', { viewport: PHONE });
    await bo.page.goto(link);
    await assertUsable(bo, 'join', { name: bo.page.getByTestId('join-name'), join: bo.page.getByTestId('join-submit') });
    await joinTable(bo, link, 'Bo');
    const players = seated([ada, bo]);
    await sameSeq(players);

    const g = (id) => ada.page.getByTestId(id);
    await assertUsable(ada, 'prophecy', {
      'invite link': g('invite-link'), 'copy link': g('copy-link'), world: g('world-select'), 'roll d66': g('roll-d66'),
      module: g('module-select'), 'use module': g('pick-module'), 'own prophecy': g('prophecy-input'), 'write it': g('write-prophecy'),
      'add a line': g('line-text'),
    });
    // The QR code for other phones.
    await g('show-qr').click();
    await ada.page.waitForFunction(() => {
      const img = document.querySelector('[data-testid="qr"]');
      return img && img.complete && img.naturalWidth > 0;
    });
    await rollProphecy(ada);
    await assertUsable(ada, 'prophecy received', { advance: g('advance'), 'the dice': g('d66-roll'), 'x-card': g('x-card') });
    // Bo has scrolled down to the safety tools when Ada proposes to move on: the proposal shows
    // at the top of his screen all the same.
    await reveal(bo, bo.page.getByTestId('line-text'));
    await bo.page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await accepted(ada, 'propose moving on', () => g('advance').click());
    await assertProposalOnScreen(bo, 'proposal, scrolled down');
    await shot(bo, 'phone-proposal');
    await othersAgree(ada, 'move on');
    for (const p of players) await p.page.locator(tid('phase', { phase: 'characters' })).waitFor();

    await assertUsable(ada, 'characters', { name: g('character-name'), create: g('create-character') });
    await makeCharacters(players, CHARS);
    await assertUsable(ada, 'character card', {
      card: myCard(ada), 'aspect text': myCard(ada).getByTestId('aspect-text'), category: myCard(ada).getByTestId('aspect-category'),
      add: myCard(ada).getByTestId('attach-aspect'), 'new object': g('object-name'), kind: g('object-kind'), advance: g('advance'),
    });
    await advance(bo, 'outline');

    await assertUsable(ada, 'outline', { objective: g('finale-objective'), sketch: g('sketch-finale') });
    const finale = await sketchFinale(ada, 'Silence the drowned bell');
    const precursor = await sketchPrecursor(ada, finale, 'Steal the bell-keeper’s chart');
    const warning = await sketchPrecursor(bo, finale, 'Warn the river towns');
    const detail = await selectScene(ada, precursor);
    await assertUsable(ada, 'scene detail', { node: ada.page.locator(tid('outline-node', { 'scene-id': precursor })), setting: detail.getByTestId('edit-setting'), sketch: detail.getByTestId('sketch-objective') });
    const archive = await createObject(ada, 'The Sunken Archive', 'place');
    await attachAspect(ada, cardOf(ada, archive), 'Flooded stacks');
    await placeObject(ada, precursor, archive);
    await advance(ada, 'story');

    await assertUsable(ada, 'story', { 'available scene': g('available-scene') });
    await startScene(ada, precursor);
    const sp = panel(ada);
    await assertUsable(ada, 'scene', {
      timer: ada.page.getByTestId('timer'), 'character aspect': sp.getByTestId('pair-character-aspect'),
      'environment aspect': sp.getByTestId('pair-environment-aspect'), why: sp.getByTestId('pair-justification'),
      propose: sp.getByTestId('propose-pair'), 'new object': sp.getByTestId('scene-object-name'), check: sp.getByTestId('make-check'),
    });
    await proposePair(ada, await aspectId(ada, 'Smuggler'), await aspectId(ada, 'Flooded stacks'), 'She knows the water');
    await assertUsable(ada, 'pair', { pair: sp.getByTestId('pair'), pool: sp.getByTestId('pool'), odds: sp.getByTestId('scene-odds'), 'object to it': panel(bo).getByTestId('object-pair') });
    await sp.getByTestId('pair').scrollIntoViewIfNeeded();
    await shot(ada, 'phone-scene');
    await makeCheck(ada);
    await sp.getByTestId('check-result').waitFor();
    await assertUsable(ada, 'check', { dice: sp.getByTestId('die'), result: sp.getByTestId('check-result'), narration: sp.getByTestId('narration'), record: sp.getByTestId('narrate') });
    await assertFitsWidth(bo, 'the other phone');
    await narrate(bo, 'Wren swam out with the chart.');
    await finishScene(ada, precursor);

    // A scene with no dice: the server refuses (code empty_pool) and the page asks to accept
    // the failure; accepted, it is zero hits, a failure.
    await startScene(bo, warning);
    const bp = panel(bo);
    await bp.getByTestId('pool').filter({ hasText: 'The pool is empty' }).waitFor();
    await bp.getByTestId('make-check').click();
    await assertUsable(bo, 'empty pool', { refusal: bp.getByTestId('refusal'), accept: bp.getByTestId('accept-empty-pool'), cancel: bp.getByTestId('cancel-empty-pool') });
    await bp.getByTestId('cancel-empty-pool').click();
    await bp.getByTestId('accept-empty-pool').waitFor({ state: 'detached' });
    await bp.getByTestId('make-check').click();
    await accepted(bo, 'propose accepting the empty pool', () => bp.getByTestId('accept-empty-pool').click());
    await assertProposalOnScreen(ada, 'the empty check proposed');
    await shot(ada, 'phone-empty-pool-proposal');
    await othersAgree(bo, 'accept the empty pool');
    await sameSeq(players);
    for (const p of players) {
      const result = panel(p).getByTestId('check-result');
      await result.waitFor();
      assert.deepEqual([await result.getAttribute('data-hits'), await result.getAttribute('data-outcome')], ['0', 'failure']);
      await panel(p).getByText('No dice were rolled').waitFor();
    }
    await assertFitsWidth(bo, 'the empty check');

    for (const p of players) assert.deepEqual(consoleErrors(p), [], `${p.name}'s console errors`);
  });
});
