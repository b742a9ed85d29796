// Checks the pages' hand-written types against what pages really receive: the samples that the
// server's tests write (crates/server/tests/it/samples.rs) to target/view-samples/{game}/, each
// page's messages and views, and what it fetches over HTTP. Each sample becomes a TypeScript
// file that gives the JSON the page's type (`const views: BoardView[] = [...]`, so literal
// unions and missing or extra members are checked), and `tsc --noEmit` checks them all.
// Fails on any mismatch, and when a game has no samples (run `cargo test -p server` first).
//
// Usage: node tools/check-views.mjs   (VIEW_SAMPLES=folder to read samples from elsewhere)

import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const e2e = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const root = resolve(e2e, '..');
const assets = join(root, 'crates/server/assets');
const target = process.env.CARGO_TARGET_DIR ? resolve(process.env.CARGO_TARGET_DIR) : join(root, 'target');
const samples = process.env.VIEW_SAMPLES ? resolve(process.env.VIEW_SAMPLES) : join(target, 'view-samples');

/** Each game's types: its view, its `own`, and its content (null when it has none). */
const GAMES = {
  story: { view: 'StoryView', own: 'StoryOwn', content: 'StoryContent' },
  board: { view: 'BoardView', own: 'BoardOwn', content: 'BoardContent' },
  challenge: { view: 'ChallengeView', own: 'ChallengeOwn', content: null },
};

const out = join(samples, '.typed');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

const problems = [];
const files = [];
for (const [game, types] of Object.entries(GAMES)) {
  const dir = join(samples, game);
  const names = existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith('.json')) : [];
  const pages = names.filter((n) => n !== 'http.json');
  if (!pages.length) problems.push(`${game}: no samples of a page's messages in ${dir}`);
  if (!names.includes('http.json')) problems.push(`${game}: no http.json in ${dir}`);
  const head = [
    `import type { ${types.view}, ${types.own}${types.content ? `, ${types.content}` : ''} } from '${join(assets, game, 'view-types')}';`,
    `import type { ServerMessage, Me, Invite, Summary } from '${join(assets, 'common/messages')}';`,
    '',
  ].join('\n');
  for (const name of names) {
    const sample = JSON.parse(readFileSync(join(dir, name), 'utf8'));
    let body;
    if (name === 'http.json') {
      const content = types.content ? `content: ${types.content};` : 'content?: never;';
      body = `export const http: { ${content} me: Me; invite: Invite; summary: Summary } = ${JSON.stringify(sample, null, 1)};\n`;
    } else {
      if (!sample.messages.length || !sample.views.length) problems.push(`${game}/${name}: no messages or no views`);
      body = [
        `export const views: ${types.view}[] = ${JSON.stringify(sample.views, null, 1)};`,
        `export const messages: ServerMessage<${types.view}, ${types.own}>[] = ${JSON.stringify(sample.messages, null, 1)};`,
        '',
      ].join('\n');
    }
    const file = join(out, `${game}-${name.replace(/\.json$/, '')}.ts`);
    writeFileSync(file, head + body);
    files.push(file);
  }
}
if (problems.length) {
  console.error(problems.join('\n'));
  console.error('The samples are written by `cargo test -p server` (crates/server/tests/it/samples.rs).');
  process.exit(1);
}

writeFileSync(
  join(out, 'tsconfig.json'),
  JSON.stringify({
    compilerOptions: { strict: true, noEmit: true, target: 'ES2022', module: 'ES2022', moduleResolution: 'bundler', lib: ['ES2022'], types: [] },
    files,
  }),
);
const tsc = spawnSync(join(e2e, 'node_modules/.bin/tsc'), ['-p', join(out, 'tsconfig.json')], { stdio: 'inherit' });
if (tsc.status !== 0) {
  console.error(`The pages' types do not take what the server sent (the samples in ${samples}).`);
  process.exit(1);
}
console.log(`The pages' types take every sample: ${files.length} files of ${Object.keys(GAMES).length} games.`);
