// The board game's icons, copied BY HAND (`npm --prefix e2e run icons`) from game-icons.net's
// set as the `@iconify-json/game-icons` package holds it (CC BY 3.0) into the board's page as
// ONE sprite: a hidden <svg> of <symbol id="i-NAME" viewBox="…">, written into
// `crates/server/assets/board/table.html` between its `icons:begin` and `icons:end` comments,
// and the credits beside it (`ICONS-LICENSE.md`). The build never runs Node: what this writes
// is committed. To change an icon: edit `CHOSEN`, run this, rebuild, look at the board.
//
// The names (`i-NAME`) are the meanings the pages use (board/icons.js lists them for the type
// checker); each says which of the set's icons draws it.

import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const set = require('@iconify-json/game-icons/icons.json');
const info = require('@iconify-json/game-icons/info.json');
const pkg = require('@iconify-json/game-icons/package.json');

/** Our name → the set's icon. */
export const CHOSEN = {
  // The space kinds: the five guilds, the markets, the terrains.
  fortress: 'white-tower',
  'thieves-guild': 'hood',
  'magic-tower': 'evil-tower',
  'forest-camp': 'forest-camp',
  monastery: 'church',
  city: 'medieval-gate',
  village: 'village',
  mountains: 'peaks',
  forest: 'pine-tree',
  plains: 'high-grass',
  'enchanted-wilderness': 'sparkles',
  port: 'anchor',
  'magic-gate': 'magic-gate',
  // The cards.
  creature: 'spiked-dragon-head',
  opportunity: 'chest',
  chance: 'card-random',
  // Items, by the slot they take.
  weapon: 'broadsword',
  'two-handed-weapon': 'two-handed-sword',
  shield: 'round-shield',
  headwear: 'light-helm',
  'hand-item': 'lantern-flame',
  item: 'knapsack',
  // What an adventurer has.
  gold: 'two-coins',
  health: 'hearts',
  magic: 'magic-swirl',
  experience: 'upgrade',
};

const here = dirname(fileURLToPath(import.meta.url));
const board = join(here, '../../crates/server/assets/board');
const PAGE = join(board, 'table.html');
const BEGIN = '<!-- icons:begin (e2e/tools/icons.mjs writes this: do not edit) -->';
const END = '<!-- icons:end -->';

function symbol(name, icon) {
  const found = set.icons[icon];
  if (!found) throw new Error(`${name}: no icon "${icon}" in @iconify-json/game-icons ${pkg.version}`);
  const w = found.width ?? set.width ?? 16;
  const hgt = found.height ?? set.height ?? 16;
  // The set draws in `currentColor` already: a symbol takes the colour of the text around it.
  return `<symbol id="i-${name}" viewBox="${found.left ?? 0} ${found.top ?? 0} ${w} ${hgt}">${found.body}</symbol>`;
}

export function sprite() {
  const symbols = Object.entries(CHOSEN).map(([name, icon]) => symbol(name, icon));
  return [
    BEGIN,
    `<!-- Icons from game-icons.net (${info.author.name}, ${info.author.url}), CC BY 3.0 (${info.license.url}); see ICONS-LICENSE.md -->`,
    '<svg xmlns="http://www.w3.org/2000/svg" class="icon-sprite" width="0" height="0" aria-hidden="true" focusable="false">',
    ...symbols,
    '</svg>',
    END,
  ].join('\n');
}

function credits() {
  const rows = Object.entries(CHOSEN).map(([name, icon]) => `| \`i-${name}\` | ${icon} |`);
  return `# The board's icons

The icons of the board game's page (the sprite written into \`table.html\` between its
\`icons:begin\` and \`icons:end\` comments) are from **game-icons.net**
(https://game-icons.net), by ${info.author.name} (${info.author.url}): the icons of Lorc,
Delapouite and the other authors that project names. They are under the Creative Commons
Attribution 3.0 licence, CC BY 3.0 (https://creativecommons.org/licenses/by/3.0/; the set's own
licence file: ${info.license.url}).

They were copied unchanged (each icon's path, in a \`<symbol>\` of its own) from the npm package
\`@iconify-json/game-icons\` ${pkg.version} by \`e2e/tools/icons.mjs\`
(\`npm --prefix e2e run icons\`), which also writes this file. The page credits them under its
board's Legend, and the README does too.

| symbol | game-icons.net icon |
| --- | --- |
${rows.join('\n')}
`;
}

/** The sprite as the page holds it now (a test compares it with `sprite()`). */
export function written() {
  const page = readFileSync(PAGE, 'utf8');
  const from = page.indexOf(BEGIN);
  const to = page.indexOf(END);
  if (from < 0 || to < from) throw new Error(`${PAGE}: no "${BEGIN}" … "${END}" to write the sprite between`);
  return { page, from, to: to + END.length };
}

// Run as a script (not imported by a test): write the sprite and the credits.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { page, from, to } = written();
  writeFileSync(PAGE, page.slice(0, from) + sprite() + page.slice(to));
  writeFileSync(join(board, 'ICONS-LICENSE.md'), credits());
  console.log(`${Object.keys(CHOSEN).length} icons written into ${PAGE}`);
}
