// What a phone receives and how soon it draws a table, for each game: the figures issue 30's
// front-end work is judged by (before and after). Not a test: it asserts nothing, and
// `npm test` does not run it.
//
//   cd e2e && npm run measure -- --bin ../target/release/prophecy --out /tmp/measure.json
//
// Options: --bin PATH (the prophecy binary; default ../target/debug/prophecy, or PROPHECY_BIN),
// --out FILE (the JSON report), --runs N (timed runs per game, default 3).
//
// For each game (story table with a prophecy and one character; board table with two bots, the
// game started and her turn come; Challenge table as its GM) it seats a player through the home
// page, then opens the table page in fresh browser contexts with that player's cookie, as a
// phone: 375 × 800 CSS px, touch, device pixel ratio 3.
// - Bytes: a first load with an empty cache, then a reload in the same context (warm cache).
//   HTTP: each request's `encodedDataLength` at `Network.loadingFinished` (headers and body as
//   received), until the network is idle. WebSocket: the frames received (payload plus frame
//   header) until the page has drawn the table view. No throttling (the bytes are the same).
// - Time to the first drawn table view, with DevTools' "Slow 4G" and the CPU slowed ×4: from
//   navigation start to the first frame painted holding `[data-testid="layout"]` (every game's
//   table view; the page draws it only from the server's `sync`). Each of `--runs` runs is a
//   fresh context (first load), then a reload in it; the report gives the median of each.
//   Chromium delays the WebSocket handshake like any request, but not the frames after it.

import { parseArgs } from 'node:util';
import { existsSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';

function usage(message) {
  console.error(`measure: ${message}`);
  process.exit(2);
}

let opts;
try {
  ({ values: opts } = parseArgs({
    options: { bin: { type: 'string' }, out: { type: 'string' }, runs: { type: 'string', default: '3' } },
  }));
} catch (e) {
  usage(e.message);
}
if (opts.bin) process.env.PROPHECY_BIN = resolve(opts.bin);
const RUNS = Number(opts.runs);
if (!Number.isInteger(RUNS) || RUNS < 1) usage(`--runs: a whole number of runs, at least 1 (not ${opts.runs})`);
// After PROPHECY_BIN is set: the harness reads it when loaded.
const { BIN, Server, launchBrowser, player } = await import('../tests/harness.mjs');
if (!existsSync(BIN)) usage(`there is no prophecy binary at ${BIN} (build it, or give --bin PATH)`);
const { createTable, createGameTable, rollProphecy, advance, createCharacter } = await import('../tests/table.mjs');

/**
 * Chrome DevTools' "Slow 4G" preset (devtools-frontend, front_end/core/sdk/NetworkManager.ts,
 * `Slow4GConditions`; the same as Lighthouse's mobile throttling): a 150 ms RTT target ×3.75
 * request latency, 1.6 Mbit/s ×0.9 down, 750 kbit/s ×0.9 up.
 */
const SLOW_4G = { offline: false, latency: 150 * 3.75, downloadThroughput: (1.6e6 / 8) * 0.9, uploadThroughput: (750e3 / 8) * 0.9 };
const CPU_SLOWDOWN = 4;
const PHONE = { viewport: { width: 375, height: 800 }, isMobile: true, hasTouch: true, deviceScaleFactor: 3 };
const DRAWN = '[data-testid="layout"]';
const WAIT = 60_000;

// ---------------------------------------------------------------- seating a player

async function storyTable(p, server) {
  await createTable(p, server, 'Ada');
  await rollProphecy(p);
  await advance(p, 'characters');
  await createCharacter(p, 'Wren');
}

async function boardTable(p, server) {
  await createGameTable(p, server, 'Ada', 'board', { bots: 2 });
  await p.page.getByTestId('start-game').click();
  // The bots play until it is her turn; then the table waits for her and does not change.
  await p.page.waitForFunction(() => {
    const v = window.prophecy.view();
    return v && v.phase === 'playing' && v.options && v.options.player === v.you;
  }, null, { timeout: WAIT });
}

async function challengeTable(p, server) {
  await createGameTable(p, server, 'Ada', 'challenge');
  await p.page.getByTestId('gm-name').waitFor();
}

const GAMES = { story: storyTable, board: boardTable, challenge: challengeTable };

/** Seats a player with `setUp`; the table's address and her cookie (a storage state). */
async function seat(browser, server, setUp) {
  const p = await player(browser);
  p.name = 'Ada';
  p.page.setDefaultTimeout(WAIT);
  await setUp(p, server);
  await p.page.waitForURL(/\/t\/[0-9a-f]{32}$/);
  const url = p.page.url();
  const state = await p.context.storageState();
  await p.context.close();
  return { url, state };
}

// ---------------------------------------------------------------- one visit, on the wire

/** Bytes of a frame received: its payload and its header (the server does not mask). */
function frameBytes({ opcode, payloadData }) {
  const n = opcode === 1 ? Buffer.byteLength(payloadData, 'utf8') : Buffer.from(payloadData, 'base64').length;
  return n + (n < 126 ? 2 : n < 65536 ? 4 : 10);
}

/**
 * Runs `navigate` (a goto or a reload) and records, through the CDP session `cdp`, every
 * request's bytes and the WebSocket frames until the table view is drawn; `idle`: also waits
 * for the network to go quiet (for the bytes of what comes after the view, e.g. fonts).
 */
async function visit(page, cdp, navigate, { idle }) {
  const requests = new Map();
  const ws = { frames: 0, bytes: 0 };
  let counting = true;
  const on = {
    'Network.requestWillBeSent': (e) => requests.set(e.requestId, { url: new URL(e.request.url).pathname, type: e.type, bytes: 0, done: false }),
    'Network.responseReceived': (e) => {
      const r = requests.get(e.requestId);
      if (r) Object.assign(r, { status: e.response.status, encoding: e.response.headers['content-encoding'] ?? e.response.headers['Content-Encoding'] ?? null, cache: e.response.headers['cache-control'] ?? null });
    },
    'Network.loadingFinished': (e) => {
      const r = requests.get(e.requestId);
      if (r) Object.assign(r, { bytes: e.encodedDataLength, done: true });
    },
    'Network.loadingFailed': (e) => {
      const r = requests.get(e.requestId);
      if (r) Object.assign(r, { failed: e.errorText, done: true });
    },
    'Network.webSocketHandshakeResponseReceived': (e) => {
      if (counting) ws.bytes += e.response.headersText ? Buffer.byteLength(e.response.headersText) : 0;
    },
    'Network.webSocketFrameReceived': (e) => {
      if (!counting) return;
      ws.frames += 1;
      ws.bytes += frameBytes(e.response);
    },
  };
  for (const [event, f] of Object.entries(on)) cdp.on(event, f);
  try {
    await navigate();
    await page.waitForFunction(() => window.__drawn !== undefined, null, { timeout: WAIT, polling: 50 });
    counting = false;
    const marks = await page.evaluate(() => ({ drawn: window.__drawn, fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null }));
    if (idle) await page.waitForLoadState('networkidle');
    const list = [...requests.values()].filter((r) => r.done);
    const http = list.reduce((s, r) => s + r.bytes, 0);
    const byType = {};
    for (const r of list) byType[r.type] = (byType[r.type] ?? 0) + r.bytes;
    return {
      drawnMs: Math.round(marks.drawn),
      fcpMs: marks.fcp === null ? null : Math.round(marks.fcp),
      httpBytes: http,
      wsBytes: ws.bytes,
      wsFrames: ws.frames,
      totalBytes: http + ws.bytes,
      requests: list.length,
      byType,
      top: list.sort((a, b) => b.bytes - a.bytes).slice(0, 10).map(({ done, ...r }) => r),
    };
  } finally {
    for (const [event, f] of Object.entries(on)) cdp.off(event, f);
  }
}

/**
 * Marks the moment the table view is drawn: once the element appears, the task after the next
 * animation frame runs when that frame's style, layout and paint are done.
 */
function markDrawn(selector) {
  const seen = () => {
    if (!document.querySelector(selector)) return;
    observer.disconnect();
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => { window.__drawn = performance.now(); };
      channel.port2.postMessage(null);
    });
  };
  const observer = new MutationObserver(seen);
  observer.observe(document, { childList: true, subtree: true });
}

/** A fresh context as a phone, with the player's cookie; its page and a CDP session on it. */
async function phone(browser, state, throttled) {
  const context = await browser.newContext({ ...PHONE, storageState: state });
  await context.addInitScript(markDrawn, DRAWN);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  if (throttled) {
    await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  }
  return { context, page, cdp };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

async function measureGame(browser, url, state) {
  const bytes = await phone(browser, state, false);
  const firstLoad = await visit(bytes.page, bytes.cdp, () => bytes.page.goto(url, { waitUntil: 'commit' }), { idle: true });
  const reload = await visit(bytes.page, bytes.cdp, () => bytes.page.reload({ waitUntil: 'commit' }), { idle: true });
  await bytes.context.close();
  const timed = { firstLoad: [], reload: [] };
  for (let i = 0; i < RUNS; i++) {
    const t = await phone(browser, state, true);
    timed.firstLoad.push(await visit(t.page, t.cdp, () => t.page.goto(url, { waitUntil: 'commit' }), { idle: true }));
    timed.reload.push(await visit(t.page, t.cdp, () => t.page.reload({ waitUntil: 'commit' }), { idle: false }));
    await t.context.close();
  }
  const summary = (key) => Object.fromEntries(Object.entries(timed).map(([load, visits]) => {
    const runs = visits.map((v) => v[key]);
    return [load, { median: median(runs), runs }];
  }));
  // fcp: the first paint of anything, i.e. the "Loading the table…" page.
  return { firstLoad, reload, drawnMs: summary('drawnMs'), fcpMs: summary('fcpMs') };
}

// ---------------------------------------------------------------- the report

const kb = (n) => (n / 1024).toFixed(1);

function table(report) {
  const rows = [
    'Bytes received (KiB): HTTP + WebSocket = total (requests)',
    `${'game'.padEnd(10)} ${'first load'.padEnd(34)} reload`,
  ];
  const bytes = (v) => `${kb(v.httpBytes)} + ${kb(v.wsBytes)} = ${kb(v.totalBytes)} (${v.requests})`;
  for (const [game, g] of Object.entries(report.games)) rows.push(`${game.padEnd(10)} ${bytes(g.firstLoad).padEnd(34)} ${bytes(g.reload)}`);
  rows.push('', `Time to the first drawn table view, median of ${RUNS} (ms), Slow 4G + CPU ×${CPU_SLOWDOWN}`);
  rows.push(`${'game'.padEnd(10)} ${'first load [runs]'.padEnd(34)} reload [runs]`);
  const time = (t) => `${t.median} [${t.runs.join(', ')}]`;
  for (const [game, g] of Object.entries(report.games)) rows.push(`${game.padEnd(10)} ${time(g.drawnMs.firstLoad).padEnd(34)} ${time(g.drawnMs.reload)}`);
  rows.push('', 'First contentful paint ("Loading the table…"), median (ms), same runs');
  for (const [game, g] of Object.entries(report.games)) rows.push(`${game.padEnd(10)} ${time(g.fcpMs.firstLoad).padEnd(34)} ${time(g.fcpMs.reload)}`);
  for (const [game, g] of Object.entries(report.games)) {
    rows.push('', `${game}, first load: bytes by type: ${Object.entries(g.firstLoad.byType).map(([t, n]) => `${t} ${kb(n)}`).join(', ')}`);
    for (const r of g.firstLoad.top) rows.push(`  ${kb(r.bytes).padStart(6)} KiB  ${r.type.padEnd(10)} ${r.url}`);
  }
  return rows.join('\n');
}

const server = await Server.start(undefined, { args: ['--bot-pause-ms', '20'] });
let browser;
try {
  browser = await launchBrowser();
  const report = {
    date: new Date().toISOString(),
    bin: BIN,
    chromium: browser.version(),
    phone: PHONE,
    network: { ...SLOW_4G, preset: 'Chrome DevTools "Slow 4G" (devtools-frontend front_end/core/sdk/NetworkManager.ts, Slow4GConditions)' },
    cpuSlowdown: CPU_SLOWDOWN,
    drawn: DRAWN,
    runs: RUNS,
    loadAverage: { before: loadavg() },
    games: {},
  };
  for (const [game, setUp] of Object.entries(GAMES)) {
    const { url, state } = await seat(browser, server, setUp);
    report.games[game] = await measureGame(browser, url, state);
  }
  report.loadAverage.after = loadavg();
  if (opts.out) writeFileSync(opts.out, JSON.stringify(report, null, 2) + '\n');
  console.log(table(report));
} finally {
  if (browser) await browser.close().catch(() => {});
  server.cleanup();
}
