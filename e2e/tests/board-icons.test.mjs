// The board game looks like a board game (issue 31): every space shows its kind's icon, from
// the one sprite in the board's page (game-icons.net, CC BY 3.0, credited under the Legend);
// the Legend, one tap away, says what each icon means; and every icon the board's scripts can
// draw is a symbol of that sprite. On a phone (375 px) and a laptop (1280 px), light and dark.
// ICON_SHOTS=/some/dir keeps screenshots of what was checked.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { withTable, createGameTable, reveal, consoleErrors, view, WAIT } from './table.mjs';
import { CHOSEN, sprite, written } from '../tools/icons.mjs';

const ASSETS = new URL('../../crates/server/assets/', import.meta.url).pathname;
const read = (path) => readFileSync(join(ASSETS, path), 'utf8');

/** The sprite's symbols in the board's page: name → its markup. */
function symbols() {
  const page = read('board/table.html');
  return new Map([...page.matchAll(/<symbol id="i-([\w-]+)" viewBox="[\d. -]+">(.*?)<\/symbol>/g)].map((m) => [m[1], m[2]]));
}

test('every icon the board can draw is a symbol of the sprite, drawn by a path', () => {
  const found = symbols();
  // board/icons.js lists the names its `icon` and `mapIcon` take (the type checker holds every
  // call to that list, map.js's kinds included).
  const list = /export const ICONS = [^[]*\[([\s\S]*?)\]\)/.exec(read('board/icons.js'));
  assert.ok(list, 'board/icons.js lists ICONS');
  const names = [...list[1].matchAll(/'([\w-]+)'/g)].map((m) => m[1]);
  assert.ok(names.length >= 20, `${names.length} icons`);
  for (const name of names) {
    assert.ok(found.has(name), `no symbol i-${name} in board/table.html`);
    assert.match(found.get(name), /<path [^>]*\bd="[^"]{20,}"/, `i-${name} draws nothing`);
  }
  // Each kind of space has its own icon, named in that list.
  const kinds = [...read('board/map.js').matchAll(/^ {2}'?([\w-]+)'?: \{ label: '[^']*', icon: '([\w-]+)'/gm)].map((m) => [m[1], m[2]]);
  const spaceKinds = /export type SpaceKind = Guild \| Terrain \| ([^;]+);/.exec(read('board/view-types.d.ts'));
  const guildsAndTerrains = [...read('board/view-types.d.ts').matchAll(/export type (?:Guild|Terrain) = ([^;]+);/g)].map((m) => m[1]).join(' | ');
  const every = [...`${guildsAndTerrains} | ${spaceKinds[1]}`.matchAll(/'([\w-]+)'/g)].map((m) => m[1]);
  assert.deepEqual(kinds.map(([k]) => k).sort(), every.sort(), 'map.js gives every kind of space an icon');
  for (const [kind, name] of kinds) assert.ok(names.includes(name), `${kind}: ${name} is not in ICONS`);
  assert.equal(new Set(kinds.map(([, n]) => n)).size, kinds.length, 'two kinds share an icon');
  // No script names a symbol but through board/icons.js.
  for (const dir of ['board', 'common']) {
    for (const file of readdirSync(join(ASSETS, dir)).filter((f) => f.endsWith('.js') && f !== 'icons.js')) {
      assert.doesNotMatch(read(`${dir}/${file}`), /['"`]#i-/, `${dir}/${file} names a symbol itself`);
    }
  }
  // The sprite is the one e2e/tools/icons.mjs writes from its choices, and holds only those.
  assert.deepEqual([...found.keys()].sort(), Object.keys(CHOSEN).sort());
  assert.deepEqual(names.slice().sort(), Object.keys(CHOSEN).sort(), 'board/icons.js and the tool list the same icons');
  const { page, from, to } = written();
  assert.equal(page.slice(from, to), sprite(), 'the sprite in board/table.html is not what `npm run icons` writes now');
  // Credited beside the sprite and in the README.
  const credits = read('board/ICONS-LICENSE.md');
  assert.match(credits, /game-icons\.net/);
  assert.match(credits, /CC BY 3\.0/);
  assert.match(readFileSync(new URL('../../README.md', import.meta.url), 'utf8'), /game-icons\.net[\s\S]{0,200}CC BY 3\.0/);
});

const SIZES = [
  ['phone', { viewport: { width: 375, height: 812 } }],
  ['laptop', { viewport: { width: 1280, height: 800 } }],
];

/** What each space's face draws: its kind, and its icon's symbol (a path, drawn at a size). */
function drawnIcons(page) {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll('[data-testid="board"] .cell')).map((cell) => {
      const kind = cell.querySelector('[data-testid="space"]').getAttribute('data-kind');
      const use = cell.querySelector('use.kind-icon');
      const href = use && use.getAttribute('href');
      const symbol = href && document.getElementById(href.slice(1));
      const d = symbol && symbol.localName === 'symbol' ? symbol.querySelector('path')?.getAttribute('d') : null;
      const box = use ? use.getBoundingClientRect() : { width: 0, height: 0 };
      return { kind, href, path: d ? d.length : 0, width: box.width, height: box.height };
    }),
  );
}

/** The Legend's entries: which, their words, their icon's symbol, where they are. */
function legendEntries(page) {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll('[data-testid="legend-entry"]')).map((li) => {
      const href = li.querySelector('use')?.getAttribute('href');
      const symbol = href && document.getElementById(href.slice(1));
      const box = li.getBoundingClientRect();
      return { entry: li.getAttribute('data-entry'), text: li.textContent, symbol: !!symbol && !!symbol.querySelector('path[d]'), left: box.left, right: box.right, width: box.width };
    }),
  );
}

for (const [size, options] of SIZES) {
  test(`on a ${size}, the board shows each space's icon and the Legend says what they mean`, { timeout: 120_000 }, async () => {
    await withTable(`board-icons-${size}`, async (table) => {
      const ada = await table.open('Ada', options);
      await createGameTable(ada, table.server, 'Ada', 'board', { bots: 1 });
      await ada.page.getByTestId('start-game').click();
      await ada.page.waitForFunction(() => window.prophecy.view()?.phase === 'playing', null, { timeout: WAIT });
      const board = await reveal(ada, ada.page.getByTestId('board'));
      await board.waitFor();
      const content = await ada.page.evaluate(() => window.prophecy.content());
      const width = options.viewport.width;

      // Every space draws its kind's icon: a symbol of the sprite with a path, at a visible
      // size; one icon for each kind, and a different one for each.
      const drawn = await drawnIcons(ada.page);
      assert.equal(drawn.length, content.board.length);
      const byKind = new Map();
      for (const d of drawn) {
        assert.ok(d.href && d.path > 20, `${d.kind}: no icon drawn (${JSON.stringify(d)})`);
        assert.ok(Math.max(d.width, d.height) >= 14, `${d.kind}: its icon is ${d.width}×${d.height} px`);
        if (byKind.has(d.kind)) assert.equal(d.href, byKind.get(d.kind), `${d.kind}: two icons`);
        byKind.set(d.kind, d.href);
      }
      assert.equal(new Set(byKind.values()).size, byKind.size, 'two kinds of space share an icon');

      // The Legend opens with one tap, in view, and names every kind on the board with its
      // icon and words, and the cards' and Items' icons; nothing wider than the screen.
      const legend = ada.page.getByTestId('legend');
      assert.equal(await legend.getAttribute('open'), null, 'the Legend starts closed');
      await ada.page.getByTestId('legend-toggle').click();
      await ada.page.waitForFunction(() => document.querySelector('[data-testid="legend"]')?.open === true);
      const entries = await legendEntries(ada.page);
      const labels = await ada.page.getByTestId('space').evaluateAll((els) => Object.fromEntries(els.map((e) => [e.getAttribute('data-kind'), e.getAttribute('aria-label').split('; ')[1]])));
      for (const kind of byKind.keys()) {
        const entry = entries.find((e) => e.entry === kind);
        assert.ok(entry, `the Legend has no ${kind}`);
        assert.ok(entry.symbol, `${kind}: the Legend's icon is no symbol`);
        assert.ok(entry.text.includes(labels[kind]), `${kind}: "${entry.text}" does not say "${labels[kind]}"`);
        assert.ok(entry.text.length > labels[kind].length + 10, `${kind}: the Legend does not say what is done there`);
      }
      for (const name of ['port', 'magic-gate', 'creature', 'opportunity', 'weapon', 'shield', 'headwear', 'item']) {
        assert.ok(entries.some((e) => e.entry === name && e.symbol), `the Legend has no ${name}`);
      }
      for (const e of entries) assert.ok(e.left >= 0 && e.right <= width && e.width > 0, `${e.entry} is outside the screen: ${e.left}–${e.right}`);
      const first = ada.page.getByTestId('legend-entry').first();
      assert.ok(await first.evaluate((el) => { const r = el.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }), 'the opened Legend is out of view');
      assert.ok((await ada.page.evaluate(() => document.documentElement.scrollWidth)) <= width, 'the page is wider than the screen');

      // The icons' credit, with the licence.
      const credit = ada.page.getByTestId('icon-credit');
      assert.match(await credit.textContent(), /Icons: game-icons\.net.*CC BY 3\.0/);
      assert.equal(await credit.locator('a[href="https://creativecommons.org/licenses/by/3.0/"]').count(), 1);

      await keepShots(ada, size);
      // The space detail, and its Adventure card drawn as a card, when one lies on the board.
      const v = await view(ada);
      const at = v.spaces.findIndex((s) => s.adventure !== null);
      if (at >= 0) {
        await ada.page.locator(`[data-testid="space"][data-space-id="${at}"]`).click();
        const card = ada.page.locator('[data-testid="space-detail"] [data-testid="space-adventure"]');
        await card.waitFor();
        assert.equal(await card.locator('.card-head use').count(), 1, 'the Adventure card has no icon');
      }
      assert.deepEqual(consoleErrors(ada), []);
    });
  });
}

/** With ICON_SHOTS set: the board, light and dark, and the space detail, into that folder. */
async function keepShots(p, size) {
  const dir = process.env.ICON_SHOTS;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  for (const scheme of ['light', 'dark']) {
    await p.page.emulateMedia({ colorScheme: scheme });
    await p.page.screenshot({ path: join(dir, `board-${size}-${scheme}.png`), fullPage: true });
  }
  await p.page.emulateMedia({ colorScheme: 'light' });
}
