// The Challenge rules through their page: a game master (laptop) and two players (one laptop, one
// phone) make character sheets; the GM calls three challenges — one where the player spends an
// Aptitude point (the odds shown change when the box is ticked, and the point is gone from the
// sheet afterwards), one in a difficult situation, one where a Specialty applies — then a rest
// (the point comes back) and a fight. One page reloads in the middle; at the end every page shows
// the same log, and the Markdown export lists the challenges. Every step is a click on a
// `data-testid` hook; the debug hook (`window.prophecy`) is read only to wait and find ids.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WAIT, ARTIFACTS, tid, shot, view, logOf, sameSeq, accepted, contiguous, consoleErrors, withTable, reveal, showTab, glance, comesIntoView, inViewport } from './table.mjs';
import { createChallengeTable, makeSheet, callChallenge, roll } from './challenge-steps.mjs';

const PHONE = { width: 375, height: 812 };
const LAPTOP = { width: 1280, height: 800 };

async function join(p, link, name) {
  await p.page.goto(link);
  await p.page.getByTestId('join-name').fill(name);
  await p.page.getByTestId('join-submit').click();
  await p.page.getByTestId('gm-name').waitFor();
  await p.page.waitForFunction(() => window.prophecy.connected());
}

/** The band odds a page shows for an open challenge: [{from, to, p, without, with}]. */
function odds(p, id) {
  return p.page.locator(`${tid('open-challenge', { 'challenge-id': id })} ${tid('band-odds')}`).evaluateAll((rows) =>
    rows.map((r) => ({ from: Number(r.dataset.from), to: Number(r.dataset.to), p: r.dataset.p, without: r.dataset.pWithout, with: r.dataset.pWith })),
  );
}

/** Adds fractions "n/d" exactly. */
function sum(ps) {
  let n = 0n;
  let d = 1n;
  for (const p of ps) {
    const [a, b = '1'] = p.split('/');
    n = n * BigInt(b) + BigInt(a) * d;
    d *= BigInt(b);
  }
  return n === d;
}

/** What the sheet card shows for one Aptitude: [current, maximum]. */
async function points(p, character, aptitude) {
  const el = p.page.locator(`${tid('sheet-card', { 'character-id': character })} ${tid('aptitude', { aptitude })}`);
  return [Number(await el.getAttribute('data-current')), Number(await el.getAttribute('data-maximum'))];
}

async function waitPoints(p, character, aptitude, current) {
  await p.page.waitForFunction(
    ([c, a, n]) => document.querySelector(`[data-testid="sheet-card"][data-character-id="${c}"] [data-testid="aptitude"][data-aptitude="${a}"]`)?.getAttribute('data-current') === String(n),
    [character, aptitude, current],
  );
}

test('a GM and two players make sheets, roll three challenges, rest and fight; every page agrees', { timeout: 4 * 60_000 }, async () => {
  await withTable('challenge', async (table) => {
    const gm = await table.open('Gina', { viewport: LAPTOP });
    const link = await createChallengeTable(gm, table.server, 'Gina');
    assert.equal(await gm.page.getByTestId('gm-name').textContent(), 'You are the game master');
    await gm.page.getByTestId('gm-panel').waitFor();
    const ada = await table.open('Ada', { viewport: LAPTOP });
    await join(ada, link, 'Ada');
    const bo = await table.open('Bo', { viewport: PHONE });
    await join(bo, link, 'Bo');
    const all = [gm, ada, bo];
    await sameSeq(all);
    // Players see who the GM is, and no GM panel.
    assert.equal(await bo.page.getByTestId('gm-name').textContent(), 'Game master: Gina');
    assert.equal(await bo.page.getByTestId('gm-panel').count(), 0);
    assert.equal(await ada.page.locator(tid('player', { gm: 'true' })).count(), 1);

    // The sheets.
    const mira = await makeSheet(ada, {
      name: 'Mira',
      concept: 'A smith’s daughter who lifts gates',
      aptitudes: { knowledge: 1, awareness: 1, charisma: 1, physicality: 2 },
      skills: ['might'],
      specialties: [['manipulate', 'locks']],
    });
    const tam = await makeSheet(bo, {
      name: 'Tam',
      concept: 'A shy herald',
      aptitudes: { knowledge: 2, awareness: 2, charisma: 1, physicality: 1 },
      skills: ['persuade', 'people'],
      specialties: [['animals', 'on horses']],
    });
    assert.deepEqual(mira.sheet.specialties, [{ skill: 'manipulate', name: 'locks' }]);
    await sameSeq(all);
    assert.equal(await gm.page.getByTestId('sheet-card').count(), 2);
    assert.deepEqual(await points(gm, mira.id, 'physicality'), [2, 2]);
    // Only the owner and the GM may edit a sheet.
    assert.equal(await bo.page.locator(`${tid('sheet-card', { 'character-id': mira.id })} ${tid('edit-sheet')}`).count(), 0);
    assert.equal(await gm.page.locator(`${tid('sheet-card', { 'character-id': mira.id })} ${tid('edit-sheet')}`).count(), 1);
    // The phone fits its screen.
    assert.ok((await bo.page.evaluate(() => document.documentElement.scrollWidth)) <= PHONE.width);

    // 1. Mira forces the gate (average, Physicality, Might): she spends a point of Physicality.
    // Ada reads the sheets at the foot of her page: the challenge called on Mira comes into view.
    await ada.page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const c1 = await callChallenge(gm, { character: mira.id, description: 'Force the gate before the guards come', situation: 'average', aptitude: 'physicality', skills: ['might'] });
    assert.ok(await comesIntoView(ada, ada.page.locator(`#challenge-${c1} .challenge-title`)), 'the challenge called on Mira is out of view');
    // The form has moved on to Tam; a second challenge for Mira is refused, right by the GM's
    // button, naming the open one.
    assert.equal(await gm.page.getByTestId('challenge-character').inputValue(), String(tam.id));
    await gm.page.getByTestId('challenge-character').selectOption(String(mira.id));
    await gm.page.getByTestId('challenge-description').fill('Hold the gate too');
    await gm.page.getByTestId('call-challenge').click();
    const refusal = gm.page.locator(`${tid('refusal')}[data-for="call"]`);
    await refusal.waitFor();
    assert.match(await refusal.textContent(), /“Force the gate before the guards come”/);
    await gm.page.getByTestId('challenge-description').fill('');

    const panel = ada.page.locator(tid('open-challenge', { 'challenge-id': c1, mine: 'true' }));
    await panel.waitFor();
    await bo.page.locator(`${tid('open-challenge', { 'challenge-id': c1, mine: 'false' })} ${tid('waiting-roll')}`).waitFor();
    const before = await odds(ada, c1);
    // One step (Might): one d6. The seed's table: each of 1, 2 is 1 in 6; 3–4 and 5–6 are 1 in 3.
    assert.deepEqual(before.map((b) => b.p), ['1/6', '1/6', '1/3', '1/3', '0/1']);
    assert.ok(sum(before.map((b) => b.p)));
    await panel.getByTestId('spend-point').check();
    await ada.page.waitForFunction((id) => {
      const rows = document.querySelectorAll(`[data-testid="open-challenge"][data-challenge-id="${id}"] [data-testid="band-odds"]`);
      return rows.length && Array.from(rows).every((r) => r.dataset.p === r.dataset.pWith);
    }, c1);
    const after = await odds(ada, c1);
    // Two steps: roll two, keep the higher: failure 1 in 9 (1/36 + 3/36), partial 1 in 3, success 5 in 9.
    assert.deepEqual(after.map((b) => b.p), ['1/36', '1/12', '1/3', '5/9', '0/1']);
    assert.notDeepEqual(after.map((b) => b.p), before.map((b) => b.p));
    assert.deepEqual(after.map((b) => b.without), before.map((b) => b.p), 'both columns stay side by side');
    assert.match(await panel.getByTestId('roll-challenge').textContent(), /2d6, keep the highest/);
    await shot(ada, 'challenge-laptop-odds', { fullPage: true });
    await panel.screenshot({ path: `${ARTIFACTS}/challenge-odds-panel.png` });
    // The GM's refusal is cleared by the next success… of the GM's own page.
    // Ada's laptop reloads: the ticked point is still ticked, the odds still those with it.
    await ada.page.reload();
    await panel.waitFor();
    await ada.page.waitForFunction(() => window.prophecy.connected());
    assert.equal(await panel.getByTestId('spend-point').isChecked(), true, 'the point is still ticked');
    assert.deepEqual((await odds(ada, c1)).map((b) => b.p), after.map((b) => b.p));
    const r1 = await roll(ada, c1);
    assert.ok(await comesIntoView(ada, ada.page.locator(`#challenge-${c1} [data-testid="challenge-result"]`)), 'the result is out of view');
    assert.equal(r1.dice.length, 2);
    assert.equal(r1.dice.filter(([, kept]) => kept).length, 1);
    assert.equal(Math.max(...r1.dice.map(([f]) => f)), r1.result);
    assert.ok(r1.dice.every(([f]) => f >= 1 && f <= 6));
    await sameSeq(all);
    for (const p of all) await waitPoints(p, mira.id, 'physicality', 1);
    assert.deepEqual(await points(bo, mira.id, 'physicality'), [1, 2]);
    // Mira's player writes down what happened; everyone reads it.
    const rolled1 = ada.page.locator(tid('challenge', { 'challenge-id': c1, status: 'rolled' }));
    await rolled1.getByTestId('narration-input').fill('Mira shoulders the gate open as the bell rings.');
    await accepted(ada, 'narrate', () => rolled1.getByTestId('narrate').click());
    await sameSeq(all);
    for (const p of all) {
      await p.page.locator(`${tid('challenge', { 'challenge-id': c1, status: 'rolled' })} ${tid('narration-text')}`).filter({ hasText: 'shoulders the gate open' }).waitFor();
    }
    assert.equal(await bo.page.locator(`${tid('challenge', { 'challenge-id': c1 })} ${tid('narration-input')}`).count(), 0, 'only her player and the GM write it');

    // 2. Tam pleads with the bandits' leader: a difficult situation (d4), Charisma, Persuade.
    const c2 = await callChallenge(gm, { character: tam.id, description: 'Talk the bandits’ leader down', situation: 'difficult', aptitude: 'charisma', skills: ['persuade'] });
    assert.equal(await gm.page.locator(`${tid('refusal')}[data-for="call"]`).count(), 0, 'a success clears the refusal');
    const bpanel = bo.page.locator(tid('open-challenge', { 'challenge-id': c2, mine: 'true' }));
    await bpanel.waitFor();
    const hard = await odds(bo, c2);
    // One d4: at best a partial success.
    assert.deepEqual(hard.map((b) => b.p), ['1/4', '1/4', '1/2', '0/1', '0/1']);
    await bpanel.scrollIntoViewIfNeeded();
    await shot(bo, 'challenge-phone-odds');
    const r2 = await roll(bo, c2);
    assert.equal(r2.dice.length, 1);
    assert.ok(r2.result >= 1 && r2.result <= 4);
    assert.ok(['failure_with_consequence', 'failure', 'partial_success'].includes(r2.band));
    await sameSeq(all);
    assert.deepEqual(await points(gm, tam.id, 'charisma'), [1, 1], 'no point spent');

    // 3. Tam soothes a frightened horse: favourable (d8), Awareness, Animals: the Specialty applies.
    // Bo's phone is at the foot of its Challenges view: the call comes into view.
    await showTab(bo, 'challenges');
    await bo.page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const c3 = await callChallenge(gm, { character: tam.id, description: 'Soothe the frightened horse', situation: 'favourable', aptitude: 'awareness', skills: ['animals'] });
    const hpanel = bo.page.locator(tid('open-challenge', { 'challenge-id': c3, mine: 'true' }));
    await hpanel.waitFor();
    assert.ok(await comesIntoView(bo, bo.page.locator(`#challenge-${c3} .challenge-title`)), 'the challenge called on Tam is out of view');
    // No step: roll two d8, keep the lower: 7 in 16 failure, 5 in 16 partial, 3 in 16 success, 1 in 16 great.
    const none = await odds(bo, c3);
    assert.deepEqual(none.map((b) => b.p), ['15/64', '13/64', '5/16', '3/16', '1/16']);
    await hpanel.getByTestId('choice-specialty').selectOption('0');
    await bo.page.waitForFunction((id) => document.querySelector(`[data-testid="open-challenge"][data-challenge-id="${id}"] [data-testid="band-odds"][data-from="7"]`)?.dataset.p === '1/4', c3);

    // Bo's phone reloads in the middle: the challenge is still there, and so is his choice.
    await bo.page.reload();
    await hpanel.waitFor();
    await bo.page.waitForFunction(() => window.prophecy.connected());
    assert.equal(await hpanel.getByTestId('choice-specialty').inputValue(), '0', 'the Specialty is still chosen');
    const spec = await odds(bo, c3);
    assert.deepEqual(spec.map((b) => b.p), ['1/8', '1/8', '1/4', '1/4', '1/4']);
    const r3 = await roll(bo, c3);
    assert.equal(r3.dice.length, 1);
    assert.ok(r3.result >= 1 && r3.result <= 8);
    await shot(bo, 'challenge-phone-result', { fullPage: true });

    // A rest: the point of Physicality comes back.
    await sameSeq(all);
    await accepted(gm, 'rest', () => gm.page.getByTestId('rest').click());
    for (const p of all) await waitPoints(p, mira.id, 'physicality', 2);

    // A fight, won; Bo suggested the cost.
    const boId = (await view(bo)).you;
    await gm.page.getByTestId('open-fight').click();
    await gm.page.getByTestId('fight-description').fill('Bandits ambush us on the road');
    await gm.page.getByTestId('fight-cost').fill('Tam’s horse runs off with the letters');
    await gm.page.getByTestId('fight-suggested').selectOption(String(boId));
    await accepted(gm, 'record the fight', () => gm.page.getByTestId('record-fight').click());
    for (const p of all) await glance(p, p.page.getByTestId('fight'));
    assert.match(await ada.page.getByTestId('fight').textContent(), /horse runs off.*suggested by Bo/);

    // Every page agrees on the log, which has every entry once and in order.
    await sameSeq(all);
    const logs = await Promise.all(all.map(logOf));
    assert.ok(contiguous(logs[0]), 'the log has every entry once, in order');
    assert.ok(logs[0].length >= 12, `the log is full (${logs[0].length})`);
    assert.deepEqual(logs[1], logs[0]);
    assert.deepEqual(logs[2], logs[0]);
    assert.ok(logs[0].some(([, t]) => /Mira rolls 2d6, keep the highest with a point of Physicality/.test(t)));
    assert.ok(logs[0].some(([, t]) => /Tam rolls one d8 with the Specialty on horses/.test(t)));
    // Every page shows the three results the same way.
    const results = (p) => p.page.getByTestId('challenge-result').evaluateAll((els) => els.map((e) => [e.dataset.result, e.dataset.band]));
    const shown = await Promise.all(all.map(results));
    assert.equal(shown[0].length, 3);
    assert.deepEqual(shown[1], shown[0]);
    assert.deepEqual(shown[2], shown[0]);

    // The Markdown export lists the challenges.
    const token = new URL(gm.page.url()).pathname.split('/')[2];
    const md = await (await gm.context.request.get(`${table.server.url}/t/${token}/export.md`)).text();
    assert.match(md, /## Challenges/);
    for (const d of ['Force the gate before the guards come', 'Talk the bandits’ leader down', 'Soothe the frightened horse']) assert.ok(md.includes(d), `the export lists “${d}”`);
    assert.match(md, /## Fights/);
    assert.ok(md.includes('Mira shoulders the gate open as the bell rings.'), 'the export keeps the narration');

    await shot(gm, 'challenge-gm-laptop', { fullPage: true });
    await showTab(bo, 'challenges');
    await shot(bo, 'challenge-phone', { fullPage: true });
    assert.ok((await bo.page.evaluate(() => document.documentElement.scrollWidth)) <= PHONE.width);
    assert.deepEqual(consoleErrors(gm), []);
    assert.deepEqual(consoleErrors(ada), []);
    assert.deepEqual(consoleErrors(bo, { network: true }), []);
  });
});

for (const [size, viewport] of [['phone', PHONE], ['laptop', LAPTOP]]) {
  test(`a GM's next call is for the next character without an open challenge (${size})`, { timeout: 2 * 60_000 }, async () => {
    await withTable(`challenge-next-${size}`, async (table) => {
      const gm = await table.open('Gina', { viewport });
      await createChallengeTable(gm, table.server, 'Gina');
      const sheet = { concept: 'A traveller', aptitudes: { knowledge: 1, awareness: 1, charisma: 1, physicality: 2 }, skills: ['might'] };
      const made = [];
      for (const name of ['Ash', 'Bea', 'Cyd']) made.push(await makeSheet(gm, { ...sheet, name }));
      const panel = gm.page.getByTestId('gm-panel');
      await reveal(gm, panel.getByTestId('challenge-character'));
      const character = panel.getByTestId('challenge-character');
      const option = (c) => character.locator(`option[value="${c.id}"]`);
      // Called for Bea: the form moves on to Cyd, then round to Ash; Bea is marked.
      await callChallenge(gm, { character: made[1].id, description: 'Cross the ice', situation: 'average', aptitude: 'physicality', skills: [] });
      assert.equal(await character.inputValue(), String(made[2].id), 'the form is for Cyd');
      assert.match(await option(made[1]).textContent(), /Bea .*: a challenge is open$/);
      assert.doesNotMatch(await option(made[2]).textContent(), /open/);
      await callChallenge(gm, { character: made[2].id, description: 'Light the beacon', situation: 'average', aptitude: 'physicality', skills: [] });
      assert.equal(await character.inputValue(), String(made[0].id), 'the form is for Ash');
      // Bea again: refused beside the button, in view, naming her open challenge, not an id.
      await character.selectOption(String(made[1].id));
      await panel.getByTestId('challenge-description').fill('Cross it again');
      await panel.getByTestId('call-challenge').click();
      const refusal = gm.page.locator(`${tid('refusal')}[data-for="call"]`);
      await refusal.waitFor();
      assert.match(await refusal.textContent(), /This character already has an open Challenge, “Cross the ice”: it is rolled, or the GM cancels it, first\./);
      assert.doesNotMatch(await refusal.textContent(), /challenge \d/);
      assert.ok(await inViewport(refusal), 'the refusal is in view');
      await shot(gm, `challenge-next-refused-${size}`);
      assert.deepEqual(consoleErrors(gm), []);

      // A new player lands on Challenges with a pointer to make a character first, in view.
      const bo = await table.open('Bo', { viewport });
      await join(bo, await gm.page.getByTestId('invite-link').inputValue(), 'Bo');
      const first = bo.page.getByTestId('make-character-first');
      await first.waitFor();
      assert.ok(await inViewport(first), 'the pointer is in view');
      assert.equal(await gm.page.getByTestId('make-character-first').count(), 0, 'not for the GM');
      await first.getByTestId('start-sheet').click();
      const name = bo.page.getByTestId('sheet-name');
      await bo.page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'sheet-name');
      assert.ok(await inViewport(name), 'the sheet form is in view, its name focused');
      await shot(bo, `challenge-first-sheet-${size}`);
      await name.fill('Dov');
      const form = bo.page.getByTestId('sheet-form');
      await form.getByTestId('sheet-concept').fill('A smith');
      for (const [a, n] of Object.entries(sheet.aptitudes)) await form.locator(tid('aptitude-input', { aptitude: a })).fill(String(n));
      await accepted(bo, 'make Dov', () => form.getByTestId('save-sheet').click());
      await showTab(bo, 'challenges');
      assert.equal(await bo.page.getByTestId('make-character-first').count(), 0, 'gone once Bo has a character');

      // Bo is typing (a second sheet's name) when the GM calls a challenge on Dov: his page
      // does not move, and his field keeps the focus and what he typed.
      const dov = (await view(bo)).characters.find((c) => c.sheet.name === 'Dov');
      await (await reveal(bo, bo.page.getByTestId('create-sheet'))).click();
      const typed = bo.page.getByTestId('sheet-name');
      await typed.focus();
      await bo.page.keyboard.type('Ro');
      // Where the field is on the screen: the challenge drawn above it may change the scroll
      // (the browser keeps what is in sight in place), never what the player sees.
      const where = () => typed.evaluate((el) => Math.round(el.getBoundingClientRect().top));
      const before = await where();
      await callChallenge(gm, { character: dov.id, description: 'Shoe the horse', situation: 'average', aptitude: 'physicality', skills: [] });
      await bo.page.locator(tid('open-challenge', { 'character-id': dov.id })).waitFor({ state: 'attached' });
      await bo.page.waitForTimeout(400);
      assert.equal(await where(), before, 'the page did not move while Bo typed');
      assert.equal(await bo.page.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'sheet-name');
      assert.equal(await typed.inputValue(), 'Ro');
    });
  });
}

test('the GM hands the seat to a player, who then sees the GM’s panel', { timeout: 2 * 60_000 }, async () => {
  await withTable('challenge-hand', async (table) => {
    const gm = await table.open('Gina', { viewport: LAPTOP });
    const link = await createChallengeTable(gm, table.server, 'Gina');
    const bo = await table.open('Bo', { viewport: PHONE });
    await join(bo, link, 'Bo');
    await sameSeq([gm, bo]);
    const boId = (await view(bo)).you;
    // Only the game master is offered to publish the story, and the offer goes with the seat.
    await gm.page.getByTestId('publish-story').waitFor({ state: 'attached' });
    assert.equal(await bo.page.getByTestId('publish-story').count(), 0, 'Bo is offered to publish');
    await gm.page.locator(tid('hand-gm', { 'player-id': boId })).click();
    await accepted(gm, 'hand the GM seat', () => gm.page.getByTestId('confirm-hand-gm').click());
    await bo.page.getByTestId('gm-panel').waitFor();
    assert.equal(await bo.page.getByTestId('gm-name').textContent(), 'You are the game master');
    await gm.page.getByTestId('gm-panel').waitFor({ state: 'detached' });
    assert.equal(await gm.page.getByTestId('gm-name').textContent(), 'Game master: Bo');
    await bo.page.getByTestId('publish-story').waitFor({ state: 'attached' });
    assert.equal(await gm.page.getByTestId('publish-story').count(), 0, 'Gina is still offered to publish');
    // Calling a challenge without a character: the page says why, nothing is sent.
    await bo.page.getByTestId('challenge-description').fill('Anything');
    await bo.page.getByTestId('call-challenge').click();
    await bo.page.locator(`${tid('request-error')}[data-for="call"]`).waitFor({ timeout: WAIT });
    // Gina makes a sheet, edits it (a Skill more), and retires it.
    const lin = await makeSheet(gm, { name: 'Lin', concept: 'A guide', aptitudes: { knowledge: 3, awareness: 0, charisma: 0, physicality: 0 }, skills: ['nature'] });
    await gm.page.locator(`${tid('sheet-card', { 'character-id': lin.id })} ${tid('edit-sheet')}`).click();
    const form = gm.page.getByTestId('sheet-form');
    assert.equal(await form.getByTestId('sheet-name').inputValue(), 'Lin');
    assert.equal(await form.locator(tid('aptitude-input', { aptitude: 'knowledge' })).inputValue(), '3');
    await form.locator(tid('skill-check', { skill: 'surroundings' })).check();
    await accepted(gm, 'edit Lin', () => form.getByTestId('save-sheet').click());
    await bo.page.waitForFunction((id) => /Surroundings/.test(document.querySelector(`[data-testid="sheet-card"][data-character-id="${id}"]`)?.textContent ?? ''), lin.id);
    // Too many points are refused by the rules, beside the form's button.
    await gm.page.locator(`${tid('sheet-card', { 'character-id': lin.id })} ${tid('edit-sheet')}`).click();
    await form.locator(tid('aptitude-input', { aptitude: 'knowledge' })).fill('20');
    await form.locator(tid('aptitude-input', { aptitude: 'awareness' })).fill('21');
    await form.getByTestId('save-sheet').click();
    await gm.page.locator(`${tid('request-error')}[data-for="sheet"], ${tid('refusal')}[data-for="sheet"]`).waitFor();
    await gm.page.getByTestId('cancel-sheet').click();
    await gm.page.locator(`${tid('sheet-card', { 'character-id': lin.id })} ${tid('retire-sheet')}`).click();
    await accepted(gm, 'retire Lin', () => gm.page.getByTestId('confirm-retire').click());
    await bo.page.locator(tid('sheet-card', { 'character-id': lin.id, retired: 'true' })).waitFor({ state: 'attached' });
    assert.deepEqual(consoleErrors(gm), []);
    assert.deepEqual(consoleErrors(bo), []);
  });
});
