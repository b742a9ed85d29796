// The budget of bytes on the wire (issue 30): a table page of each game, in play with two
// players, opened on a phone (375 px) for the first time receives at most 120 KB, fonts
// included; reloaded, at most 10 KB. Counted as Chromium receives them, through the DevTools
// protocol: every response's `encodedDataLength` (headers and body, compressed as sent) and every
// WebSocket frame received (payload and frame header), until the table is drawn and the network
// is quiet. `e2e/tools/measure.mjs` measures the same and the time to the first view.
// Round trips count as much as bytes on a slow network: the page's modules come as one bundled
// script (with the two small classic scripts in its <head>, three at most).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withTable, seatPlayers, rollProphecy, advance, createGameTable, WAIT } from './table.mjs';

const KB = 1000;
const FIRST_LOAD = 120 * KB;
const RELOAD = 10 * KB;
const SCRIPTS = 3;
const PHONE = { viewport: { width: 375, height: 800 }, isMobile: true, hasTouch: true, deviceScaleFactor: 3 };

/** Bytes of a WebSocket frame received: its payload and its header (the server does not mask). */
function frameBytes({ opcode, payloadData }) {
  const n = opcode === 1 ? Buffer.byteLength(payloadData, 'utf8') : Buffer.from(payloadData, 'base64').length;
  return n + (n < 126 ? 2 : n < 65536 ? 4 : 10);
}

/**
 * Runs `navigate` and counts what the page receives until its table view is drawn and the
 * network is quiet: {total, requests: [{url, bytes, status}], ws}.
 */
async function received(page, cdp, navigate) {
  const requests = new Map();
  let ws = 0;
  const on = {
    'Network.requestWillBeSent': (e) => requests.set(e.requestId, { url: new URL(e.request.url).pathname, bytes: 0 }),
    'Network.responseReceived': (e) => { const r = requests.get(e.requestId); if (r) r.status = e.response.status; },
    'Network.loadingFinished': (e) => { const r = requests.get(e.requestId); if (r) r.bytes = e.encodedDataLength; },
    'Network.webSocketHandshakeResponseReceived': (e) => { ws += Buffer.byteLength(e.response.headersText ?? ''); },
    'Network.webSocketFrameReceived': (e) => { ws += frameBytes(e.response); },
  };
  for (const [event, f] of Object.entries(on)) cdp.on(event, f);
  try {
    await navigate();
    await page.getByTestId('layout').waitFor({ timeout: WAIT });
    await page.waitForLoadState('networkidle');
  } finally {
    for (const [event, f] of Object.entries(on)) cdp.off(event, f);
  }
  const list = [...requests.values()];
  return { total: list.reduce((s, r) => s + r.bytes, 0) + ws, requests: list, ws };
}

/** Opens the table at `url` as a phone with `state` (a seated player's cookie); both loads. */
async function measure(browser, url, state) {
  const context = await browser.newContext({ ...PHONE, storageState: state });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    const first = await received(page, cdp, () => page.goto(url));
    const reload = await received(page, cdp, () => page.reload());
    return { first, reload };
  } finally {
    await context.close();
  }
}

const kb = (n) => `${(n / KB).toFixed(1)} KB`;

function report(game, { first, reload }) {
  const lines = [`${game}: first load ${kb(first.total)} (${first.requests.length} requests, WebSocket ${kb(first.ws)}), reload ${kb(reload.total)} (${reload.requests.length} requests, WebSocket ${kb(reload.ws)})`];
  for (const r of [...first.requests].sort((a, b) => b.bytes - a.bytes)) lines.push(`  ${kb(r.bytes).padStart(9)}  ${r.status ?? '-'}  ${r.url}`);
  lines.push('  reload:');
  for (const r of reload.requests) lines.push(`  ${kb(r.bytes).padStart(9)}  ${r.status ?? '-'}  ${r.url}`);
  console.log(lines.join('\n'));
}

/** Seats two players by `setUp`; the table's address and the first player's cookie. */
async function tableOf(table, setUp) {
  const url = await setUp(table);
  const state = await table.players[0].context.storageState();
  return { url, state };
}

const GAMES = {
  // Two players, the prophecy received, making characters.
  async story(table) {
    const { players: [ada, bo] } = await seatPlayers(table, [{ name: 'Ada' }, { name: 'Bo' }]);
    await rollProphecy(ada);
    await advance(bo, 'characters');
    return ada.page.url();
  },
  // Ada and a bot, the game started and her turn come.
  async board(table) {
    const ada = await table.open('Ada');
    await createGameTable(ada, table.server, 'Ada', 'board', { bots: 1 });
    await ada.page.getByTestId('start-game').click();
    await ada.page.waitForFunction(() => {
      const v = window.prophecy.view();
      return v && v.phase === 'playing' && v.options && v.options.player === v.you;
    }, null, { timeout: WAIT });
    return ada.page.url();
  },
  // A game master and a player who joined.
  async challenge(table) {
    const gm = await table.open('Ada');
    await createGameTable(gm, table.server, 'Ada', 'challenge');
    await gm.page.getByTestId('gm-name').waitFor();
    await gm.page.waitForFunction(() => /\?join=[0-9a-f]{32}$/.test(document.querySelector('[data-testid="invite-link"]')?.value ?? ''));
    const link = await gm.page.getByTestId('invite-link').inputValue();
    const bo = await table.open('Bo');
    await bo.page.goto(link);
    await bo.page.getByTestId('join-name').fill('Bo');
    await bo.page.getByTestId('join-submit').click();
    await bo.page.getByTestId('gm-name').waitFor();
    return gm.page.url();
  },
};

for (const [game, setUp] of Object.entries(GAMES)) {
  test(`a ${game} table on a phone receives at most 120 KB in 3 scripts, and 10 KB when reloaded`, async () => {
    await withTable(`budget-${game}`, async (table) => {
      const { url, state } = await tableOf(table, setUp);
      const figures = await measure(table.browser, url, state);
      report(game, figures);
      assert.ok(figures.first.total <= FIRST_LOAD, `${game}: the first load received ${kb(figures.first.total)}, over ${kb(FIRST_LOAD)}`);
      const scripts = figures.first.requests.filter((r) => r.url.endsWith('.js')).map((r) => r.url);
      assert.ok(scripts.length <= SCRIPTS, `${game}: the first load asked for ${scripts.length} scripts: ${scripts.join(', ')}`);
      assert.ok(figures.reload.total <= RELOAD, `${game}: the reload received ${kb(figures.reload.total)}, over ${kb(RELOAD)}`);
    });
  });
}
