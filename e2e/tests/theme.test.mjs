// The theme (issue 13): pages follow the device's light or dark setting, and a player can choose
// either instead, on the home page or at any game's table; the choice holds in this browser
// across pages, reloads and games, and "as the device" gives the device's back.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withTable, createTable, consoleErrors, shot } from './table.mjs';

/**
 * The page's theme as it is painted: the background's lightness (0 black … 255 white), the
 * body's or, where the body lets the page's show through (the tables: common/base.css), the
 * root's.
 */
async function painted(p) {
  return p.page.evaluate(() => {
    const colour = (el) => getComputedStyle(el).backgroundColor.match(/\d+(\.\d+)?/g).map(Number);
    const body = colour(document.body);
    const bg = body.length > 3 && body[3] === 0 ? colour(document.documentElement) : body;
    return { theme: document.documentElement.getAttribute('data-theme'), light: Math.round((bg[0] + bg[1] + bg[2]) / 3) };
  });
}

test('a player chooses the dark or light theme over the device’s, and it holds on every page', { timeout: 90_000 }, async () => {
  await withTable('theme', async (table) => {
    // A device set to light.
    const ada = await table.open('Ada');
    await ada.page.emulateMedia({ colorScheme: 'light' });
    const link = await createTable(ada, table.server, 'Ada');
    let now = await painted(ada);
    assert.equal(now.theme, null, 'no choice yet: the device’s theme');
    assert.ok(now.light > 150, `light by default on a light device (${now.light})`);

    // Dark, chosen at the table: painted at once, and kept across a reload and other pages.
    await ada.page.getByTestId('theme-select').selectOption('dark');
    now = await painted(ada);
    assert.equal(now.theme, 'dark');
    assert.ok(now.light < 80, `dark once chosen (${now.light})`);
    await ada.page.reload();
    await ada.page.getByTestId('phase').waitFor();
    assert.ok((await painted(ada)).light < 80, 'still dark after a reload');
    assert.equal(await ada.page.getByTestId('theme-select').inputValue(), 'dark', 'the menu says so');
    await shot(ada, 'theme-dark-story');

    await ada.page.goto(`${table.server.url}/`);
    assert.ok((await painted(ada)).light < 80, 'the home page is dark too');
    assert.equal(await ada.page.getByTestId('theme-select').inputValue(), 'dark');
    await ada.page.getByTestId('create-name').fill('Ada');
    await ada.page.getByTestId('game-board').check();
    await ada.page.getByTestId('create-table').click();
    await ada.page.getByTestId('lobby').waitFor();
    assert.ok((await painted(ada)).light < 80, 'a board game table is dark too');
    await shot(ada, 'theme-dark-board');

    // Light chosen on a dark device; then "as the device" follows the device again.
    await ada.page.emulateMedia({ colorScheme: 'dark' });
    await ada.page.getByTestId('theme-select').selectOption('light');
    assert.ok((await painted(ada)).light > 150, 'light chosen on a dark device');
    await ada.page.getByTestId('theme-select').selectOption('system');
    now = await painted(ada);
    assert.equal(now.theme, null);
    assert.ok(now.light < 80, `the device's dark again (${now.light})`);
    await ada.page.goto(link);
    await ada.page.getByTestId('phase').waitFor();
    assert.equal(await ada.page.getByTestId('theme-select').inputValue(), 'system');

    assert.deepEqual(consoleErrors(ada), [], 'console errors');
  });
});

for (const [size, viewport] of [['phone', { width: 375, height: 812 }], ['laptop', { width: 1280, height: 800 }]]) {
  test(`the theme menu is as wide as its words, beside them (${size})`, { timeout: 60_000 }, async () => {
    await withTable(`theme-width-${size}`, async (table) => {
      const ada = await table.open('Ada', { viewport });
      const besideItsWord = async (where) => {
        const select = ada.page.getByTestId('theme-select');
        await select.scrollIntoViewIfNeeded();
        const box = await select.boundingBox();
        const label = await ada.page.locator('.theme-menu').boundingBox();
        assert.ok(box.width <= 200, `${where}: the menu is ${box.width} px wide`);
        assert.ok(box.x > label.x + 20, `${where}: the menu is not beside the word "Theme"`);
      };
      await ada.page.goto(`${table.server.url}/`);
      await besideItsWord('the home page');
      await createTable(ada, table.server, 'Ada');
      await besideItsWord('the table');
      assert.deepEqual(consoleErrors(ada), []);
    });
  });
}

