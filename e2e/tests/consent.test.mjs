// Consent: what cannot be undone is a proposal the table settles. One player's proposal to move
// on does not move the table; it carries when every player has agreed, and "Not yet" drops it.
// Nobody rolls a check alone. The table can go back to the outline until the first check, set a
// started scene aside, and remove a scene only after a second click. A proposal that waits on a
// player who left carries when the others agree once more. Cy plays on a phone (375 × 812).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  withTable, seatPlayers, rollProphecy, advance, makeCharacters, sketchFinale, sketchPrecursor,
  createObject, attachAspect, cardOf, placeObject, selectScene, startScene, proposePair, panel,
  sameSeq, accepted, aspectId, tid, consoleErrors, othersAgree, proposalId, shot, seq, view, CHARS,
  logLine,
} from './table.mjs';

const PHONE = { width: 375, height: 812 };
const bar = (p) => p.page.getByTestId('proposal');
const phase = async (p) => (await view(p)).phase.id;

test('a proposal carries only when every player agrees; Not yet drops it', { timeout: 180_000 }, async () => {
  await withTable('consent', async (table) => {
    const { players } = await seatPlayers(table, [{ name: 'Ada' }, { name: 'Bo' }, { name: 'Cy', options: { viewport: PHONE } }]);
    const [ada, bo, cy] = players;
    await rollProphecy(ada);
    await sameSeq(players);

    // Ada proposes to move on: nobody moves on yet; every page shows who agreed and who not.
    await accepted(ada, 'propose moving on', () => ada.page.locator(tid('advance', { to: 'characters' })).click());
    for (const p of players) {
      await bar(p).getByTestId('proposal-waiting').filter({ hasText: p === ada ? 'Waiting for Bo and Cy.' : p === bo ? 'Waiting for you and Cy.' : 'Waiting for Bo and you.' }).waitFor();
      assert.equal(await phase(p), 'prophecy', `${p.name}'s table moved on by one player's proposal`);
      await p.page.locator(tid('phase', { phase: 'prophecy' })).waitFor();
    }
    await bar(ada).getByTestId('proposal-text').filter({ hasText: 'You propose to move on to Create the Characters.' }).waitFor();
    await bar(bo).getByTestId('proposal-text').filter({ hasText: 'Ada proposes to move on to Create the Characters.' }).waitFor();
    // The proposer has agreed by proposing: no Agree for her, a way to withdraw it.
    assert.equal(await bar(ada).getByTestId('proposal-agree').count(), 0);
    assert.equal(await bar(ada).getByTestId('proposal-stop').textContent(), 'Withdraw it');
    // Another proposal waits until this one is settled.
    assert.equal(await ada.page.getByTestId('advance').isDisabled(), true);
    await shot(cy, 'phone-consent-waiting');

    // Bo agrees: still waiting for Cy, still the same phase.
    await accepted(bo, 'agree', () => bar(bo).getByTestId('proposal-agree').click());
    for (const p of players) {
      await bar(p).getByTestId('proposal-agreed').filter({ hasText: p === ada ? 'Agreed: you and Bo.' : p === bo ? 'Agreed: Ada and you.' : 'Agreed: Ada and Bo.' }).waitFor();
      assert.equal(await phase(p), 'prophecy');
    }
    assert.equal(await bar(bo).getByTestId('proposal-agree').count(), 0, 'Bo agreed already');

    // Cy says not yet: the proposal is dropped, and the table stays where it was.
    await accepted(cy, 'say not yet', () => bar(cy).getByTestId('proposal-stop').click());
    for (const p of players) {
      await bar(p).waitFor({ state: 'detached' });
      await logLine(p, 'Cy said not yet: the proposal is dropped.');
      assert.equal(await phase(p), 'prophecy');
    }

    // Proposed again, everyone agrees: the table moves on, on every page.
    await advance(bo, 'characters');
    await makeCharacters(players, CHARS);
    await advance(cy, 'outline');

    // Removing a scene asks first, in place (no browser dialog).
    const finale = await sketchFinale(ada, 'Silence the drowned bell');
    const precursor = await sketchPrecursor(bo, finale, 'Steal the bell-keeper’s chart');
    const extra = await sketchPrecursor(cy, finale, 'Warn the river towns');
    const detail = await selectScene(ada, extra);
    await detail.getByTestId('remove-scene').click();
    await detail.getByTestId('confirm-remove-scene').waitFor();
    await detail.getByTestId('keep-scene').click();
    await detail.getByTestId('confirm-remove-scene').waitFor({ state: 'detached' });
    assert.ok((await view(ada)).scenes.some((s) => s.id === extra), 'Keep it keeps the scene');
    await detail.getByTestId('remove-scene').click();
    await accepted(ada, 'remove the scene', () => detail.getByTestId('confirm-remove-scene').click());
    for (const p of players) await p.page.locator(tid('outline-node', { 'scene-id': extra })).waitFor({ state: 'detached' });

    const archive = await createObject(ada, 'The Sunken Archive', 'place');
    await attachAspect(ada, cardOf(ada, archive), 'Flooded stacks');
    await placeObject(ada, precursor, archive);
    await advance(ada, 'story');

    // Until the first check the table may go back to the outline, by agreement too.
    await ada.page.getByTestId('propose-return').waitFor();
    await accepted(bo, 'propose going back', () => bo.page.getByTestId('propose-return').click());
    await bar(ada).filter({ hasText: 'Bo proposes to go back to Write the Outline' }).waitFor();
    await othersAgree(bo, 'go back to the outline');
    for (const p of players) await p.page.locator(tid('phase', { phase: 'outline' })).waitFor();
    await advance(cy, 'story');

    // A started scene can be set aside until its check, and started again.
    await startScene(ada, precursor);
    await accepted(cy, 'set the scene aside', () => panel(cy).getByTestId('cancel-scene').click());
    for (const p of players) {
      await p.page.getByTestId('scene-panel').waitFor({ state: 'detached' });
      await p.page.locator(tid('available-scene', { 'scene-id': precursor })).waitFor();
    }
    await startScene(bo, precursor);
    await proposePair(bo, await aspectId(bo, 'Archivist'), await aspectId(bo, 'Flooded stacks'), 'He reads the shelf marks');

    // One player cannot roll a check alone: Ada's proposal rolls nothing until all agree.
    await accepted(ada, 'propose the check', () => panel(ada).getByTestId('make-check').click());
    const id = await proposalId(ada);
    await shot(ada, 'desktop-check-proposed');
    for (const p of players) {
      await panel(p).getByTestId('check-proposed').waitFor();
      await bar(p).getByTestId('proposal-text').filter({ hasText: 'make the check of “Steal the bell-keeper’s chart”' }).waitFor();
      assert.equal(await panel(p).getByTestId('check-result').count(), 0, `${p.name} sees a check nobody agreed to`);
    }
    await accepted(bo, 'agree', () => bar(bo).getByTestId('proposal-agree').click());
    await sameSeq(players);
    for (const p of players) {
      assert.equal(await panel(p).getByTestId('roll').count(), 0, `${p.name} sees a roll two of three agreed to`);
      assert.equal((await view(p)).scenes.find((s) => s.id === precursor).check, null);
    }
    // While the table decides, the pool stays as it is.
    assert.equal(await panel(cy).getByTestId('propose-pair').count(), 0);
    await accepted(cy, 'agree', () => bar(cy).getByTestId('proposal-agree').click());
    for (const p of players) {
      await panel(p).getByTestId('check-result').waitFor();
      await p.page.locator(tid('proposal', { 'proposal-id': id })).waitFor({ state: 'detached' });
      // Once a check is made, going back to the outline is no longer offered.
      assert.equal(await p.page.getByTestId('propose-return').count(), 0);
      assert.equal(await panel(p).getByTestId('cancel-scene').count(), 0);
    }

    // Bo uses the X-card; Ada proposes resuming and Cy agrees, but Bo (who would have to agree)
    // is removed from the table: once nobody is left to wait for, one more Agree carries it.
    await accepted(bo, 'pause', () => bo.page.getByTestId('x-card').click());
    for (const p of players) await p.page.locator(tid('paused-banner', { 'x-card': 'true' })).waitFor();
    await accepted(ada, 'propose resuming', () => ada.page.getByTestId('propose-resume').click());
    await accepted(cy, 'agree to resume', () => bar(cy).getByTestId('proposal-agree').click());
    await bar(ada).getByTestId('proposal-waiting').filter({ hasText: 'Waiting for Bo.' }).waitFor();
    await ada.page.locator(tid('player', { 'player-id': 2 })).getByTestId('remove-player').click();
    await accepted(ada, 'remove Bo', () => ada.page.getByTestId('confirm-remove-player').click());
    await bo.page.getByTestId('removed').waitFor();
    const left = [ada, cy];
    for (const p of left) {
      await bar(p).getByTestId('proposal-waiting').filter({ hasText: 'Everyone still at the table has agreed' }).waitFor();
      assert.equal((await view(p)).paused, true, 'not carried by itself');
    }
    await shot(cy, 'phone-consent-carry-again');
    const before = await seq(cy);
    await accepted(cy, 'carry it', () => bar(cy).getByTestId('proposal-agree').click());
    assert.ok((await seq(cy)) > before);
    for (const p of left) {
      await p.page.getByTestId('paused-banner').waitFor({ state: 'detached' });
      await bar(p).waitFor({ state: 'detached' });
    }

    for (const p of left) assert.deepEqual(consoleErrors(p), [], `${p.name}'s console errors`);
  });
});
