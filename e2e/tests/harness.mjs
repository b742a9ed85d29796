// Shared by the browser tests: start the real `prophecy serve` on a free port with a fresh
// SQLite file, and open players in separate browser contexts of one headless Chromium.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';

const here = new URL('.', import.meta.url).pathname;
export const BIN = process.env.PROPHECY_BIN ?? resolve(here, '../../target/debug/prophecy');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

/** A free TCP port on 127.0.0.1. */
export function freePort() {
  return new Promise((ok, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => ok(port));
    });
  });
}

// Servers still running when this process exits (a test that timed out or threw before its
// cleanup) are killed, and their folders removed, so that no run leaves anything behind.
const live = new Set();
process.on('exit', () => {
  for (const server of live) server.cleanup();
});

/**
 * The server process on `db` (a fresh one unless given), answering at `url`; `options.args` are
 * more arguments for `prophecy serve` (e.g. `['--bot-pause-ms', '20']`).
 */
export class Server {
  static async start(db, options = {}) {
    const dir = db ? null : mkdtempSync(join(tmpdir(), 'prophecy-e2e-'));
    const server = new Server(db ?? join(dir, 'tables.db'), dir, await freePort());
    server.args = options.args ?? [];
    live.add(server);
    try {
      await server.launch();
    } catch (e) {
      server.cleanup();
      throw e;
    }
    return server;
  }

  constructor(db, dir, port) {
    this.db = db;
    this.dir = dir;
    this.port = port;
    this.url = `http://127.0.0.1:${port}`;
    this.output = '';
    this.args = [];
  }

  async launch() {
    // Every page of these tests comes from 127.0.0.1, far faster than people: the per-address
    // budgets and cap (tested on their own in the server's tests) are lifted.
    const lifted = ['--tables-per-minute', '10000', '--joins-per-minute', '10000', '--connections-per-address', '1000000', '--sync-kib-per-minute', '1000000000', '--written-kib-per-minute', '1000000000'];
    this.child = spawn(BIN, ['serve', '--addr', `127.0.0.1:${this.port}`, '--db', this.db, ...lifted, ...this.args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child.stdout.on('data', (d) => { this.output += d; });
    this.child.stderr.on('data', (d) => { this.output += d; });
    this.exited = new Promise((ok) => this.child.once('exit', (code, signal) => ok({ code, signal })));
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      try {
        const response = await fetch(`${this.url}/`);
        if (response.ok) return;
      } catch {
        // Not listening yet.
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`the server did not start:\n${this.output}`);
  }

  /** SIGKILL: no chance to flush or say goodbye. */
  async kill() {
    this.child.kill('SIGKILL');
    return this.exited;
  }

  /** SIGTERM: the graceful shutdown. */
  async stop() {
    this.child.kill('SIGTERM');
    return this.exited;
  }

  /** A new process on the same database and port. */
  async restart() {
    await this.launch();
  }

  cleanup() {
    live.delete(this);
    if (this.child && this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
  }
}

export async function launchBrowser() {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // Root in CI has no sandbox; the network flags keep Chromium off everything but localhost.
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/**
 * A player: their own browser context (own cookies), a page, and every console error and
 * page error collected so that tests can assert there were none.
 */
export async function player(browser, options = {}) {
  const context = await browser.newContext({ viewport: options.viewport ?? { width: 1280, height: 900 }, reducedMotion: options.reducedMotion ?? 'reduce', storageState: options.storageState });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('dialog', (d) => { errors.push(`dialog: ${d.message()}`); d.dismiss(); });
  return { context, page, errors };
}

/** Waits until the page's debug hook reports at least `seq`. */
export async function seenSeq(page, seq) {
  await page.waitForFunction((s) => window.prophecy && window.prophecy.seq() >= s, seq);
}
