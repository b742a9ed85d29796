// Matching pairs are judged by the table: anyone but its proposer accepts a pair or objects to it.
// An objected pair does not count (the pool and the odds leave it out, and every page shows it
// struck through), and the check cannot be proposed until the objector accepts it; an objection
// stops a check proposal already open. A pair is withdrawn by its proposer, or by agreement.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  withTable, gameToStory, startScene, proposePair, panel, sameSeq, accepted, aspectId, tid,
  consoleErrors, othersAgree, makeCheck, exactOdds, percent, shownRoll, view, shot,
  logLine,
} from './table.mjs';

const PHONE = { width: 375, height: 812 };
const pairOf = (p, id) => panel(p).locator(tid('pair', { 'pair-id': id }));
const bar = (p) => p.page.getByTestId('proposal');

/** Every page shows `dice` dice in the pool and the exact odds of that many against 3. */
async function assertPool(players, dice) {
  const odds = exactOdds(dice, 3);
  for (const p of players) {
    await panel(p).getByTestId('scene-odds').filter({ hasText: `${dice} ${dice === 1 ? 'die' : 'dice'} against difficulty 3` }).waitFor();
    assert.equal(await panel(p).getByTestId('pool-die').count(), dice, `${p.name}'s pool`);
    const text = await panel(p).getByTestId('scene-odds').textContent();
    assert.ok(text.startsWith(`${percent(odds.p_success)} chance`) && text.includes(`(exactly ${odds.exact})`), `${p.name} shows "${text}"`);
  }
}

async function pairIds(p) {
  const v = await view(p);
  return v.scenes.find((s) => s.id === v.in_progress).pairs.map((x) => x.id);
}

test('an objected pair does not count, and the check waits until the objector accepts it', { timeout: 150_000 }, async () => {
  await withTable('pairs', async (table) => {
    const { players, precursor } = await gameToStory(table, [{ name: 'Ada' }, { name: 'Bo' }, { name: 'Cy', options: { viewport: PHONE } }]);
    const [ada, bo, cy] = players;
    await startScene(ada, precursor);
    await proposePair(ada, await aspectId(ada, 'Smuggler'), await aspectId(ada, 'Flooded stacks'), 'She knows the water');
    await proposePair(bo, await aspectId(bo, 'Archivist'), await aspectId(bo, 'Unguarded at dawn'), 'He walks in with the scholars');
    await sameSeq(players);
    const [ours, bos] = await pairIds(ada);
    await assertPool(players, 2);

    // Who may do what with a pair: its proposer withdraws it; the others accept, object, or
    // propose withdrawing it.
    assert.equal(await pairOf(ada, ours).getByTestId('withdraw-pair').count(), 1);
    assert.equal(await pairOf(ada, ours).getByTestId('accept-pair').count(), 0);
    assert.equal(await pairOf(ada, ours).getByTestId('object-pair').count(), 0);
    for (const p of [bo, cy]) {
      assert.equal(await pairOf(p, ours).getByTestId('withdraw-pair').count(), 0);
      for (const id of ['accept-pair', 'object-pair', 'propose-withdraw-pair']) assert.equal(await pairOf(p, ours).getByTestId(id).count(), 1, `${p.name}: ${id}`);
    }

    // Cy objects to Ada's pair: it no longer counts, on every page.
    await accepted(cy, 'object to a pair', () => pairOf(cy, ours).getByTestId('object-pair').click());
    for (const p of players) {
      await panel(p).locator(tid('pair', { 'pair-id': ours, counts: 'false' })).waitFor();
      await pairOf(p, ours).getByTestId('pair-state').filter({ hasText: p === cy ? 'Not counted: you object.' : 'Not counted: Cy objects.' }).waitFor();
      await panel(p).getByTestId('pool-left-out').filter({ hasText: '1 pair is under objection and not counted.' }).waitFor();
      await panel(p).getByTestId('check-blocked').waitFor();
    }
    await assertPool(players, 1);
    await pairOf(cy, ours).scrollIntoViewIfNeeded();
    await shot(cy, 'phone-pair-objected');

    // The check cannot be proposed while a pair is under objection: the server says why.
    await panel(ada).getByTestId('make-check').click();
    await panel(ada).getByTestId('refusal').filter({ hasText: 'Matching Aspects' }).waitFor();
    assert.equal((await view(ada)).proposal, null);
    // Bo's acceptance does not lift Cy's objection.
    await accepted(bo, 'accept a pair', () => pairOf(bo, ours).getByTestId('accept-pair').click());
    await pairOf(ada, ours).getByTestId('pair-state').filter({ hasText: 'Accepted by Bo.' }).waitFor();
    await assertPool(players, 1);
    await panel(bo).getByTestId('make-check').click();
    await panel(bo).getByTestId('refusal').filter({ hasText: 'under objection' }).waitFor();

    // Cy accepts it after all: it counts again, and the check can be proposed.
    await accepted(cy, 'accept the pair', () => pairOf(cy, ours).getByTestId('accept-pair').click());
    for (const p of players) {
      await panel(p).locator(tid('pair', { 'pair-id': ours, counts: 'true' })).waitFor();
      await panel(p).getByTestId('check-blocked').waitFor({ state: 'detached' });
    }
    await assertPool(players, 2);

    // An objection while the check is proposed stops the proposal.
    await accepted(ada, 'propose the check', () => panel(ada).getByTestId('make-check').click());
    for (const p of players) await bar(p).waitFor();
    await accepted(cy, 'object to Bo’s pair', () => pairOf(cy, bos).getByTestId('object-pair').click());
    for (const p of players) {
      await bar(p).waitFor({ state: 'detached' });
      await logLine(p, 'Cy said not yet');
      assert.equal(await panel(p).getByTestId('roll').count(), 0);
    }
    await assertPool(players, 1);

    // Instead of settling it, Cy proposes withdrawing Bo's pair; everyone agrees and it goes.
    await accepted(cy, 'propose withdrawing', () => pairOf(cy, bos).getByTestId('propose-withdraw-pair').click());
    await bar(ada).getByTestId('proposal-text').filter({ hasText: 'Cy proposes to withdraw the pair Ash: Archivist ⇄ The Sunken Archive: Unguarded at dawn.' }).waitFor();
    await othersAgree(cy, 'withdraw a pair');
    for (const p of players) await pairOf(p, bos).waitFor({ state: 'detached' });
    await assertPool(players, 1);

    // The check: proposed, agreed, rolled with the one pair that counts.
    await makeCheck(bo);
    for (const p of players) await panel(p).getByTestId('check-result').waitFor();
    const roll = await shownRoll(ada, precursor);
    assert.equal(roll.faces.length, 1 + roll.faces.filter((f) => f === 6).length);

    for (const p of players) assert.deepEqual(consoleErrors(p), [], `${p.name}'s console errors`);
  });
});
