// Real dice at the table: the players agree to roll physical dice; once the table agrees to a
// check, the page asks for the faces in the order rolled (the pool, then one more die for each
// six), counts the dice still expected as they are typed, shows the server's refusal of faces
// that do not fit, and then a result that says it was rolled with real dice. Bo plays on a
// phone (375 × 812); the screenshots are kept under e2e/artifacts/.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  withTable, gameToStory, startScene, proposePair, panel, sameSeq, accepted, aspectId, tid,
  consoleErrors, makeCheck, shownRoll, view, shot,
  logLine, reveal, othersAgree,
} from './table.mjs';

const PHONE = { width: 375, height: 812 };

test('a check rolled with real dice: the faces are typed in, in order', { timeout: 150_000 }, async () => {
  await withTable('dice', async (table) => {
    const { players, precursor } = await gameToStory(table, [{ name: 'Ada' }, { name: 'Bo', options: { viewport: PHONE } }]);
    const [ada, bo] = players;

    // The table setting: real dice, proposed by Ada; nothing changes until Bo agrees.
    await accepted(ada, 'propose real dice', () => ada.page.getByTestId('dice-physical').click());
    await bo.page.locator(tid('proposal', { motion: 'choose_dice' })).getByTestId('proposal-text').filter({ hasText: 'Ada proposes to roll real dice at the table.' }).waitFor();
    assert.equal((await view(ada)).physical_dice, false, 'real dice before Bo agreed');
    await othersAgree(ada, 'roll real dice');
    for (const p of players) {
      await reveal(p, p.page.locator(tid('dice-setting', { physical: 'true' })));
      await logLine(p, 'the table rolls real dice');
    }

    await startScene(ada, precursor);
    await proposePair(ada, await aspectId(ada, 'Smuggler'), await aspectId(ada, 'Flooded stacks'), 'She knows the water');
    await proposePair(bo, await aspectId(bo, 'Archivist'), await aspectId(bo, 'Unguarded at dawn'), 'He walks in with the scholars');
    await panel(bo).getByTestId('real-dice-note').waitFor();
    await makeCheck(ada);

    // The table agreed: nothing is rolled by the server; every page asks for two dice.
    for (const p of players) {
      await p.page.locator(tid('scene-panel', { rolling: 'true' })).waitFor();
      await panel(p).getByTestId('faces-instructions').filter({ hasText: 'Roll 2 dice' }).waitFor();
      await panel(p).getByTestId('faces-instructions').filter({ hasText: 'then one more die for each 6' }).waitFor();
      assert.equal(await panel(p).getByTestId('roll').count(), 0);
    }
    // The hint counts what is still expected as Bo types: a six asks for one more die.
    const input = panel(bo).getByTestId('faces-input');
    const hint = panel(bo).getByTestId('faces-hint');
    await input.fill('6');
    await hint.filter({ hasText: '1 typed; 2 more dice expected (3 so far, with 1 for sixes).' }).waitFor();
    await input.fill('6 2');
    await hint.filter({ hasText: '2 typed; 1 more die expected' }).waitFor();
    await input.fill('6 2 5 4');
    await hint.filter({ hasText: '1 too many: 3 dice expected.' }).waitFor();
    await input.scrollIntoViewIfNeeded();
    await shot(bo, 'phone-faces-too-many');
    // Sent anyway, the server refuses them and says why; nothing is rolled.
    await panel(bo).getByTestId('enter-faces').click();
    await panel(bo).getByTestId('refusal').filter({ hasText: 'Those faces are not a roll of this pool' }).waitFor();
    assert.equal((await view(bo)).scenes.find((s) => s.id === precursor).check, null);
    await input.fill('6 2 5');
    await hint.filter({ hasText: 'All 3 dice typed (1 for sixes): enter them.' }).waitFor();
    await shot(bo, 'phone-faces-ready');
    await accepted(bo, 'enter the faces', () => panel(bo).getByTestId('enter-faces').click());

    // The result: those faces, two hits against three, rolled with real dice, on every page.
    await sameSeq(players);
    for (const p of players) {
      const result = panel(p).locator(tid('check-result', { physical: 'true' }));
      await result.filter({ hasText: 'real dice' }).waitFor();
      const roll = await shownRoll(p, precursor);
      assert.deepEqual(roll.faces, [6, 2, 5]);
      assert.equal(roll.hits, 2);
      assert.equal(roll.outcome, 'failure');
      await panel(p).getByTestId('roll-source').waitFor();
      await logLine(p, '3 real dice rolled, 2 hits against 3: failure');
    }
    await (await reveal(bo, panel(bo).getByTestId('check-result'))).scrollIntoViewIfNeeded();
    await shot(bo, 'phone-real-dice-result');

    for (const p of players) assert.deepEqual(consoleErrors(p), [], `${p.name}'s console errors`);
  });
});
