// Accessibility (issue 30): axe-core checks every page at WCAG 2.2 AA — the home page (with a
// table on its list), the join page, the story game's table as it opens and each game's table in
// play, a published story and the rulings — on a phone (375 px) and a laptop (1280 px), in the
// light and the dark theme (the device's, emulated), and must find nothing. On a phone each of
// the table's views is checked in turn, as a thumb shows it. axe runs inside the page, from the
// npm package's own file (no CDN): a failure lists each rule broken, its impact and the
// elements that break it, with where they were found.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import {
  createGameTable, withTable, createTable, inviteLink, gameToStory, startScene, proposePair, makeCheck, accepted,
  aspectId, panel, sameSeq, tid, view, reveal, consoleErrors, othersAgree,
} from './table.mjs';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const SIZES = [{ width: 375, height: 812 }, { width: 1280, height: 900 }];
const THEMES = ['light', 'dark'];

/** Waits for two frames: what a resize or a change of theme re-renders is drawn. */
const drawn = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

/** axe's violations on the page as it is now: [{id, impact, help, nodes: [text]}]. */
async function violations(page) {
  // Evaluated through the debugger, as the page's own security policy would refuse an inline
  // script; loaded again only when the page was reloaded or left.
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.evaluate(`${AXE}\n;0`);
  return page.evaluate(async (tags) => {
    const result = await window.axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    // Each element: its selector, its markup's start, and why it fails (a contrast's colours).
    const why = (n) => (n.failureSummary || '').split('\n').slice(1).map((l) => l.trim()).join(' ');
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => `${n.target.join(' ')}  ${n.html.slice(0, 140)}${why(n) ? `\n        ${why(n)}` : ''}`),
    }));
  }, TAGS);
}

/** The phone's views of a table page (their tab buttons' ids), or [''] for a page without. */
async function tabs(page) {
  const ids = await page.locator('[data-testid="tabbar"] [data-testid^="tab-"]').evaluateAll((els) =>
    els.filter((e) => e.checkVisibility()).map((e) => e.getAttribute('data-testid')),
  );
  return ids.length ? ids : [''];
}

/**
 * Checks `p`'s page at every size and theme, each phone view in turn; adds what axe finds to
 * `found`: rule → element → where (the size, theme and view it was found at).
 */
async function audit(p, name, found) {
  for (const size of SIZES) {
    await p.page.setViewportSize(size);
    for (const theme of THEMES) {
      await p.page.emulateMedia({ colorScheme: theme });
      await drawn(p.page);
      for (const tab of await tabs(p.page)) {
        if (tab) await p.page.getByTestId(tab).click();
        await drawn(p.page);
        for (const v of await violations(p.page)) {
          const rule = `${name}: ${v.id} (${v.impact}): ${v.help}`;
          if (!found.has(rule)) found.set(rule, new Map());
          for (const node of v.nodes) {
            const where = found.get(rule);
            if (!where.has(node)) where.set(node, []);
            where.get(node).push(`${size.width} px ${theme}${tab ? ` (view ${tab.slice(4)})` : ''}`);
          }
        }
      }
    }
  }
}

/** Fails with every violation found: each rule, then its elements, grouped by where. */
function nothingFound(found) {
  const lines = [...found].map(([rule, nodes]) => {
    const byWhere = new Map();
    for (const [node, where] of nodes) {
      const key = where.join(', ');
      byWhere.set(key, [...(byWhere.get(key) || []), node]);
    }
    return `${rule}\n${[...byWhere].map(([where, els]) => `    at ${where}:\n      ${els.join('\n      ')}`).join('\n')}`;
  });
  assert.equal(lines.length, 0, `axe found ${lines.length} kind(s) of violation of WCAG 2.2 AA:\n  ${lines.join('\n  ')}`);
}

test('the home page, the join page and the rulings: nothing at WCAG 2.2 AA', { timeout: 90_000 }, async () => {
  await withTable('a11y-pages', async (table) => {
    const found = new Map();
    // A visitor who made a table: the home page lists it.
    const ada = await table.open('Ada');
    const link = await createTable(ada, table.server, 'Ada');
    // The story game's table as it opens: the prophecy is to be received.
    await audit(ada, 'the story game’s table (the prophecy)', found);
    await ada.page.goto(`${table.server.url}/`);
    await ada.page.getByTestId('table-list').locator('li').first().waitFor();
    await audit(ada, 'the home page', found);
    // Someone new opens the invitation.
    const bo = await table.open('Bo');
    await bo.page.goto(link);
    await bo.page.getByTestId('join-name').waitFor();
    await audit(bo, 'the join page', found);
    const rulings = await bo.page.goto(`${table.server.url}/rulings`);
    assert.equal(rulings.status(), 200);
    await audit(bo, 'the rulings', found);
    nothingFound(found);
    for (const p of [ada, bo]) assert.deepEqual(consoleErrors(p), [], `${p.name}'s console errors`);
  });
});

test('the story game in play: nothing at WCAG 2.2 AA', { timeout: 90_000 }, async () => {
  await withTable('a11y-story', async (table) => {
    const found = new Map();
    const { players, precursor } = await gameToStory(table, [{ name: 'Ada' }, { name: 'Bo' }]);
    const [ada, bo] = players;
    // A scene in play: a pair from each player, and the check made.
    await startScene(ada, precursor);
    await proposePair(ada, await aspectId(ada, 'Smuggler'), await aspectId(ada, 'Flooded stacks'), 'She knows the water');
    await proposePair(bo, await aspectId(bo, 'Archivist'), await aspectId(bo, 'Unguarded at dawn'), 'He walks in with the scholars');
    await makeCheck(ada);
    await panel(ada).getByTestId('check-result').waitFor();
    await audit(ada, 'the story game’s table', found);
    // A watcher's page and its stream layout, and a player's replay.
    await accepted(ada, 'propose to let people watch', async () => (await reveal(ada, ada.page.getByTestId('open-watch-link'))).click());
    await othersAgree(ada, 'let people watch');
    const link = await (await reveal(ada, ada.page.getByTestId('open-watch'))).getAttribute('href');
    const cy = await table.open('Cy');
    await cy.page.goto(link);
    await cy.page.getByTestId('watching-banner').waitFor();
    await audit(cy, 'a watcher’s page', found);
    await cy.page.goto(`${link}?layout=stream`);
    await cy.page.getByTestId('stream').waitFor();
    await audit(cy, 'the stream layout', found);
    await (await reveal(ada, ada.page.getByTestId('open-replay'))).click();
    await ada.page.getByTestId('replay-bar').waitFor();
    await audit(ada, 'a replay', found);
    nothingFound(found);
    for (const p of players) assert.deepEqual(consoleErrors(p), [], `${p.name}'s console errors`);
  });
});

/** Waits until it is `p`'s turn at the board game with a button to press. */
async function boardTurn(p) {
  await p.page.waitForFunction(() => {
    const v = window.prophecy.view();
    const turn = document.querySelector('[data-testid="turn"][data-mine="true"]');
    return !!(v && v.options && v.options.player === v.you && turn && turn.querySelector('button:not([disabled])') && window.prophecy.connected());
  });
}

test('the board game in play: nothing at WCAG 2.2 AA', { timeout: 90_000 }, async () => {
  await withTable('a11y-board', async (table) => {
    const found = new Map();
    const ada = await table.open('Ada');
    await createGameTable(ada, table.server, 'Ada', 'board', { bots: 1 });
    await ada.page.getByTestId('lobby').waitFor();
    await inviteLink(ada);
    await audit(ada, 'the board game’s lobby', found);
    await accepted(ada, 'start the game', () => ada.page.getByTestId('start-game').click());
    // Her turn, with its moves on the board (a Chance card drawn first when the turn asks).
    await boardTurn(ada);
    if ((await view(ada)).options.draw_chance) {
      await accepted(ada, 'draw a Chance card', () => ada.page.locator(tid('turn', { mine: 'true' })).getByTestId('draw-chance').click());
      await boardTurn(ada);
    }
    await ada.page.locator(tid('move')).first().waitFor({ state: 'attached' });
    await audit(ada, 'the board game’s table', found);
    // The Legend open: every icon with its words, and the icons' credit.
    const legend = await reveal(ada, ada.page.getByTestId('legend-toggle'));
    await legend.click();
    await ada.page.getByTestId('icon-credit').waitFor();
    await audit(ada, 'the board game’s Legend', found);
    nothingFound(found);
    assert.deepEqual(consoleErrors(ada), []);
  });
});

test('the Challenge rules in play: nothing at WCAG 2.2 AA', { timeout: 90_000 }, async () => {
  await withTable('a11y-challenge', async (table) => {
    const found = new Map();
    const gm = await table.open('Gina');
    await createGameTable(gm, table.server, 'Gina', 'challenge');
    await gm.page.getByTestId('gm-panel').waitFor();
    const link = await inviteLink(gm);
    const ada = await table.open('Ada');
    await ada.page.goto(link);
    await ada.page.getByTestId('join-name').fill('Ada');
    await ada.page.getByTestId('join-submit').click();
    await ada.page.getByTestId('gm-name').waitFor();
    // Her sheet.
    await (await reveal(ada, ada.page.getByTestId('create-sheet'))).click();
    const form = ada.page.getByTestId('sheet-form');
    await form.getByTestId('sheet-name').fill('Mira');
    await form.getByTestId('sheet-concept').fill('A smith’s daughter who lifts gates');
    for (const [a, n] of Object.entries({ knowledge: 1, awareness: 1, charisma: 1, physicality: 2 })) await form.locator(tid('aptitude-input', { aptitude: a })).fill(String(n));
    await form.locator(tid('skill-check', { skill: 'might' })).check();
    await accepted(ada, 'make Mira', () => form.getByTestId('save-sheet').click());
    await sameSeq([gm, ada]);
    const mira = (await view(ada)).characters.find((c) => c.sheet.name === 'Mira').id;
    // One challenge rolled, and one called: its odds wait for her choice.
    const call = async (description) => {
      const gmPanel = gm.page.getByTestId('gm-panel');
      await gmPanel.getByTestId('challenge-character').selectOption(String(mira));
      await gmPanel.getByTestId('challenge-description').fill(description);
      await gmPanel.getByTestId('challenge-aptitude').selectOption('physicality');
      await accepted(gm, `call “${description}”`, () => gmPanel.getByTestId('call-challenge').click());
      await sameSeq([gm, ada]);
      return ada.page.locator(tid('open-challenge', { mine: 'true' }));
    };
    const first = await call('Force the gate');
    await accepted(ada, 'roll', async () => (await reveal(ada, first.getByTestId('roll-challenge'))).click());
    await sameSeq([gm, ada]);
    await (await call('Hold the gate')).waitFor();
    await audit(ada, 'the Challenge rules’ table (a player)', found);
    await audit(gm, 'the Challenge rules’ table (the game master)', found);
    // The game master publishes the story (at once, in these rules); anyone with the link reads it.
    await gm.page.getByTestId('publish-story').click();
    const shared = await gm.page.getByTestId('open-shared').getAttribute('href');
    const reader = await table.open('Reader');
    assert.equal((await reader.page.goto(shared)).status(), 200);
    await audit(reader, 'the published story', found);
    nothingFound(found);
    for (const p of [gm, ada, reader]) assert.deepEqual(consoleErrors(p), [], `${p.name}'s console errors`);
  });
});

test('pass the phone: the bar of a device’s players and the pass screen: nothing at WCAG 2.2 AA', { timeout: 90_000 }, async () => {
  await withTable('a11y-pass', async (table) => {
    const found = new Map();
    const ada = await table.open('Ada');
    await createTable(ada, table.server, 'Ada');
    await (await reveal(ada, ada.page.getByTestId('add-here'))).click();
    await ada.page.getByTestId('add-here-name').fill('Bo');
    await ada.page.getByTestId('add-here-submit').click();
    await ada.page.getByTestId('device-bar').waitFor();
    await audit(ada, 'a story table on one device', found);
    await (await reveal(ada, ada.page.locator(tid('device-seat', { 'player-id': 2 })))).click();
    await ada.page.getByTestId('pass-screen').waitFor();
    await audit(ada, 'the pass screen', found);
    nothingFound(found);
    assert.deepEqual(consoleErrors(ada), []);
  });
});
