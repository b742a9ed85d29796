// The table follows the action (issue 31): screen space on a phone (375 × 667) and a laptop
// (1280 × 800). Once a table is in play, a phone's header is one line and the invitation is in
// the view that lists the table's people; the banners of a paused table take at most 15% of the
// screen; the background covers the whole page; the story's log can be read to its end on a
// laptop; the home page's Create button is on a laptop's first screen; a kept d4, d6 and d8 each
// say "kept". "Shows" means inside the viewport, not only in the page.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  withTable, gameToStory, startScene, cardOf, objectId, aspectId, accepted, sameSeq, showTab, tid,
  consoleErrors, createGameTable, shot, view,
} from './table.mjs';

const PHONE = { width: 375, height: 667 };
const LAPTOP = { width: 1280, height: 800 };
/** One line of title and badges, with its padding and border. */
const ONE_LINE = 56;

/**
 * What is wrong, every item of it: a test goes on after a failed check (each is reported, not
 * only the first) and fails at its end (`noDefects`).
 */
function defects() {
  const found = [];
  const check = (ok, what) => {
    if (!ok) found.push(what);
    return !!ok;
  };
  return { found, check };
}

function noDefects({ found }) {
  assert.deepEqual(found, [], `${found.length} defects:\n  ${found.join('\n  ')}`);
}

/** Checks that `locator`'s first element lies inside the viewport now; its box. */
async function inViewport(d, p, locator, what) {
  const box = await locator.first().boundingBox();
  const { width, height } = p.page.viewportSize();
  if (!d.check(box && box.width > 0 && box.height > 0, `${p.name}: ${what} has no size (${JSON.stringify(box)})`)) return box;
  d.check(box.x >= -0.5 && box.y >= -0.5 && box.x + box.width <= width + 0.5 && box.y + box.height <= height + 0.5, `${p.name}: ${what} is not inside the ${width}×${height} viewport (${JSON.stringify(box)})`);
  return box;
}

/** The header's height, the page scrolled to its top. */
async function headerHeight(p) {
  await p.page.evaluate(() => window.scrollTo(0, 0));
  return (await p.page.locator('header.topbar').boundingBox()).height;
}

/** The stacked banners at the top: their height in all, and the viewport's. */
function bannersHeight(p) {
  return p.page.evaluate(() => ({
    banners: Array.from(document.querySelectorAll('.banners > *')).reduce((sum, el) => sum + el.getBoundingClientRect().height, 0),
    parts: Array.from(document.querySelectorAll('.banners > *')).map((el) => `${el.className} ${Math.round(el.getBoundingClientRect().height)}`),
    screen: window.innerHeight,
  }));
}

/** Whether what is painted at the element's point (x, y: fractions of its box) is the element. */
function paintedAt(locator, fx = 0.5, fy = 0.5) {
  return locator.evaluate((el, [fx, fy]) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width * fx, r.top + r.height * fy);
    return !!hit && (hit === el || el.contains(hit));
  }, [fx, fy]);
}

/**
 * The page's background down its left edge, in a screenshot of the whole page: each sample
 * (every 40 px below the first screen, where nothing but the background is painted) is the
 * colour of the table's gradient towards its edge (--table-2), not the plain --table colour a
 * background that ends after one screen leaves.
 */
async function backgroundCoversPage(d, p, where) {
  await p.page.evaluate(() => window.scrollTo(0, 0));
  const png = (await p.page.screenshot({ fullPage: true })).toString('base64');
  const { samples, table, table2, height } = await p.page.evaluate(async (data) => {
    const img = new Image();
    img.src = 'data:image/png;base64,' + data;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.width;
    c.height = img.height;
    const g = c.getContext('2d');
    g.drawImage(img, 0, 0);
    const probe = document.createElement('div');
    document.body.append(probe);
    const rgb = (v) => {
      probe.style.color = `var(${v})`;
      return getComputedStyle(probe).color.match(/\d+/g).slice(0, 3).map(Number);
    };
    const colours = { table: rgb('--table'), table2: rgb('--table-2') };
    probe.remove();
    const out = [];
    for (let y = window.innerHeight + 20; y < img.height - 100; y += 40) out.push([y, Array.from(g.getImageData(2, y, 1, 1).data.slice(0, 3))]);
    return { samples: out, ...colours, height: img.height };
  }, png);
  const dist = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
  // Only the background: a panel's paper or a bar that reaches the edge is not it.
  const background = samples.filter(([, c]) => Math.min(dist(c, table), dist(c, table2)) < 20);
  assert.ok(height > (await p.page.evaluate(() => window.innerHeight)) * 1.5, `${where}: the page is long (${height}px)`);
  assert.ok(background.length >= 5, `${where}: ${background.length} samples of the background`);
  const plain = background.filter(([, c]) => dist(c, table) <= dist(c, table2));
  d.check(!plain.length, `${where}: the background's gradient has ended at ${plain.map(([y, c]) => `${y} (${c})`).join(', ')} (plain ${table})`);
}

test('home: Create the table is on a laptop’s first screen, and reachable on a phone', { timeout: 60_000 }, async () => {
  await withTable('space-home', async (table) => {
    const d = defects();
    for (const [name, viewport] of [['laptop', LAPTOP], ['phone', PHONE]]) {
      const p = await table.open(name, { viewport });
      await p.page.goto(`${table.server.url}/`);
      const create = p.page.getByTestId('create-table');
      await create.waitFor();
      await shot(p, `space-home-${name}`);
      if (viewport === LAPTOP) await inViewport(d, p, create, 'Create the table, on load');
      await create.scrollIntoViewIfNeeded();
      await inViewport(d, p, create, 'Create the table, scrolled to');
      d.check(await paintedAt(create), `${name}: nothing covers Create the table`);
      assert.deepEqual(consoleErrors(p), []);
    }
    noDefects(d);
  });
});

test('Challenge: one-line header on a phone once in play, the invitation in the Table view; every kept die says so; the background covers the page', { timeout: 150_000 }, async () => {
  await withTable('space-challenge', async (table) => {
    const d = defects();
    const gm = await table.open('Gina', { viewport: PHONE });
    await createGameTable(gm, table.server, 'Gina', 'challenge');
    await gm.page.getByTestId('gm-name').waitFor();
    // The first screen: the game master is inviting; the link is at hand in the header.
    await gm.page.waitForFunction(() => /\?join=[0-9a-f]{32}$/.test(document.querySelector('[data-testid="invite-link"]')?.value ?? ''));
    await inViewport(d, gm, gm.page.getByTestId('invite-link'), 'the invite link on the first screen');
    const link = await gm.page.getByTestId('invite-link').inputValue();

    const ada = await table.open('Ada', { viewport: LAPTOP });
    await ada.page.goto(link);
    await ada.page.getByTestId('join-name').fill('Ada');
    await ada.page.getByTestId('join-submit').click();
    await ada.page.getByTestId('gm-name').waitFor();
    // On a laptop the invitation stays in the header, on the first screen.
    await inViewport(d, ada, ada.page.getByTestId('invite-link'), 'the invite link on a laptop');
    await inViewport(d, ada, ada.page.getByTestId('copy-link'), 'Copy link on a laptop');

    // Ada makes a character: the table is in play.
    await ada.page.getByTestId('create-sheet').click();
    const form = ada.page.getByTestId('sheet-form');
    await form.getByTestId('sheet-name').fill('Mira');
    await form.getByTestId('sheet-concept').fill('A smith’s daughter who lifts gates');
    for (const [a, n] of Object.entries({ knowledge: 1, awareness: 1, charisma: 2, physicality: 2 })) await form.locator(tid('aptitude-input', { aptitude: a })).fill(String(n));
    await accepted(ada, 'make Mira', () => form.getByTestId('save-sheet').click());
    await sameSeq([gm, ada]);
    const h = await headerHeight(gm);
    d.check(h <= ONE_LINE, `the phone's header is ${h}px once in play`);
    d.check(!(await gm.page.getByTestId('invite-link').isVisible()), 'the invitation is in the Challenges view');
    await shot(gm, 'space-challenge-phone');
    await showTab(gm, 'table');
    await inViewport(d, gm, gm.page.getByTestId('invite-link'), 'the invite link in the Table view');
    await inViewport(d, gm, gm.page.getByTestId('copy-link'), 'Copy link in the Table view');
    await shot(gm, 'space-challenge-phone-table');
    await showTab(gm, 'challenges');

    // Three challenges with no improvement (roll two, keep the lowest): on a d8, a d4, a d6.
    const mira = (await view(ada)).characters[0].id;
    for (const [situation, sides] of [['favourable', 8], ['difficult', 4], ['average', 6]]) {
      const description = `Talk the guard round (d${sides})`;
      const panel = gm.page.getByTestId('gm-panel');
      await panel.getByTestId('challenge-character').selectOption(String(mira));
      await panel.getByTestId('challenge-description').fill(description);
      await panel.getByTestId('challenge-situation').selectOption(situation);
      await panel.getByTestId('challenge-aptitude').selectOption('charisma');
      await accepted(gm, `call the d${sides} challenge`, () => panel.getByTestId('call-challenge').click());
      const id = (await view(gm)).challenges.find((c) => c.description === description).id;
      const open = ada.page.locator(tid('open-challenge', { 'challenge-id': id, mine: 'true' }));
      await accepted(ada, `roll the d${sides}s`, () => open.getByTestId('roll-challenge').click());
      await sameSeq([gm, ada]);
      for (const p of [ada, gm]) {
        const result = p.page.locator(`${tid('challenge', { 'challenge-id': id, status: 'rolled' })} ${tid('challenge-result')}`);
        await result.waitFor();
        assert.equal(await result.locator(tid('die')).count(), 2, `${p.name}: two d${sides}s`);
        const kept = result.locator(`${tid('die')}[data-kept="true"]`);
        assert.equal(await kept.count(), 1);
        const label = kept.locator('.kept-tag');
        await kept.scrollIntoViewIfNeeded();
        const box = await inViewport(d, p, label, `the "kept" label under the kept d${sides}`);
        assert.equal((await label.textContent()).trim(), 'kept');
        d.check(await paintedAt(label), `${p.name}: the d${sides}'s "kept" label is painted, not clipped`);
        const die = await kept.boundingBox();
        d.check(box && box.y >= die.y + die.height - 2, `${p.name}: the label hangs below the d${sides}`);
        await shot(p, `space-kept-d${sides}-${p.name}`);
      }
    }

    await backgroundCoversPage(d, ada, 'laptop');
    await backgroundCoversPage(d, gm, 'phone');
    for (const p of [gm, ada]) assert.deepEqual(consoleErrors(p), [], `${p.name}'s console errors`);
    noDefects(d);
  });
});

test('board game: one-line header on a phone once the game runs, the exports in the Adventurers view', { timeout: 90_000 }, async () => {
  await withTable('space-board', async (table) => {
    const d = defects();
    for (const [name, viewport] of [['phone', PHONE], ['laptop', LAPTOP]]) {
      const p = await table.open(name, { viewport });
      await createGameTable(p, table.server, 'Ada', 'board', { bots: 2 });
      await p.page.getByTestId('lobby').waitFor();
      // The lobby: whoever is invited comes now (nobody takes a seat once the game has started).
      await inViewport(d, p, p.page.getByTestId('invite-link'), 'the invite link in the lobby');
      await p.page.getByTestId('start-game').click();
      await p.page.locator(tid('phase', { phase: 'playing' })).waitFor();
      if (viewport === PHONE) {
        const h = await headerHeight(p);
        d.check(h <= ONE_LINE, `the phone's header is ${h}px once the game runs`);
        await shot(p, 'space-board-phone');
        await showTab(p, 'adventurers');
        // Below the adventurers and the decks: what a player looks for there comes first.
        await p.page.getByTestId('export-md').scrollIntoViewIfNeeded();
        await inViewport(d, p, p.page.getByTestId('export-md'), 'the exports in the Adventurers view');
        await shot(p, 'space-board-phone-adventurers');
      } else {
        await inViewport(d, p, p.page.getByTestId('export-md'), 'the exports in the header');
      }
      assert.deepEqual(consoleErrors(p), [], `${name}'s console errors`);
    }
    noDefects(d);
  });
});

test('story: one-line header on a phone, the invitation in the Table view; a paused table’s banners are small; the log reads to its end on a laptop', { timeout: 240_000 }, async () => {
  await withTable('space-story', async (table) => {
    const d = defects();
    const { players, precursor } = await gameToStory(table, [
      { name: 'Ada', options: { viewport: LAPTOP } },
      { name: 'Bo', options: { viewport: PHONE } },
    ]);
    const [ada, bo] = players;

    // The phone: one line of header in every view; the invitation in the Table view.
    for (const tab of ['now', 'table']) {
      await showTab(bo, tab);
      const h = await headerHeight(bo);
      d.check(h <= ONE_LINE, `the phone's header is ${h}px in the ${tab} view`);
    }
    await inViewport(d, bo, bo.page.getByTestId('invite-link'), 'the invite link in the Table view');
    await inViewport(d, bo, bo.page.getByTestId('copy-link'), 'Copy link in the Table view');
    await shot(bo, 'space-story-phone-table');
    // The laptop keeps it in its header.
    await ada.page.evaluate(() => window.scrollTo(0, 0));
    await inViewport(d, ada, ada.page.getByTestId('invite-link'), 'the invite link on a laptop');
    await showTab(bo, 'now');

    // The laptop: scrolled to the page's foot, the log panel is all on screen, and its newest
    // line can be read.
    for (const p of [ada, bo]) {
      if (p === bo) await showTab(bo, 'table');
      await p.page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      const panel = p.page.locator('#log-panel');
      await inViewport(d, p, panel, 'the log panel, the page scrolled to its foot');
      for (const fy of [0.02, 0.5, 0.98]) d.check(await paintedAt(panel, 0.5, fy), `${p.name}: the log panel is hidden at ${fy} of its height`);
      await p.page.getByTestId('log').evaluate((el) => { el.scrollTop = el.scrollHeight; });
      const last = p.page.getByTestId('log-entry').last();
      await inViewport(d, p, last, 'the newest line of the log');
      d.check(await paintedAt(last), `${p.name}: the newest line of the log is hidden`);
      await shot(p, `space-story-log-${p.name}`);
      if (p === bo) await showTab(bo, 'now');
    }

    // Paused by a flag and by the X-card at once, in a scene (the timer runs).
    await startScene(ada, precursor);
    const ash = await objectId(ada, 'Ash');
    const flag = `aspect:${await aspectId(ada, 'Archivist')}`;
    await accepted(ada, 'flag an aspect', () => cardOf(ada, ash).locator(tid('flag', { flag })).click());
    await accepted(ada, 'use the X-card', () => ada.page.getByTestId('x-card').click());
    await sameSeq(players);
    await bo.page.locator(tid('paused-banner', { 'x-card': 'true' })).waitFor();
    await bo.page.evaluate(() => window.scrollTo(0, 0));
    const paused = await bannersHeight(bo);
    d.check(paused.banners <= 0.15 * paused.screen, `the banners take ${paused.banners}px of a ${paused.screen}px screen: ${paused.parts.join(', ')}`);
    await inViewport(d, bo, bo.page.getByTestId('x-card-paused'), 'what paused play');
    await inViewport(d, bo, bo.page.getByTestId('propose-resume'), 'Propose resuming');
    await shot(bo, 'space-story-phone-paused');
    // What holds so far is reported before the steps below, which need the banner's tap.
    noDefects(d);
    // Scrolled down, the banners stay at the top, as small.
    await bo.page.evaluate(() => window.scrollTo(0, 600));
    await inViewport(d, bo, bo.page.getByTestId('paused-banner'), 'the paused banner, scrolled down');
    // What to do and the flagged text are one tap away.
    await bo.page.getByTestId('paused-banner').locator('summary').click();
    const goTo = bo.page.getByTestId('paused-banner').getByRole('button', { name: 'an aspect of Ash' });
    await inViewport(d, bo, goTo, 'the way to the flagged text');
    await bo.page.getByTestId('paused-banner').getByText('leave out what was just said or shown').waitFor();
    await shot(bo, 'space-story-phone-paused-open');
    await bo.page.getByTestId('paused-banner').locator('summary').click();

    // Bo proposes resuming: the proposal joins the banners, still within 15% of the screen.
    await accepted(bo, 'propose resuming', () => bo.page.getByTestId('propose-resume').click());
    await sameSeq(players);
    await bo.page.getByTestId('proposal').waitFor();
    const proposal = await bannersHeight(bo);
    d.check(proposal.banners <= 0.15 * proposal.screen, `with a proposal the banners take ${proposal.banners}px of a ${proposal.screen}px screen: ${proposal.parts.join(', ')}`);
    await inViewport(d, bo, bo.page.getByTestId('proposal-stop'), 'Withdraw the proposal');
    await shot(bo, 'space-story-phone-paused-proposal');
    await shot(ada, 'space-story-laptop-paused-proposal');
    for (const p of players) assert.deepEqual(consoleErrors(p), [], `${p.name}'s console errors`);
    noDefects(d);
  });
});
