// Edition 1.1's moderator: the table's choice (a proposal every player agrees to, whoever is
// named too), plays no character and does not vote;
// asks the players questions (from the page's list or their own), shown to the whole table and
// flaggable like any text; keeps time (hold, more time, let go) where nobody else can; and is
// not offered what the server refuses them: sketching, objects, aspects, pairs, checks.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  withTable, seatPlayers, rollProphecy, advance, makeCharacters, sketchFinale, sketchPrecursor,
  createObject, attachAspect, cardOf, placeObject, selectScene, startScene, proposePair, makeCheck,
  panel, sameSeq, accepted, aspectId, tid, consoleErrors, view, CHARS,
} from './table.mjs';

const bar = (p) => p.page.getByTestId('proposal');

test('the moderator asks questions and keeps time, and neither plays nor votes', { timeout: 150_000 }, async () => {
  await withTable('moderator', async (table) => {
    const { players } = await seatPlayers(table, [{ name: 'Ada', ruleset: '1.1' }, { name: 'Bo' }, { name: 'Cy' }]);
    const [ada, bo, cy] = players;
    const others = [ada, bo];

    // Ada proposes Cy as the moderator: nothing changes until Bo and Cy agree.
    await accepted(ada, 'propose Cy as the moderator', async () => {
      await ada.page.getByTestId('moderator-select').selectOption('3');
      await ada.page.getByTestId('choose-moderator').click();
    });
    await bar(cy).getByTestId('proposal-text').filter({ hasText: 'Ada proposes to make you the moderator (you would ask questions and keep time, and play no character).' }).waitFor();
    await bar(bo).getByTestId('proposal-text').filter({ hasText: 'Ada proposes to make Cy the moderator.' }).waitFor();
    await bar(ada).getByTestId('proposal-waiting').filter({ hasText: 'Waiting for Bo and Cy.' }).waitFor();
    for (const p of players) await p.page.getByTestId('moderator-proposed').waitFor();
    await accepted(bo, 'agree', () => bar(bo).getByTestId('proposal-agree').click());
    assert.equal(await cy.page.getByTestId('moderator-panel').count(), 0, 'Cy moderates before she agreed');
    await accepted(cy, 'agree', () => bar(cy).getByTestId('proposal-agree').click());
    cy.moderator = true;
    for (const p of players) await p.page.locator(tid('player', { 'player-id': 3 })).getByTestId('moderator-tag').waitFor();
    await cy.page.getByTestId('moderator-panel').waitFor();
    for (const p of others) assert.equal(await p.page.getByTestId('moderator-panel').count(), 0);

    // Proposals wait for the players only; the moderator's bar has no vote.
    await rollProphecy(ada);
    await accepted(ada, 'propose moving on', () => ada.page.getByTestId('advance').click());
    await bar(cy).filter({ hasText: 'the moderator does not vote' }).waitFor();
    await bar(ada).getByTestId('proposal-waiting').filter({ hasText: 'Waiting for Bo.' }).waitFor();
    assert.equal(await bar(cy).getByTestId('proposal-agree').count(), 0);
    await accepted(bo, 'agree', () => bar(bo).getByTestId('proposal-agree').click());
    for (const p of players) await p.page.locator(tid('phase', { phase: 'characters' })).waitFor();

    // A question from the list, for the whole table.
    const question = await cy.page.getByTestId('question-select').locator('option').nth(1).textContent();
    await accepted(cy, 'ask a question', async () => {
      await cy.page.getByTestId('question-select').selectOption({ index: 1 });
      await cy.page.getByTestId('ask-question').click();
    });
    for (const p of players) await p.page.getByTestId('question-shown').filter({ hasText: question }).waitFor();
    // Bo flags it: hidden everywhere, play paused; the moderator's next question replaces it.
    await accepted(bo, 'flag the question', () => bo.page.locator(tid('flag', { flag: 'question' })).click());
    for (const p of players) {
      await p.page.getByTestId('paused-banner').getByRole('button', { name: 'the moderator’s question' }).waitFor();
      await p.page.getByTestId('question').locator(tid('flagged', { flag: 'question' })).waitFor();
      assert.ok(!(await p.page.getByTestId('question').innerText()).includes(question), `${p.name} still shows the flagged question`);
    }
    await accepted(cy, 'ask her own question', async () => {
      await cy.page.getByTestId('question-text').fill('What is the river hiding from you?');
      await cy.page.getByTestId('ask-own-question').click();
    });
    for (const p of players) {
      await p.page.getByTestId('question-shown').filter({ hasText: 'What is the river hiding from you?' }).waitFor();
      await p.page.getByTestId('paused-banner').waitFor({ state: 'detached' });
    }

    // No character, no objects or aspects for the moderator.
    for (const id of ['create-character', 'create-object', 'attach-aspect']) assert.equal(await cy.page.getByTestId(id).count(), 0, `the moderator is offered ${id}`);
    await makeCharacters(others, CHARS);
    await sameSeq(players);
    assert.equal(await cy.page.getByTestId('attach-aspect').count(), 0);
    assert.equal(await cy.page.getByTestId('rename').count(), 0);
    await advance(ada, 'outline');
    assert.equal(await cy.page.getByTestId('sketch-finale').count(), 0);
    const finale = await sketchFinale(ada, 'Silence the drowned bell');
    const precursor = await sketchPrecursor(bo, finale, 'Steal the bell-keeper’s chart');
    const archive = await createObject(ada, 'The Sunken Archive', 'place');
    await attachAspect(ada, cardOf(ada, archive), 'Flooded stacks');
    await placeObject(ada, precursor, archive);
    const detail = await selectScene(cy, precursor);
    for (const id of ['sketch-scene', 'remove-scene', 'edit-objective', 'edit-setting', 'place-object', 'withdraw-object']) {
      assert.equal(await detail.getByTestId(id).count(), 0, `the moderator is offered ${id}`);
    }
    await advance(bo, 'story');

    // The scene: only the moderator keeps time.
    await startScene(ada, precursor);
    for (const p of players) await p.page.locator(tid('timer', { timed: 'scene', state: 'counting' })).waitFor();
    for (const p of others) assert.equal(await p.page.getByTestId('timer-hold').count(), 0, `${p.name} may hold the timer`);
    await accepted(cy, 'hold the timer', () => cy.page.getByTestId('timer-hold').click());
    for (const p of players) await p.page.locator(tid('timer', { state: 'stopped', held: 'true' })).getByTestId('timer-paused').filter({ hasText: 'held' }).waitFor();
    const held = (await view(cy)).timer.remaining_ms;
    await accepted(cy, 'two more minutes', () => cy.page.getByTestId('timer-extend').click());
    await cy.page.waitForFunction((ms) => window.prophecy.view().timer.remaining_ms === ms + 120000, held);
    await accepted(cy, 'let the timer go', () => cy.page.getByTestId('timer-release').click());
    for (const p of players) await p.page.locator(tid('timer', { state: 'counting', held: 'false' })).waitFor();

    // Pairs and the check are the players': the moderator watches.
    await proposePair(ada, await aspectId(ada, 'Smuggler'), await aspectId(ada, 'Flooded stacks'), 'She knows the water');
    await sameSeq(players);
    for (const id of ['propose-pair', 'make-check', 'accept-pair', 'object-pair', 'propose-withdraw-pair', 'scene-object-submit']) {
      assert.equal(await panel(cy).getByTestId(id).count(), 0, `the moderator is offered ${id}`);
    }
    await panel(cy).getByTestId('check-moderator').waitFor();
    await makeCheck(bo);
    for (const p of players) await panel(p).getByTestId('check-result').waitFor();
    assert.equal(await panel(cy).getByTestId('narration').count(), 0, 'the moderator does not narrate');

    for (const p of players) assert.deepEqual(consoleErrors(p), [], `${p.name}'s console errors`);
  });
});
