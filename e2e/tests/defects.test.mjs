// Defects a group met, each fixed and kept fixed (issue 13), on a laptop (1280 × 800) and a
// phone (375 × 812): a refusal goes once the table has changed under it; the reward die on an
// outline node leaves the node's level and difficulty readable; an outline wider than a phone
// says that it scrolls sideways.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  withTable, seatPlayers, rollProphecy, advance, createCharacter, attachAspect, myCard, CATEGORIES,
  CHARS, sketchFinale, sketchPrecursor, createObject, cardOf, placeObject, startScene, proposePair,
  makeCheck, narrate, finishScene, panel, aspectId, sameSeq, accepted, tid, consoleErrors, shot,
  reveal, showTab, proposeAndAgree,
} from './table.mjs';

const PHONE = { width: 375, height: 812 };
const LAPTOP = { width: 1280, height: 800 };

/** Whether two boxes overlap. */
const overlap = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

test('a refusal goes when the table changes; reward dice leave the label readable; a wide outline says it scrolls', { timeout: 240_000 }, async () => {
  await withTable('defects', async (table) => {
    const { players } = await seatPlayers(table, [
      { name: 'Ada', options: { viewport: LAPTOP } },
      { name: 'Bo', options: { viewport: PHONE } },
    ]);
    const [ada, bo] = players;
    await rollProphecy(ada);
    await advance(ada, 'characters');
    await createCharacter(ada, CHARS[0].name);
    await createCharacter(bo, CHARS[1].name);
    for (const [k, category] of CATEGORIES.entries()) {
      await attachAspect(ada, myCard(ada), CHARS[0].aspects[k], category, category === 'relationship' ? CHARS[1].name : null);
    }
    // Ada proposes moving on before Bo's character is complete: refused, and the page says why.
    await (await reveal(ada, ada.page.locator(tid('advance', { to: 'outline' })))).click();
    const refusal = ada.page.locator('.advance-bar [data-testid="refusal"]');
    await refusal.waitFor();
    assert.match(await refusal.textContent(), /Bo|aspect|Relationship/i);
    await shot(ada, 'defects-refusal');
    // Bo completes his character; once the table has changed, the old refusal is gone.
    await new Promise((r) => setTimeout(r, 2100));
    for (const [k, category] of CATEGORIES.entries()) {
      await attachAspect(bo, myCard(bo), CHARS[1].aspects[k], category, category === 'relationship' ? CHARS[0].name : null);
    }
    await sameSeq(players);
    await refusal.waitFor({ state: 'detached' });
    await advance(ada, 'outline');

    // An outline three precursors wide: wider than a phone, which says so under it.
    const finale = await sketchFinale(ada, 'Silence the drowned bell');
    const first = await sketchPrecursor(ada, finale, 'Steal the bell-keeper’s chart');
    await sketchPrecursor(ada, finale, 'Bribe the ferryman');
    await sketchPrecursor(ada, finale, 'Wake the old choir');
    const archive = await createObject(ada, 'The Sunken Archive', 'place');
    await attachAspect(ada, cardOf(ada, archive), 'Flooded stacks');
    await placeObject(ada, first, archive);
    await sameSeq(players);
    await reveal(bo, bo.page.getByTestId('outline'));
    const hint = bo.page.getByTestId('outline-scroll-hint');
    await hint.waitFor();
    assert.match(await hint.textContent(), /sideways/);
    assert.equal(await ada.page.getByTestId('outline-scroll-hint').isVisible(), false, 'a laptop shows the whole outline and no hint');
    await shot(bo, 'defects-outline-hint');

    // The first precursor succeeds (real dice, typed in): its parent shows a reward die, and
    // the label beside it stays clear of it on both screens.
    await advance(ada, 'story');
    await proposeAndAgree(ada, 'roll real dice', async () => (await reveal(ada, ada.page.getByTestId('dice-physical'))).click());
    await startScene(ada, first);
    await proposePair(ada, await aspectId(ada, 'Smuggler'), await aspectId(ada, 'Flooded stacks'), 'She knows the water');
    await makeCheck(ada);
    const input = panel(ada).getByTestId('faces-input');
    await input.fill('6 6 4');
    await accepted(ada, 'enter the faces', () => panel(ada).getByTestId('enter-faces').click());
    await sameSeq(players);
    await narrate(ada, 'The chart was where the water kept it.');
    await finishScene(ada, first);
    await sameSeq(players);
    for (const p of players) {
      await showTab(p, 'outline');
      const node = p.page.locator(tid('outline-node', { 'scene-id': finale }));
      const die = node.getByTestId('reward-die');
      await die.waitFor();
      const label = await node.locator('.node-level').boundingBox();
      const badge = await die.boundingBox();
      assert.ok(!overlap(label, badge), `${p.name}: the label (${JSON.stringify(label)}) runs under the reward die (${JSON.stringify(badge)})`);
      assert.match(await node.locator('.node-level').textContent(), /DIFF(ICULTY|\.) 4/);
      await node.scrollIntoViewIfNeeded();
      await shot(p, `defects-reward-${p.name}`);
    }
    for (const p of players) assert.deepEqual(consoleErrors(p).filter((e) => !/status of 400/.test(e)), [], `${p.name}'s console errors`);
  });
});
