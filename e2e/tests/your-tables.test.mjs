// Your tables (issue 13): the home page lists the tables this browser has a seat at, with their
// game, where they stand and when something last happened; an entry opens the table as that
// player, also after the browser was closed and opened again; an entry can be taken off the
// list; and nothing about another person's tables reaches a browser without a seat there.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withTable, createTable, createGameTable, joinTable, consoleErrors, sameSeq, shot, until } from './table.mjs';

const PHONE = { width: 375, height: 812 };

/** The entries of the home page's list: [{title, progress, meta}], in the order shown. */
async function entries(p) {
  await p.page.getByTestId('table-entry').first().waitFor();
  return p.page.getByTestId('table-entry').evaluateAll((els) =>
    els.map((el) => ({
      token: el.getAttribute('data-token'),
      title: el.querySelector('.entry-title')?.textContent ?? '',
      game: el.querySelector('.entry-game')?.textContent ?? '',
      progress: el.querySelector('[data-testid="table-progress"]')?.textContent ?? '',
      meta: el.querySelector('.entry-meta')?.textContent ?? '',
      why: el.querySelector('[data-testid="table-unavailable"]')?.textContent ?? '',
    })),
  );
}

const tokenOf = (link) => new URL(link).pathname.split('/')[2];

test('the home page lists your tables and reopens one as you, after the browser was closed', { timeout: 120_000 }, async () => {
  await withTable('your-tables', async (table) => {
    const ada = await table.open('Ada');
    const storyLink = await createTable(ada, table.server, 'Ada');
    const story = tokenOf(storyLink);
    let bo = await table.open('Bo', { viewport: PHONE });
    // The join page says which table, game and players the link leads to.
    await bo.page.goto(storyLink);
    assert.equal(await bo.page.getByTestId('join-title').textContent(), 'Join “Ada’s table”');
    assert.equal(await bo.page.getByTestId('join-about').textContent(), 'Prophecy, the story game · at the table: Ada');
    await joinTable(bo, storyLink, 'Bo');
    await sameSeq([ada, bo]);

    // Ada also opens a board game with a bot: her list has both, Bo's only the story.
    await ada.page.goto(`${table.server.url}/`);
    await ada.page.getByTestId('create-name').fill('Ada');
    await ada.page.getByTestId('game-board').check();
    await ada.page.getByTestId('create-table').click();
    await ada.page.waitForURL(/\/t\/[0-9a-f]{32}$/);
    const board = tokenOf(ada.page.url());
    await ada.page.getByTestId('lobby').waitFor();

    await ada.page.goto(`${table.server.url}/`);
    const adas = await entries(ada);
    assert.deepEqual(adas.map((e) => e.token).sort(), [story, board].sort(), 'Ada sees both her tables');
    const boardEntry = adas.find((e) => e.token === board);
    assert.equal(boardEntry.game, 'Prophecy, the board game');
    assert.match(boardEntry.progress, /^Waiting to begin: 2 adventurers seated$|^Turn \d+: /);
    const storyEntry = adas.find((e) => e.token === story);
    assert.equal(storyEntry.game, 'Prophecy, the story game');
    assert.equal(storyEntry.progress, 'Receive the Prophecy');
    assert.match(storyEntry.meta, /^You are Ada · with Bo · last activity (just now|a minute ago)$/);
    assert.equal(adas[0].token, board, 'the table with the latest activity comes first');
    await shot(ada, 'your-tables-laptop');

    // Bo closes the browser: only what a browser keeps (cookies, storage) survives.
    const kept = await bo.context.storageState();
    await bo.context.close();
    bo = await table.open('Bo again', { viewport: PHONE, storageState: kept });
    await bo.page.goto(`${table.server.url}/`);
    const bos = await entries(bo);
    assert.deepEqual(bos.map((e) => e.token), [story], 'Bo sees the story table only');
    assert.match(bos[0].meta, /^You are Bo · with Ada · /);
    await shot(bo, 'your-tables-phone');
    await bo.page.getByTestId('open-table').click();
    await bo.page.waitForURL(`**/t/${story}`);
    await bo.page.getByTestId('phase').waitFor();
    assert.equal(await bo.page.getByTestId('join-form').count(), 0, 'no join form: Bo is seated');
    const you = bo.page.locator('[data-testid="player"]', { hasText: 'you' });
    assert.match(await you.textContent(), /Bo/, 'the page knows Bo as Bo');

    // Taking the board game off Ada's list keeps it off after a reload; her seat stays.
    await ada.page.locator(`[data-token="${board}"] [data-testid="forget-table"]`).click();
    await ada.page.waitForFunction((t) => !document.querySelector(`[data-token="${t}"]`), board);
    await ada.page.reload();
    assert.deepEqual((await entries(ada)).map((e) => e.token), [story]);
    const seat = await ada.page.evaluate(async (t) => (await fetch(`/t/${t}/me`)).json(), board);
    assert.equal(seat.name, 'Ada', 'leaving the list is not leaving the table');

    // A browser with no seat learns nothing: no list, and a summary is refused.
    const cy = await table.open('Cy');
    await cy.page.goto(`${table.server.url}/`);
    await cy.page.getByTestId('create-form').waitFor();
    assert.equal(await cy.page.getByTestId('your-tables').isHidden(), true, 'no list on a new browser');
    const answer = await cy.page.evaluate(async (t) => {
      const r = await fetch(`/t/${t}/summary`);
      return { status: r.status, body: await r.text() };
    }, story);
    assert.equal(answer.status, 401);
    assert.doesNotMatch(answer.body, /Ada|Bo|Prophecy/, 'the refusal names nobody');

    // A table Cy once knew of but has no seat at (a list entry typed in by hand) says so.
    await cy.page.evaluate((t) => localStorage.setItem('prophecy.tables', JSON.stringify([{ token: t, opened: 1 }])), story);
    await cy.page.reload();
    const cys = await entries(cy);
    assert.equal(cys[0].why, 'You no longer have a seat at this table.');
    assert.equal(cys[0].title, '', 'nothing about the table is shown');

    for (const p of [ada, bo]) assert.deepEqual(consoleErrors(p), [], `${p.name}'s console errors`);
    assert.deepEqual(consoleErrors(cy).filter((e) => !/status of 401/.test(e)), [], "Cy's console errors");
  });
});

/** Whether `locator`'s element is inside its page's viewport, whole. */
function inViewport(locator) {
  return locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight && r.right <= window.innerWidth;
  });
}

/** Today in UTC as an unnamed table's title says it: "28 November 2026". */
const utcDay = () => new Date().toLocaleDateString('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'long', year: 'numeric' });

// Tables have names (issue 31): two board tables, one named on the home page and one not, are
// two distinct entries of Your tables; the named one is called by its name on its page too.
for (const [size, viewport] of [['phone', PHONE], ['laptop', { width: 1280, height: 800 }]]) {
  test(`a table named on the home page is called by its name, an unnamed one by its game and day (${size})`, { timeout: 120_000 }, async () => {
    await withTable(`table-names-${size}`, async (table) => {
      const ada = await table.open('Ada', { viewport });
      const { page } = ada;
      const NAME = 'Friday <b>night</b> & co';
      const day = utcDay();

      // A name too long is refused with one line, where the creator looks.
      await page.goto(`${table.server.url}/`);
      await page.getByTestId('create-name').fill('Ada');
      await page.getByTestId('game-board').check();
      const field = page.getByTestId('create-table-name');
      assert.equal(await field.getAttribute('maxlength'), '80');
      // Past the field's own limit, as a script or an older page could send it.
      await field.evaluate((el) => {
        /** @type {HTMLInputElement} */ (el).value = 'x'.repeat(81);
      });
      await page.getByTestId('create-table').click();
      const error = page.getByTestId('create-error');
      await error.waitFor();
      assert.equal(await error.textContent(), "A table's name is at most 80 characters; this one has 81.");
      assert.ok(await inViewport(error), 'the error is in view');

      // The named table.
      await field.fill(`  ${NAME}  `);
      if (size === 'phone') await shot(ada, 'table-names-form-phone', { fullPage: true });
      else await shot(ada, 'table-names-form-laptop');
      await page.getByTestId('create-table').click();
      await page.waitForURL(/\/t\/[0-9a-f]{32}$/);
      const named = tokenOf(page.url());
      await page.getByTestId('lobby').waitFor();
      await page.waitForFunction((t) => document.title === t, `${NAME}: the lobby — Prophecy`);
      const heading = page.getByTestId('table-title');
      assert.equal(await heading.textContent(), NAME, 'the heading is the name, as text');
      assert.equal(await heading.locator('b').count(), 0, 'markup in a name is text');
      assert.ok(await inViewport(heading), 'the heading is in view');
      await shot(ada, `table-names-page-${size}`);

      // The unnamed one.
      await createGameTable(ada, table.server, 'Ada', 'board');
      const unnamed = tokenOf(page.url());
      await page.getByTestId('lobby').waitFor();
      // Its page is titled by the game and the day, as Your tables lists it.
      await page.waitForFunction(() => /^Board game, \d{1,2} [A-Z][a-z]+ \d{4}: the lobby — Prophecy$/.test(document.title));
      assert.match(await page.getByTestId('table-title').textContent(), /^Board game, \d{1,2} [A-Z][a-z]+ \d{4}$/);

      await page.goto(`${table.server.url}/`);
      await until(async () => (await page.getByTestId('table-entry').count()) === 2);
      const listed = await entries(ada);
      const title = (token) => listed.find((e) => e.token === token).title;
      assert.equal(title(named), NAME);
      assert.match(title(unnamed), /^Board game, \d{1,2} [A-Z][a-z]+ \d{4}$/);
      assert.ok([day, utcDay()].some((d) => title(unnamed) === `Board game, ${d}`), title(unnamed));
      for (const token of [named, unnamed]) {
        const entry = page.locator(`[data-token="${token}"] .entry-title`);
        assert.ok(await inViewport(entry), `the entry ${title(token)} is in view`);
        assert.equal(await entry.locator('b').count(), 0);
      }
      await shot(ada, `table-names-list-${size}`);
      assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= viewport.width, 'nothing wider than the screen');
      assert.deepEqual(consoleErrors(ada).filter((e) => !/status of 400/.test(e)), []);
    });
  });
}
