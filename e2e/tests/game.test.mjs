// A whole short game, prophecy to the end, with three players in separate browser contexts:
// Ada on a laptop, Bo on a laptop with animations on, Cy on a phone (375 × 800).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  withTable, seatPlayers, rollProphecy, advance, makeCharacters, sketchFinale, sketchPrecursor,
  createObject, attachAspect, cardOf, setSetting, placeObject, startScene, proposePair, narrate,
  finishScene, panel, shownRoll, exactOdds, percent, sameSeq, logOf, contiguous, aspectId,
  objectId, myCard, tid, consoleErrors, accepted, makeCheck, endGame, CHARS, WAIT, shot, showTab,
  logLine, reveal, comesIntoView,
} from './table.mjs';

const PHONE = { width: 375, height: 800 };

/** Records whether the page ever shows a rolling die or the Skip button (the animation). */
function watchRolls(players) {
  return Promise.all(
    players.map((p) =>
      p.page.evaluate(() => {
        window.__sawRolling = false;
        if (window.__rollWatch) window.__rollWatch.disconnect();
        window.__rollWatch = new MutationObserver(() => {
          if (document.querySelector('[data-testid="skip-animation"], [data-testid="die"][data-state="rolling"]')) window.__sawRolling = true;
        });
        window.__rollWatch.observe(document.body, { subtree: true, childList: true, attributes: true });
      }),
    ),
  );
}
const sawRolling = (p) => p.page.evaluate(() => window.__sawRolling);

/** Every page shows the same odds line, with the exact chance `prophecy odds` computes. */
async function assertOdds(players, dice, difficulty) {
  const odds = exactOdds(dice, difficulty);
  for (const p of players) {
    const line = panel(p).getByTestId('scene-odds');
    await line.filter({ hasText: `${dice} ${dice === 1 ? 'die' : 'dice'} against difficulty ${difficulty}` }).waitFor();
    const text = await line.textContent();
    assert.ok(text.includes(`(exactly ${odds.exact})`), `${p.name} shows "${text}", expected exactly ${odds.exact}`);
    assert.ok(text.startsWith(`${percent(odds.p_success)} chance of success`), `${p.name} shows "${text}"`);
    // One more matching pair, exactly as `prophecy odds` says; the chart marks this pool.
    const next = exactOdds(dice + 1, difficulty);
    const nextText = await panel(p).getByTestId('odds-next').textContent();
    assert.equal(nextText, `One more matching pair: ${percent(next.p_success)} (exactly ${next.exact})`);
    const chart = panel(p).getByTestId('chance-chart');
    assert.equal(await chart.locator('rect.bar.current').getAttribute('data-dice'), String(dice));
    const bars = await chart.locator('rect.bar').count();
    assert.ok(bars >= Math.max(11, dice + 4), `${bars} bars charted`);
  }
}

/** The check's dice as every page shows them: the same faces, hits and outcome. */
async function assertSameRoll(players, scene, pool, difficulty) {
  const rolls = await Promise.all(players.map((p) => shownRoll(p, scene)));
  const [r] = rolls;
  for (const [i, other] of rolls.entries()) assert.deepEqual(other, r, `${players[i].name} shows another roll`);
  const sixes = r.faces.filter((f) => f === 6).length;
  assert.equal(r.faces.length, pool + sixes, `the pool of ${pool} dice and one more die per six: ${r.faces}`);
  assert.ok(r.faces.every((f) => f >= 1 && f <= 6));
  assert.equal(r.hits, r.faces.filter((f) => f >= 4).length);
  assert.equal(r.outcome, r.hits >= difficulty ? 'success' : 'failure');
  assert.match(r.text, new RegExp(`^${r.hits} hits? against difficulty ${difficulty}.*${r.outcome === 'success' ? 'Success' : 'Failure'}$`));
  for (const p of players) {
    await logLine(p, `${r.faces.length} ${r.faces.length === 1 ? 'die' : 'dice'} rolled, ${r.hits} ${r.hits === 1 ? 'hit' : 'hits'} against ${difficulty}: ${r.outcome}`);
  }
  return r;
}

test('three players play a short game from the prophecy to the end', { timeout: 180_000 }, async (t) => {
  await withTable('game', async (table) => {
    // The creator makes the table on the home page; the others join by the invite link.
    const { players } = await seatPlayers(table, [
      { name: 'Ada' },
      { name: 'Bo', options: { reducedMotion: 'no-preference' } },
      { name: 'Cy', options: { viewport: PHONE } },
    ]);
    const [ada, bo, cy] = players;
    for (const p of players) {
      await p.page.waitForFunction(() => document.querySelectorAll('[data-testid="player"][data-online="true"]').length === 3);
      assert.deepEqual(await p.page.locator(`${tid('player')} .player-name`).allTextContents(), ['Ada', 'Bo', 'Cy']);
      assert.equal(await p.page.getByTestId('join-form').count(), 0);
    }

    // A line, drawn before play: it goes in the players' own export, never on a published page.
    await accepted(ada, 'draw a line', async () => {
      await ada.page.getByTestId('line-text').fill('Drowned children');
      await ada.page.getByTestId('add-line').click();
    });

    // Receive the prophecy: everyone sees the same d66 and the same catastrophe.
    const worlds = await ada.page.getByTestId('world-select').locator('option').evaluateAll((os) => os.map((o) => o.value));
    // A 1.0 table offers only Prophecy's worlds and modules, not Temporal Mechanics', on both sizes.
    const content = await ada.page.evaluate(() => fetch('/games/story/content.json').then((r) => r.json()));
    const own = (/** @type {Array<{slug: string, temporal: boolean}>} */ list) => list.filter((x) => !x.temporal).map((x) => x.slug);
    assert.ok(content.worlds.some((w) => w.temporal), 'the library has Temporal worlds to leave out');
    for (const p of [ada, cy]) {
      const options = async (id) => (await reveal(p, p.page.getByTestId(id))).locator('option').evaluateAll((os) => os.map((o) => o.value));
      assert.deepEqual(await options('world-select'), own(content.worlds), `${p.name}'s worlds`);
      assert.deepEqual(await options('module-select'), own(content.modules), `${p.name}'s modules`);
    }
    await rollProphecy(ada, worlds[1]);
    await sameSeq(players);
    const d66 = await Promise.all(players.map((p) => p.page.getByTestId('d66-roll').evaluate((d) => [d.dataset.tens, d.dataset.units].map(Number))));
    const prophecies = await Promise.all(players.map((p) => p.page.getByTestId('prophecy-text').textContent()));
    for (const [i, p] of players.entries()) {
      assert.deepEqual(d66[i], d66[0], `${p.name} sees another roll`);
      assert.equal(prophecies[i], prophecies[0]);
    }
    assert.ok(d66[0].every((d) => d >= 1 && d <= 6), `d66 ${d66[0]}`);
    assert.ok(prophecies[0].trim().length > 10);
    await logLine(cy, `The dice gave ${d66[0].join('')} on the catastrophe table`);

    // Create the characters: five aspects each, a Relationship naming another character.
    await advance(bo, 'characters');
    await makeCharacters(players, CHARS);
    for (const [i, p] of players.entries()) {
      assert.equal(await p.page.locator(tid('object-card', { kind: 'character' })).count(), 3);
      assert.equal(await myCard(p).getByTestId('object-name-text').textContent(), CHARS[i].name);
      assert.equal(await myCard(p).getByTestId('aspect-note').count(), 5);
      await myCard(p).getByText(`Relationship with ${CHARS[(i + 1) % 3].name}`).waitFor();
    }
    // Another player's character is read-only: no form to add to it.
    const ash = await objectId(ada, 'Ash');
    assert.equal(await cardOf(ada, ash).getByTestId('aspect-note').count(), 5);
    assert.equal(await cardOf(ada, ash).getByTestId('aspect-text').count(), 0);
    assert.equal(await cardOf(ada, ash).getByTestId('edit-aspect').count(), 0);

    // Write the outline: the Finale, a precursor, a place with aspects in its setting.
    await advance(ada, 'outline');
    const finale = await sketchFinale(ada, 'Silence the drowned bell');
    const precursor = await sketchPrecursor(bo, finale, 'Steal the bell-keeper’s chart');
    const archive = await createObject(cy, 'The Sunken Archive', 'place');
    await attachAspect(cy, cardOf(cy, archive), 'Flooded stacks');
    await attachAspect(cy, cardOf(cy, archive), 'Unguarded at dawn');
    await setSetting(cy, precursor, 'Dawn', 'The Sunken Archive');
    await placeObject(cy, precursor, archive);
    await sameSeq(players);
    for (const p of players) {
      const node = p.page.locator(tid('outline-node', { 'scene-id': precursor }));
      assert.match(await node.textContent(), /DIFFICULTY 3/);
      assert.match(await p.page.locator(tid('outline-node', { 'scene-id': finale })).textContent(), /FINALE · DIFFICULTY 4/);
    }

    // Tell the story: the precursor first.
    await advance(ada, 'story');
    await startScene(ada, precursor);
    await sameSeq(players);
    for (const p of players) {
      await p.page.locator(tid('scene-panel', { 'scene-id': precursor })).waitFor();
      await p.page.locator(tid('timer', { timed: 'scene', state: 'counting' })).waitFor();
      await panel(p).getByTestId('setting-text').filter({ hasText: 'Dawn' }).waitFor();
    }
    // Eight pairs (a good chance of a reward die for the Finale), from all three players.
    const pairs = [
      [ada, 'Smuggler', 'Unguarded at dawn', 'She knows when the guards change'],
      [bo, 'Archivist', 'Flooded stacks', 'He can read the shelf marks under water'],
      [cy, 'Diver', 'Flooded stacks', 'She can reach the lowest stacks'],
      [ada, 'Keen eyes', 'Flooded stacks', 'She spots the chart case'],
      [bo, 'Stubborn', 'Unguarded at dawn', 'He waits all night for dawn'],
      [cy, 'Strong swimmer', 'Unguarded at dawn', 'She swims in unseen'],
      [ada, 'Reckless', 'Flooded stacks', 'She dives without a rope'],
      [bo, 'Frail', 'Unguarded at dawn', 'Nobody guards against an old scholar'],
    ];
    for (const [p, c, e, why] of pairs) await proposePair(p, await aspectId(p, c), await aspectId(p, e), why);
    await sameSeq(players);
    for (const p of players) {
      assert.equal(await panel(p).getByTestId('pair').count(), pairs.length);
      await panel(p).getByTestId('pair').filter({ hasText: p === bo ? 'proposed by you' : 'proposed by Bo' }).filter({ hasText: 'He can read the shelf marks' }).waitFor();
      assert.deepEqual(await panel(p).getByTestId('pool-die').evaluateAll((ds) => ds.map((d) => d.dataset.kind)), pairs.map(() => 'matching_pair'));
    }
    await assertOdds(players, pairs.length, 3);
    // The picture of a table in play (the README's): the scene's pairs, its odds and chart.
    await panel(ada).getByTestId('chance-chart').evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await shot(ada, 'readme-table');

    // The check: reduced motion shows the result at once; Bo's animation is skipped.
    await watchRolls(players);
    // Bo's page skips the dice the moment they start rolling (an observer in the page, so the
    // short reveal cannot end first), noting what showed then.
    await bo.page.evaluate(() => {
      const seen = new MutationObserver(() => {
        const skip = document.querySelector('[data-testid="skip-animation"]');
        if (!(skip instanceof HTMLElement)) return;
        seen.disconnect();
        window.__atSkip = {
          result: document.querySelectorAll('[data-testid="check-result"]').length,
          logged: Array.from(document.querySelectorAll('[data-testid="log-entry"]')).some((e) => e.textContent.includes('The check of')),
          revealMs: Number(document.querySelector('[data-testid="roll"]')?.getAttribute('data-reveal-ms')),
        };
        skip.click();
      });
      seen.observe(document.body, { subtree: true, childList: true });
    });
    // The check is a proposal: Cy proposes it, Ada then Bo agree, and Bo's agreement rolls it.
    await makeCheck(cy);
    await bo.page.waitForFunction(() => window.__atSkip);
    const { revealMs, ...during } = await bo.page.evaluate(() => window.__atSkip);
    assert.deepEqual(during, { result: 0, logged: false }, 'while the dice roll, neither the result nor its log line shows');
    // The whole reveal, however many dice, takes at most 1.2 s (the page's own timeline).
    assert.ok(revealMs > 0 && revealMs <= 1200, `the dice reveal takes ${revealMs} ms`);
    // The check's outcome is in view on every page (laptops and phone).
    for (const p of players) assert.ok(await comesIntoView(p, panel(p).getByTestId('check-result')), `${p.name}: the check's outcome is out of view`);
    assert.equal(await sawRolling(ada), false, 'reduced motion: no rolling dice');
    assert.equal(await sawRolling(cy), false, 'reduced motion: no rolling dice');
    assert.equal(await sawRolling(bo), true, 'animation on: the dice rolled');
    const first = await assertSameRoll(players, precursor, pairs.length, 3);
    t.diagnostic(`precursor: dice ${first.faces.join(' ')}, ${first.hits} hits, ${first.outcome}`);

    await narrate(bo, 'Ash read the marks; Wren timed the guards; Moss dove.');
    await finishScene(ada, precursor);
    await sameSeq(players);
    for (const p of players) {
      const node = p.page.locator(tid('outline-node', { 'scene-id': precursor, status: 'performed' }));
      assert.match(await node.textContent(), new RegExp(first.outcome));
      // A successful precursor puts a reward die on its parent.
      assert.equal(await p.page.locator(tid('reward-die', { precursor })).count(), first.outcome === 'success' ? 1 : 0);
    }

    // The Finale: an object found in the scene, two pairs, the reward die if the precursor won.
    await startScene(cy, finale);
    await accepted(bo, 'add an object to the scene', async () => {
      await panel(bo).getByTestId('scene-object-name').fill('The Drowned Bell');
      await panel(bo).getByTestId('scene-object-kind').selectOption('thing');
      await panel(bo).getByTestId('scene-object-submit').click();
    }, 2); // created, then placed in the scene by the page
    const bell = await objectId(bo, 'The Drowned Bell');
    const bellCard = panel(bo).locator(tid('scene-object', { 'object-id': bell }));
    await bellCard.waitFor();
    await accepted(bo, 'attach an aspect in the scene', async () => {
      await bellCard.getByTestId('scene-aspect-text').fill('Cracked bronze');
      await bellCard.getByTestId('scene-attach-aspect').click();
    });
    await accepted(ada, 'place an object in the scene', async () => {
      await panel(ada).getByTestId('place-object-select').selectOption(String(archive));
      await panel(ada).getByTestId('place-object').click();
    });
    await proposePair(ada, await aspectId(ada, 'Keen eyes'), await aspectId(ada, 'Cracked bronze'), 'She sees the crack');
    await proposePair(cy, await aspectId(cy, 'Strong swimmer'), await aspectId(cy, 'Flooded stacks'), 'She swims the bell down');
    await sameSeq(players);
    const reward = first.outcome === 'success' ? 1 : 0;
    const expectedPool = ['matching_pair', 'matching_pair', ...(reward ? ['reward_die'] : [])];
    for (const p of players) {
      const kinds = await panel(p).getByTestId('pool-die').evaluateAll((ds) => ds.map((d) => d.dataset.kind));
      assert.deepEqual(kinds.sort(), expectedPool.sort(), `${p.name}'s pool`);
      if (reward) await panel(p).getByTestId('pool-die').filter({ hasText: 'reward die: “Steal the bell-keeper’s chart” succeeded' }).waitFor();
    }
    await assertOdds(players, 2 + reward, 4);

    // This time Bo watches the whole animation.
    await watchRolls(players);
    await makeCheck(ada);
    for (const p of players) await panel(p).getByTestId('check-result').waitFor({ timeout: WAIT });
    // The Finale's outcome comes into view on every page, Bo's once his dice have landed.
    for (const p of players) assert.ok(await comesIntoView(p, p.page.getByTestId('finale-moment')), `${p.name}: the Finale's outcome is out of view`);
    assert.equal(await sawRolling(bo), true);
    assert.equal(await sawRolling(ada), false);
    const last = await assertSameRoll(players, finale, 2 + reward, 4);
    t.diagnostic(`Finale: dice ${last.faces.join(' ')}, ${last.hits} hits, ${last.outcome}`);
    if (reward) {
      for (const p of players) await panel(p).locator('.die-cause').filter({ hasText: 'reward die: Steal the bell-keeper’s chart' }).waitFor();
    }
    await narrate(cy, 'The bell rang once more, and was still.');
    await finishScene(bo, finale);
    // Then the long-term effects' form, where the table goes next, comes into view.
    for (const p of players) assert.ok(await comesIntoView(p, p.page.getByTestId('long-term-effects')), `${p.name}: the long-term effects are out of view`);

    // The end: long-term effects, end the game; everyone sees the same outcome and log.
    const outcomeText = last.outcome === 'success' ? 'The Finale succeeded' : 'The Finale failed';
    for (const p of players) {
      await p.page.getByTestId('finale-outcome').filter({ hasText: outcomeText }).waitFor();
      // The Finale's moment: its outcome in large type, and the road that led there.
      const moment = p.page.locator(tid('finale-moment', { outcome: last.outcome }));
      await moment.waitFor();
      await moment.getByTestId('recap').filter({ hasText: 'Steal the bell-keeper’s chart' }).waitFor();
      assert.match(await moment.locator('h2').textContent(), last.outcome === 'success' ? /defy the prophecy/ : /comes to pass/);
      // In 1.0 the long-term effects are the table's choice.
      await p.page.locator('#long-term-effects-h').filter({ hasText: 'Long-term effects (optional)' }).waitFor();
      // The rules help and the footer link to the rulings.
      for (const id of ['rulings-help', 'rulings-link', 'rulings-safety']) assert.equal(await p.page.getByTestId(id).getAttribute('href'), '/rulings');
    }
    await accepted(ada, 'tell the long-term effects', async () => {
      await ada.page.getByTestId('long-term-effects').fill('The river towns forgot the bell within a generation.');
      await ada.page.getByTestId('narrate-long-term-effects').click();
    });
    await endGame(bo);
    await sameSeq(players);
    const logs = await Promise.all(players.map(logOf));
    for (const p of players) {
      await p.page.locator(tid('phase', { phase: 'ended' })).waitFor();
      await p.page.getByTestId('the-end').waitFor();
      await p.page.getByTestId('finale-moment').waitFor();
      await shot(p, `game-end-${p.name}`);
      assert.equal((await p.page.getByTestId('finale-outcome').textContent()).trim(), (await ada.page.getByTestId('finale-outcome').textContent()).trim());
      await p.page.getByTestId('long-term-effects-text').filter({ hasText: 'forgot the bell' }).waitFor();
    }
    for (const [i, log] of logs.entries()) assert.deepEqual(log, logs[0], `${players[i].name}'s log differs`);
    assert.ok(contiguous(logs[0]), 'the log has every seq once, in order');
    assert.equal(logs[0].at(-1)[1], 'The story is told.');

    // The exports, fetched with Cy's seat cookie; without it, no story.
    const base = new URL(cy.page.url());
    const md = await cy.context.request.get(new URL(await cy.page.getByTestId('export-md').getAttribute('href'), base).href);
    assert.equal(md.status(), 200);
    assert.match(md.headers()['content-type'], /text\/markdown/);
    const markdown = await md.text();
    for (const s of ['Silence the drowned bell', 'Steal the bell-keeper’s chart', 'Ash read the marks', 'The bell rang once more', 'forgot the bell', 'Wren', 'Cracked bronze', 'Drowned children']) {
      assert.ok(markdown.includes(s), `the Markdown has "${s}"`);
    }
    assert.ok(markdown.includes(prophecies[0].trim().split('\n')[0].slice(0, 40)), 'the Markdown has the prophecy');
    const anonymous = await fetch(new URL('export.md', base.href + '/').href);
    assert.notEqual(anonymous.status, 200, 'no export without a seat');
    const printHref = await cy.page.getByTestId('export-print').getAttribute('href');
    const print = await cy.context.request.get(new URL(printHref, base).href);
    assert.equal(print.status(), 200);
    assert.match(print.headers()['content-type'], /text\/html/);
    // The link opens the printable page in a new tab (on a phone, from the Table view).
    await showTab(cy, 'table');
    const [printed] = await Promise.all([cy.context.waitForEvent('page'), cy.page.getByTestId('export-print').click()]);
    const printErrors = [];
    printed.on('console', (m) => { if (m.type() === 'error') printErrors.push(m.text()); });
    await printed.waitForLoadState();
    const printText = await printed.locator('body').textContent();
    for (const s of ['Silence the drowned bell', 'The bell rang once more', 'Moss']) assert.ok(printText.includes(s), `the printable page has "${s}"`);
    assert.deepEqual(printErrors, []);
    await printed.close();

    // The group publishes the story: Cy proposes it, and once everyone agrees there is a
    // read-only page anyone with its link can read, which gives no seat and leaves out the
    // table's line; every page at the table shows the link; any player can withdraw it.
    await showTab(cy, 'now');
    await accepted(cy, 'propose publishing', () => cy.page.getByTestId('publish-story').click());
    for (const p of players) await p.page.locator(tid('proposal', { motion: 'publish' })).waitFor();
    await ada.page.getByTestId('publish-proposed').waitFor();
    assert.equal(await ada.page.getByTestId('share-link').count(), 0, 'no link before the table agrees');
    await shot(ada, 'publish-proposed');
    for (const p of [ada, bo]) await accepted(p, 'agree to publish', () => p.page.getByTestId('proposal').getByTestId('proposal-agree').click());
    for (const p of players) await p.page.getByTestId('share-link').waitFor();
    const shared = await ada.page.getByTestId('share-link').inputValue();
    assert.match(shared, /\/s\/[0-9a-f]{32}$/);
    assert.equal(await bo.page.getByTestId('share-link').inputValue(), shared, 'the same link on every page');
    // The others are told, not only shown a link.
    for (const p of players) await p.page.getByTestId('toast').filter({ hasText: 'The story is published' }).waitFor();
    const stranger = await table.open('Stranger');
    const seen = await stranger.page.goto(shared);
    assert.equal(seen.status(), 200);
    assert.equal(seen.headers()['x-robots-tag'], 'noindex');
    const sharedText = await stranger.page.locator('body').textContent();
    for (const s of ['Silence the drowned bell', 'The bell rang once more', 'published by its players']) assert.ok(sharedText.includes(s), `the published page has "${s}"`);
    assert.ok(!sharedText.includes('Drowned children'), 'the published page leaves out the table’s line');
    assert.equal(await stranger.page.locator(`a[href*="/t/"]`).count(), 0, 'no way to the table from it');
    assert.deepEqual((await stranger.context.cookies()).filter((c) => c.name === 'seat'), [], 'no seat');
    const tableToken = new URL(cy.page.url()).pathname.split('/')[2];
    const me = await stranger.page.evaluate(async (t) => (await fetch(`/t/${t}/me`)).json(), tableToken);
    assert.equal(me.player, null, 'reading the story seats nobody');
    await shot(stranger, 'shared-story');
    // Set in the site's serif (served with the page), not a system fallback, on both sizes.
    for (const viewport of [{ width: 1280, height: 800 }, PHONE]) {
      await stranger.page.setViewportSize(viewport);
      const font = await stranger.page.evaluate(async () => {
        await document.fonts.ready;
        const loaded = [...document.fonts].filter((f) => f.status === 'loaded').map((f) => f.family.replace(/"/g, ''));
        return { family: getComputedStyle(document.querySelector('main.story p')).fontFamily, loaded };
      });
      assert.match(font.family, /^"Source Serif 4"/, `the story's text is set in ${font.family}`);
      assert.ok(font.loaded.includes('Source Serif 4'), `fonts loaded: ${font.loaded.join(', ')}`);
    }
    await bo.page.getByTestId('withdraw-story').click();
    await accepted(bo, 'withdraw the page', () => bo.page.getByTestId('confirm-withdraw-story').click());
    for (const p of players) await p.page.getByTestId('publish-story').waitFor();
    assert.equal((await stranger.page.goto(shared)).status(), 404, 'a withdrawn story is gone');

    for (const p of players) assert.deepEqual(consoleErrors(p), [], `${p.name}'s console errors`);
  });
});
