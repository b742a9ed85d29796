// The safety tools stay anonymous and in the players' hands: a line is lifted only by whoever
// drew it (the others have no Lift button, and their pages never learn who drew it); a flagged
// character name can be replaced by any player, not only its owner; the X-card pauses play for
// everyone without saying who, and only the pauser resumes at once (the others propose it).
// Every message each page receives is read to prove that nothing tells one player which lines
// another drew, or who paused. Cy plays on a phone (375 × 812).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyPatch } from '../../crates/server/assets/common/net.js';
import {
  withTable, seatPlayers, rollProphecy, advance, createCharacter, cardOf, objectId, sameSeq,
  accepted, tid, consoleErrors, view, shot,
  logLine,
  reveal,
} from './table.mjs';

const PHONE = { width: 375, height: 812 };

async function addLine(p, text) {
  await accepted(p, `draw the line ${text}`, async () => {
    await (await reveal(p, p.page.getByTestId('line-text'))).fill(text);
    await p.page.getByTestId('add-line').click();
  });
}

const lineOf = (p, text) => p.page.getByTestId('line').filter({ hasText: text });
const own = (p) => p.page.evaluate(() => window.prophecy.own());

/** The messages a page received, parsed. */
const messages = (p) => p.frames.map((f) => JSON.parse(f));

/**
 * Every view the page held: each `sync` and whole `update`, and each patched `update` applied
 * to the view before it (with the page's own patch code), so a patch cannot slip past a check.
 */
function views(p) {
  const holder = { view: null };
  const out = [];
  for (const m of messages(p)) {
    if (m.type === 'sync' || (m.type === 'update' && m.view)) holder.view = structuredClone(m.view);
    else if (m.type === 'update' && m.patch) assert.ok(applyPatch(holder, m.patch), 'the patch applies');
    else continue;
    out.push(structuredClone(holder.view));
  }
  return out;
}

/** What the page was told was its own: every `own` message and each `sync`'s `own`. */
function owns(p) {
  return messages(p)
    .filter((m) => m.type === 'own' || m.type === 'sync')
    .map((m) => m.own)
    .filter(Boolean);
}

const ANONYMOUS = /A line was drawn|A line was lifted|A text was flagged|X-card|Play resumes/;

test('lines are lifted by their authors only; names are replaced by anyone; the X-card is anonymous', { timeout: 150_000 }, async () => {
  await withTable('safety', async (table) => {
    const { players } = await seatPlayers(table, [{ name: 'Ada' }, { name: 'Bo' }, { name: 'Cy', options: { viewport: PHONE } }]);
    const [ada, bo, cy] = players;
    await rollProphecy(ada);
    await advance(ada, 'characters');
    await createCharacter(ada, 'Wren');
    await createCharacter(bo, 'Ash');
    await createCharacter(cy, 'Moss');

    // Lines: Ada draws one, Bo another. Only the author's page offers to lift it.
    await addLine(ada, 'spiders');
    await addLine(bo, 'drowning');
    await sameSeq(players);
    const lines = (await view(cy)).lines;
    const spiders = lines.find((l) => l.text === 'spiders').id;
    const drowning = lines.find((l) => l.text === 'drowning').id;
    for (const l of lines) assert.deepEqual(Object.keys(l).sort(), ['id', 'text'], 'a line in the view carries no author');
    await reveal(ada, lineOf(ada, 'spiders').getByTestId('remove-line'));
    await reveal(bo, lineOf(bo, 'drowning').getByTestId('remove-line'));
    assert.equal(await lineOf(ada, 'drowning').getByTestId('remove-line').count(), 0, 'Ada can lift Bo’s line');
    assert.equal(await lineOf(bo, 'spiders').getByTestId('remove-line').count(), 0, 'Bo can lift Ada’s line');
    assert.equal(await cy.page.getByTestId('remove-line').count(), 0, 'Cy can lift a line she did not draw');
    assert.deepEqual((await own(ada)).lines, [spiders]);
    assert.deepEqual((await own(bo)).lines, [drowning]);
    assert.deepEqual((await own(cy)).lines, []);
    await accepted(ada, 'lift her line', () => lineOf(ada, 'spiders').getByTestId('remove-line').click());
    for (const p of players) {
      await lineOf(p, 'spiders').waitFor({ state: 'detached' });
      await reveal(p, lineOf(p, 'drowning'));
      await logLine(p, 'A line was lifted.');
    }

    // A flagged character name: Bo flags Wren's (Ada's character); Cy, who does not own it,
    // replaces it, and play resumes.
    const wren = await objectId(ada, 'Wren');
    const flag = `object_name:${wren}`;
    const flaggedAt = new Map(players.map((p) => [p, p.frames.length]));
    await accepted(bo, 'flag a name', () => cardOf(bo, wren).locator(tid('flag', { flag })).click());
    for (const p of players) {
      await p.page.getByTestId('paused-banner').waitFor();
      await reveal(p, cardOf(p, wren).locator(tid('replace', { flag })));
    }
    await cardOf(cy, wren).locator(tid('replace', { flag })).click();
    await accepted(cy, 'replace the name', async () => {
      await cardOf(cy, wren).getByTestId('rename-text').fill('Kestrel');
      await cardOf(cy, wren).getByTestId('save-rename').click();
    });
    for (const p of players) {
      await p.page.getByTestId('paused-banner').waitFor({ state: 'detached' });
      await reveal(p, cardOf(p, wren).getByTestId('object-name-text').filter({ hasText: 'Kestrel' }));
    }

    // The X-card: Cy pauses play. Every page says so, and nobody is told who.
    await accepted(cy, 'use the X-card', () => cy.page.getByTestId('x-card').click());
    for (const p of players) {
      await p.page.locator(tid('paused-banner', { 'x-card': 'true' })).getByTestId('x-card-paused').waitFor();
      const entry = await logLine(p, 'Someone used the X-card');
      assert.ok(!/Ada|Bo|Cy/.test(await entry.textContent()), 'the log names nobody');
      assert.equal(await p.page.getByTestId('x-card').count(), 0, 'no second X-card while paused');
    }
    // Only Cy resumes at once; the others may propose resuming.
    await cy.page.getByTestId('resume').waitFor();
    await shot(cy, 'phone-x-card');
    for (const p of [ada, bo]) {
      await p.page.getByTestId('propose-resume').waitFor();
      assert.equal(await p.page.getByTestId('resume').count(), 0);
      assert.equal((await own(p)).paused, false);
    }
    assert.equal((await own(cy)).paused, true);
    await accepted(cy, 'resume', () => cy.page.getByTestId('resume').click());
    for (const p of players) {
      await p.page.getByTestId('paused-banner').waitFor({ state: 'detached' });
      await logLine(p, 'Play resumes.');
    }
    await sameSeq(players);

    // What each page was sent: its own lines and pause only; the anonymous log lines say no one.
    const spidersOwners = players.filter((p) => owns(p).some((o) => o.lines.includes(spiders)));
    const drowningOwners = players.filter((p) => owns(p).some((o) => o.lines.includes(drowning)));
    assert.deepEqual(spidersOwners.map((p) => p.name), ['Ada'], 'only Ada was told the line "spiders" is hers');
    assert.deepEqual(drowningOwners.map((p) => p.name), ['Bo'], 'only Bo was told the line "drowning" is his');
    assert.deepEqual(players.filter((p) => owns(p).some((o) => o.paused)).map((p) => p.name), ['Cy'], 'only Cy was told the pause is hers');
    for (const p of players) {
      const ms = messages(p);
      assert.ok(ms.some((m) => m.type === 'own'), `${p.name} was sent no own message`);
      const entries = ms.filter((m) => m.type === 'update' || m.type === 'sync').flatMap((m) => m.log || []);
      const anonymous = entries.filter((e) => ANONYMOUS.test(e.text));
      assert.ok(anonymous.length >= 6, `${p.name}: ${anonymous.length} safety log entries`);
      for (const e of anonymous) assert.equal(e.by, null, `${p.name} was told who did "${e.text}"`);
      const held = views(p);
      assert.ok(held.length > 10 && ms.some((m) => m.patch), 'updates came as patches');
      for (const view of held) {
        for (const l of view.lines) assert.deepEqual(Object.keys(l).sort(), ['id', 'text']);
        assert.equal(typeof view.x_card, 'boolean', 'the pause is a yes or no, not a who');
      }
      // The last view the page built from patches is the one it shows.
      assert.deepEqual(held.at(-1).lines, await p.page.evaluate(() => window.prophecy.view().lines));
      // Between the flag and the end, no message carried the flagged name.
      const after = p.frames.slice(flaggedAt.get(p));
      assert.ok(after.length > 0);
      assert.ok(!after.some((f) => f.includes('Wren')), `${p.name} was sent the flagged name`);
    }

    for (const p of players) assert.deepEqual(consoleErrors(p), [], `${p.name}'s console errors`);
  });
});
