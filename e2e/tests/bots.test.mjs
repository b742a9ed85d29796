// The board game's bots take names no one at the table has, and that no character bears: a
// creator called Juniper gets Kestrel and Lark, not "Juniper (bot)" or "Bramble (bot)" beside
// Corwin Bramble.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withTable, createGameTable, consoleErrors, inViewport } from './table.mjs';

for (const [size, viewport] of [['phone', { width: 375, height: 800 }], ['laptop', { width: 1280, height: 800 }]]) {
  test(`bots are named unlike the creator and every character (${size})`, { timeout: 60_000 }, async () => {
    await withTable(`bots-${size}`, async (table) => {
      const juniper = await table.open('Juniper', { viewport });
      await createGameTable(juniper, table.server, 'Juniper', 'board', { bots: 2 });
      const seats = juniper.page.getByTestId('seat');
      await juniper.page.waitForFunction(() => document.querySelectorAll('[data-testid="seat"]').length === 3);
      const names = await seats.locator('.seat-name').allTextContents();
      const bots = juniper.page.locator('[data-testid="seat"][data-bot="true"]');
      assert.equal(await bots.count(), 2, `${names}`);
      const content = await juniper.page.evaluate(() => fetch('/games/board/content.json').then((r) => r.json()));
      const words = new Set(content.characters.flatMap((c) => c.name.split(/[\s,]+/)).map((w) => w.toLowerCase()));
      for (const bot of await bots.all()) {
        const name = (await bot.locator('.seat-name').textContent()).trim();
        const first = name.split(' ')[0];
        assert.match(name, / \(bot\)/, name);
        assert.notEqual(first.toLowerCase(), 'juniper', `a bot took the creator's name: ${name}`);
        assert.ok(!words.has(first.toLowerCase()), `${name} shares a word with a character`);
        assert.ok(await inViewport(bot), `${name} is out of view`);
      }
      assert.deepEqual(consoleErrors(juniper), []);
    });
  });
}
