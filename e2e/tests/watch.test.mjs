// Watch links: the table lets people watch (at a story table, once everyone agrees), watchers
// follow it live on a phone and a laptop and can change nothing, the players see how many
// watch, and any player closes the link.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withTable, seatPlayers, othersAgree, accepted, consoleErrors, inViewport, reveal, shot, createGameTable, tid, until } from './table.mjs';

const PHONE = { viewport: { width: 375, height: 800 } };
const LAPTOP = { viewport: { width: 1280, height: 800 } };

/** The watch link `p`'s page shows, once there is one. */
async function watchLink(p) {
  const link = p.page.getByTestId('open-watch');
  await reveal(p, link);
  return link.getAttribute('href');
}

/** Opens `link` as a watcher; waits for the table. */
async function watchFrom(table, name, link, options) {
  const w = await table.open(name, options);
  await w.page.goto(link);
  await w.page.getByTestId('watching-banner').waitFor();
  return w;
}

/** What finds things on a page, not acts on the table: a phone's views, the theme, older log lines, dismissing a notice. */
const FINDS = '[data-testid^="tab-"], [data-testid="theme-select"], [data-testid="away-dismiss"], [data-testid="log-older"], .dismiss';

/** What a watcher's page offers to act on, visible: nothing. */
async function visibleControls(w) {
  return w.page.evaluate(
    (finds) =>
      Array.from(document.querySelectorAll('#app button, #app input, #app textarea, #app select, #app form'))
        .filter((el) => el.getClientRects().length > 0 && !el.matches(finds))
        .map((el) => el.getAttribute('data-testid') || el.textContent.trim().slice(0, 30)),
    FINDS,
  );
}

test('a story table lets people watch once everyone agrees; watchers see no lines and change nothing', { timeout: 120_000 }, async () => {
  await withTable('watch-story', async (table) => {
    const { players } = await seatPlayers(table, [{ name: 'Ada', options: LAPTOP }, { name: 'Bo', options: PHONE }]);
    const [ada, bo] = players;
    await accepted(bo, 'propose to let people watch', async () => (await reveal(bo, bo.page.getByTestId('open-watch-link'))).click());
    await othersAgree(bo, 'let people watch');
    const link = await watchLink(ada);
    assert.match(link, /\/w\/[0-9a-f]{32}$/);
    assert.equal(await watchLink(bo), link);

    const cy = await watchFrom(table, 'Cy', link, PHONE);
    const di = await watchFrom(table, 'Di', link, LAPTOP);
    for (const w of [cy, di]) {
      assert.ok(await inViewport(w.page.getByTestId('watching-banner')), `${w.name} is told they watch`);
      assert.deepEqual(await visibleControls(w), [], `${w.name} has nothing to act on`);
    }
    // A watcher replays the game only once it is over: the page says so.
    await cy.page.getByTestId('watching-banner').getByTestId('open-replay').click();
    await cy.page.getByText('watchers can replay it once it is over').first().waitFor();
    await shot(cy, 'watch-story-phone');
    await shot(di, 'watch-story-laptop');
    // The players see that two people watch.
    await (await reveal(ada, ada.page.getByTestId('watchers'))).filter({ hasText: '2 watching' }).waitFor();
    await (await reveal(bo, bo.page.getByTestId('watchers'))).filter({ hasText: '2 watching' }).waitFor();

    // A line Bo draws reaches the players, never the watchers; what the table writes does.
    await accepted(bo, 'draw a line', async () => {
      await (await reveal(bo, bo.page.getByTestId('line-text'))).fill('Drowned children');
      await bo.page.getByTestId('add-line').click();
    });
    await accepted(ada, 'write the prophecy', async () => {
      await (await reveal(ada, ada.page.getByTestId('prophecy-input'))).fill('The tide will not turn.');
      await ada.page.getByTestId('write-prophecy').click();
    });
    for (const w of [cy, di]) {
      await w.page.getByText('The tide will not turn.').first().waitFor({ state: 'attached' });
      assert.equal(await w.page.getByTestId('line').count(), 0);
      for (const frame of w.frames) assert.doesNotMatch(frame, /Drowned children|line was/, `${w.name} was sent a line`);
      assert.ok(w.frames.some((f) => f.includes('The tide will not turn.')), `${w.name} follows the table`);
    }

    // Ada closes the link: the watchers are told where they look, and the link is gone.
    await (await reveal(ada, ada.page.getByTestId('close-watch'))).click();
    for (const w of [cy, di]) {
      const told = w.page.getByTestId('removed');
      await told.filter({ hasText: 'watch link was closed' }).waitFor();
      assert.ok(await inViewport(told), `${w.name} sees that the link closed`);
    }
    await shot(cy, 'watch-story-closed-phone');
    for (const p of players) await p.page.getByTestId('close-watch').waitFor({ state: 'detached' });
    const again = await table.open('Eve', PHONE);
    const answer = await again.page.goto(link);
    assert.equal(answer.status(), 404);
    await again.page.getByText('There is no table to watch at this link').waitFor();

    for (const p of [...players, cy, di]) assert.deepEqual(consoleErrors(p), [], `${p.name}'s console errors`);
  });
});

test('the creator of a board table lets people watch; watchers follow the bots and change nothing', { timeout: 120_000 }, async () => {
  await withTable('watch-board', async (table) => {
    const ann = await table.open('Ann', PHONE);
    await createGameTable(ann, table.server, 'Ann', 'board', { bots: 2 });
    await ann.page.getByTestId('lobby').waitFor();
    await (await reveal(ann, ann.page.getByTestId('open-watch-link'))).click();
    const link = await watchLink(ann);
    const watchers = [await watchFrom(table, 'Cy', link, PHONE), await watchFrom(table, 'Di', link, LAPTOP)];
    await ann.page.getByTestId('start-game').click();
    // Ann lets a bot play for her, so the game goes on by itself.
    const annId = await ann.page.evaluate(() => window.prophecy.me().player);
    await (await reveal(ann, ann.page.locator('.hand-own summary'))).click();
    await ann.page.locator(tid('hand-to-bot', { 'player-id': annId })).click();
    await ann.page.getByTestId('take-back').waitFor({ state: 'attached' });
    for (const w of watchers) {
      await until(() => w.page.evaluate(() => window.prophecy.view().phase === 'playing'));
      assert.ok(await inViewport(w.page.getByTestId('watching-banner')), `${w.name} is told they watch`);
      assert.deepEqual(await visibleControls(w), [], `${w.name} has nothing to act on`);
      assert.equal(await w.page.evaluate(() => window.prophecy.own() ?? null), null, 'no hand of any player');
    }
    await shot(watchers[0], 'watch-board-phone');
    await shot(watchers[1], 'watch-board-laptop');

    // The stream layout, for a streaming program's browser source: large type, the turn, the
    // newest lines as the bots play, on a transparent background when asked.
    for (const [name, options] of [['Stream', LAPTOP], ['Phone stream', PHONE]]) {
      const s = await table.open(name, options);
      await s.page.goto(`${link}?layout=stream&background=transparent`);
      const play = s.page.getByTestId('stream-play');
      await play.waitFor();
      assert.ok(await inViewport(s.page.getByTestId('stream-title')), `${name}: the title shows`);
      assert.ok(await inViewport(play.locator('h2, h3').first()), `${name}: the turn shows`);
      assert.equal(await s.page.getByTestId('watching-banner').count(), 0, 'a stream has no banner');
      const looks = await s.page.evaluate(() => ({
        type: parseFloat(getComputedStyle(document.documentElement).fontSize),
        background: getComputedStyle(document.documentElement).backgroundColor,
        image: getComputedStyle(document.documentElement).backgroundImage,
      }));
      assert.ok(looks.type >= (options === LAPTOP ? 26 : 18), `${name}: large type (${looks.type}px)`);
      assert.ok(await s.page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), `${name}: nothing wider than the screen`);
      assert.deepEqual([looks.background, looks.image], ['rgba(0, 0, 0, 0)', 'none'], `${name}: transparent`);
      assert.deepEqual(await visibleControls(s), [], `${name}: nothing to act on`);
      const newest = () => s.page.getByTestId('stream-log').locator('li').last().textContent();
      const before = await newest();
      await until(async () => (await newest()) !== before);
      await shot(s, `watch-board-stream-${options.viewport.width}`);
    }
    for (const p of [ann, ...watchers]) assert.deepEqual(consoleErrors(p), [], `${p.name}'s console errors`);
  });
});

test('the game master of a Challenge table lets people watch; watchers see the sheets and change nothing', { timeout: 90_000 }, async () => {
  await withTable('watch-challenge', async (table) => {
    const gm = await table.open('Gail', LAPTOP);
    await createGameTable(gm, table.server, 'Gail', 'challenge');
    await (await reveal(gm, gm.page.getByTestId('open-watch-link'))).click();
    const link = await watchLink(gm);
    const watchers = [await watchFrom(table, 'Cy', link, PHONE), await watchFrom(table, 'Di', link, LAPTOP)];
    for (const w of watchers) {
      assert.ok(await inViewport(w.page.getByTestId('watching-banner')), `${w.name} is told they watch`);
      assert.deepEqual(await visibleControls(w), [], `${w.name} has nothing to act on`);
    }
    await (await reveal(gm, gm.page.getByTestId('watchers'))).filter({ hasText: '2 watching' }).waitFor();
    await shot(watchers[0], 'watch-challenge-phone');
    for (const p of [gm, ...watchers]) assert.deepEqual(consoleErrors(p), [], `${p.name}'s console errors`);
  });
});
