// A whole Temporal Mechanics game through the page, in its own words: the players gather and
// make their PCs with no prophecy; the Setup opens with the flashback on a timer (stopped by the
// X-card), then the warning to send back (optional, fixed when the Confrontation begins), then
// the story tree, which needs the climactic scene and one more; the act badge goes Setup,
// Confrontation, Resolution; the flashforward is timed and told before the end. No page says
// "prophecy" or "Finale". Bo plays on a phone (375 × 812).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  withTable, createTable, joinTable, seated, advance, makeCharacters, sketchFinale, sketchPrecursor,
  createObject, attachAspect, cardOf, placeObject, startScene, proposePair, makeCheck, narrate,
  finishScene, endGame, panel, sameSeq, accepted, aspectId, tid, consoleErrors, view, shot, CHARS, logLine,
  comesIntoView, rollProphecy,
} from './table.mjs';

const PHONE = { width: 375, height: 812 };

/** What the page says, the header's badges, the banners, the game and the log: never the
 * words of the other rulesets. */
async function assertTemporalWords(players, where) {
  for (const p of players) {
    const text = await p.page.evaluate(() =>
      ['.topbar .meta', '.banners', '#main', '#log']
        .map((s) => document.querySelector(s))
        .filter(Boolean)
        .map((e) => e.innerText)
        .join('\n'),
    );
    const bad = text.match(/[^\n]*\b(prophec\w*|finale)\b[^\n]*/gi);
    assert.equal(bad, null, `${p.name}, ${where}: ${JSON.stringify(bad)}`);
  }
}

async function assertPhase(players, id, name, act) {
  for (const p of players) {
    await p.page.locator(tid('phase', { phase: id })).filter({ hasText: name }).waitFor();
    if (act) await p.page.getByTestId('act').filter({ hasText: `Act: ${act}` }).waitFor();
    else assert.equal(await p.page.getByTestId('act').count(), 0, `${p.name}: no act in ${name}`);
  }
}

/** The timer of `timed` shows on every page, counting down (or stopped). */
async function assertTimer(players, timed, state = 'counting') {
  for (const p of players) await p.page.locator(tid('timer', { timed, state })).waitFor();
}

test('a Temporal Mechanics game from the flashback to the flashforward', { timeout: 180_000 }, async () => {
  await withTable('temporal', async (table) => {
    const ada = await table.open('Ada');
    const link = await createTable(ada, table.server, 'Ada', 'temporal');
    const bo = await table.open('Bo', { viewport: PHONE });
    await joinTable(bo, link, 'Bo');
    const players = seated([ada, bo]);
    await sameSeq(players);

    // The players gather: no warning is offered before the Setup's flashback.
    await assertPhase(players, 'prophecy', 'Gather the Players', null);
    for (const p of players) assert.equal(await p.page.locator('#prophecy-h').count(), 0, `${p.name}: no warning yet`);
    await assertTemporalWords(players, 'Gather the Players');
    await advance(ada, 'characters');
    await assertPhase(players, 'characters', 'Create the PCs', null);
    assert.equal((await view(ada)).prophecy, null);
    await makeCharacters(players, CHARS.slice(0, 2));
    await assertTemporalWords(players, 'Create the PCs');

    // The Setup: the flashback first, on a 10-minute timer; no story tree before it.
    await advance(bo, 'outline');
    await assertPhase(players, 'outline', 'Setup: the Flashback and the Story Tree', 'Setup');
    await assertTimer(players, 'flashback');
    for (const p of players) {
      // The Setup begins: its first form is in view on the laptop (which was scrolled to the
      // characters it made) and on the phone.
      assert.ok(await comesIntoView(p, p.page.getByTestId('flashback')), `${p.name}: the Setup's form is out of view`);
      await p.page.locator(tid('timer', { timed: 'flashback' })).filter({ hasText: /Flashback: (10:00|9:\d\d) left/ }).waitFor();
      await p.page.getByTestId('flashback-first').waitFor();
      assert.equal(await p.page.getByTestId('sketch-finale').count(), 0);
    }
    await assertTemporalWords(players, 'the flashback');

    // The X-card stops the timer: it says so, and shows the time left as it stood.
    await accepted(bo, 'use the X-card', () => bo.page.getByTestId('x-card').click());
    await assertTimer(players, 'flashback', 'stopped');
    for (const p of players) {
      const t = p.page.getByTestId('timer');
      await t.getByTestId('timer-paused').filter({ hasText: 'paused' }).waitFor();
      const { remaining_ms: ms } = (await view(p)).timer;
      const s = Math.floor((ms + 999) / 1000);
      assert.equal(await t.getByTestId('timer-text').textContent(), `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')} left`);
    }
    await shot(bo, 'phone-temporal-paused');
    await accepted(bo, 'resume', () => bo.page.getByTestId('resume').click());
    await assertTimer(players, 'flashback');

    await accepted(ada, 'narrate the flashback', async () => {
      await ada.page.getByTestId('flashback').fill('At midnight every clock jumped eleven seconds, and the planes fell.');
      await ada.page.getByTestId('narrate-flashback').click();
    });
    for (const p of players) await p.page.getByTestId('flashback-text').filter({ hasText: 'eleven seconds' }).waitFor();

    // The flashback told, the warning to send back comes into view: Bo rolls one on the phone.
    for (const p of players) {
      assert.ok(await comesIntoView(p, p.page.locator('#prophecy-h').filter({ hasText: 'The warning (optional)' })), `${p.name}: the warning is out of view`);
    }
    await rollProphecy(bo);
    const warning = (await bo.page.getByTestId('prophecy-text').textContent()).trim();
    await ada.page.getByTestId('prophecy-text').filter({ hasText: warning.slice(0, 30) }).waitFor();
    await assertTemporalWords(players, 'the warning');
    await shot(bo, 'phone-temporal-warning');

    // The story tree: the climactic scene alone is not enough to move on.
    const climax = await sketchFinale(ada, 'Stop the master clock from skipping');
    for (const p of players) await p.page.locator(tid('outline-node', { 'scene-id': climax })).filter({ hasText: 'CLIMACTIC · DIFFICULTY 4' }).waitFor();
    await ada.page.getByTestId('tree-too-small').waitFor();
    await ada.page.locator(tid('advance', { to: 'story' })).click();
    await ada.page.locator('[data-for="advance"]').filter({ hasText: 'climactic scene' }).waitFor();
    assert.equal((await view(ada)).proposal, null, 'no proposal to move on with the climax alone');
    const below = await sketchPrecursor(bo, climax, 'Find the second receiver');
    for (const p of players) await p.page.locator(tid('outline-node', { 'scene-id': below })).filter({ hasText: 'DEPTH 1 · DIFFICULTY 3' }).waitFor();
    const vault = await createObject(ada, 'The Timing Vault', 'place');
    await attachAspect(ada, cardOf(ada, vault), 'Cold maser');
    await attachAspect(ada, cardOf(ada, vault), 'Erased log');
    await placeObject(ada, below, vault);
    await placeObject(ada, climax, vault);
    // An NPC, in the log with the right article; the place's lines start with a capital.
    await createObject(ada, 'Warden Ilse', 'npc');
    for (const p of players) {
      await logLine(p, 'An NPC entered the story: Warden Ilse.');
      await logLine(p, 'A place entered the story: The Timing Vault.');
    }
    await assertTemporalWords(players, 'the story tree');
    await shot(bo, 'phone-temporal-tree');

    // Confrontation: the story scenes, the climactic scene last.
    await advance(ada, 'story');
    await assertPhase(players, 'story', 'Confrontation: the Story Scenes', 'Confrontation');
    // The warning was sent back: everyone still reads it, and no one can change it.
    for (const p of players) {
      await p.page.getByTestId('prophecy-text').filter({ hasText: warning.slice(0, 30) }).waitFor({ state: 'attached' });
      assert.equal(await p.page.getByTestId('roll-d66').count(), 0, `${p.name}: no new warning`);
      assert.equal(await p.page.getByTestId('edit-prophecy').count(), 0, `${p.name}: the warning is fixed`);
    }
    await startScene(ada, below);
    await assertTimer(players, 'scene');
    await proposePair(ada, await aspectId(ada, 'Smuggler'), await aspectId(ada, 'Cold maser'), 'She has smuggled colder things');
    await makeCheck(bo);
    for (const p of players) await panel(p).getByTestId('check-result').waitFor();
    await narrate(bo, 'They found the second receiver behind the maser.');
    await finishScene(ada, below);
    await startScene(bo, climax);
    await proposePair(bo, await aspectId(bo, 'Archivist'), await aspectId(bo, 'Erased log'), 'He restores the erased log');
    await assertTemporalWords(players, 'the climactic scene');
    await makeCheck(ada);
    for (const p of players) await panel(p).getByTestId('check-result').waitFor();
    await narrate(ada, 'The clock held; nobody noticed the second that was not lost.');
    await finishScene(bo, climax);

    // Resolution: the flashforward, timed, and needed before the end.
    await assertPhase(players, 'story', 'Confrontation: the Story Scenes', 'Resolution');
    await assertTimer(players, 'flashforward');
    for (const p of players) {
      // The flashforward begins: its form comes into view.
      assert.ok(await comesIntoView(p, p.page.getByTestId('long-term-effects')), `${p.name}: the flashforward is out of view`);
      await p.page.locator('#long-term-effects-h').filter({ hasText: 'Resolution: the flashforward' }).waitFor();
      await p.page.getByTestId('finale-outcome').filter({ hasText: 'The climactic scene' }).waitFor();
    }
    await ada.page.getByTestId('end-game').click();
    await ada.page.locator('[data-for="end-game"]').filter({ hasText: 'flashforward' }).waitFor();
    assert.equal((await view(ada)).proposal, null, 'no proposal to end before the flashforward');
    await accepted(bo, 'narrate the flashforward', async () => {
      await bo.page.getByTestId('long-term-effects').fill('In 2086 the clocks agree, and nobody remembers why that matters.');
      await bo.page.getByTestId('narrate-long-term-effects').click();
    });
    await assertTemporalWords(players, 'the flashforward');
    await shot(bo, 'phone-temporal-resolution');
    await endGame(ada);
    for (const p of players) {
      await p.page.getByTestId('the-end').waitFor();
      await p.page.getByTestId('long-term-effects-text').filter({ hasText: 'the clocks agree' }).waitFor();
    }
    await assertTemporalWords(players, 'the end');

    for (const p of players) assert.deepEqual(consoleErrors(p), [], `${p.name}'s console errors`);
  });
});
