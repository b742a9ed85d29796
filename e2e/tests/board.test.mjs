// The board game through its page: one person against two bots plays a whole game to its end on
// a phone; two people (one on a phone, one on a laptop) play a few turns, one page reloads, and
// both pages still agree on the board and the log. Every step is a click on a `data-testid`
// hook; the debug hook (`window.prophecy.view()`) is read only to choose which control to use.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Server, launchBrowser, player } from './harness.mjs';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { WAIT, ARTIFACTS, tid, shot, seq, view, logOf, sameSeq, consoleErrors, glance, comesIntoView } from './table.mjs';

const PHONE = { width: 375, height: 812 };
const LAPTOP = { width: 1280, height: 800 };
// Bots act at once (the server's default pause is for people watching).
const SERVER_ARGS = ['--bot-pause-ms', '20'];

/** A server with quick bots and a browser; closes both, even when `run` throws. */
async function withBoardTable(name, run) {
  const server = await Server.start(undefined, { args: SERVER_ARGS });
  // Launched inside the `try`: a browser that fails to start must still stop the server, or
  // its open pipes keep node (and the whole test run) waiting forever.
  let browser;
  const players = [];
  const open = async (playerName, viewport, options = {}) => {
    const p = await player(browser, { viewport, ...options });
    p.name = playerName;
    p.page.setDefaultTimeout(WAIT);
    players.push(p);
    return p;
  };
  try {
    browser = await launchBrowser();
    await run({ server, open });
  } catch (e) {
    for (const p of players) {
      const file = await shot(p, `failed-${name}-${p.name}`, { fullPage: true }).catch(() => 'none');
      console.error(`${p.name}: screenshot ${file}; console errors: ${JSON.stringify(p.errors)}`);
    }
    console.error(`server output (end):\n${server.output.slice(-3000)}`);
    throw e;
  } finally {
    if (browser) await browser.close().catch(() => {});
    server.cleanup();
  }
}

/** The home page: a name, the board game, `bots` bots, Create; waits for the lobby. */
async function createBoardTable(p, server, name, bots) {
  await p.page.goto(`${server.url}/`);
  await p.page.getByTestId('create-name').fill(name);
  await p.page.getByTestId('game-board').check();
  await p.page.getByTestId('bots').selectOption(String(bots));
  await p.page.getByTestId('create-table').click();
  await p.page.waitForURL(/\/t\/[0-9a-f]{32}$/);
  await p.page.getByTestId('lobby').waitFor();
  await p.page.waitForFunction(() => /\?join=[0-9a-f]{32}$/.test(document.querySelector('[data-testid="invite-link"]')?.value ?? ''));
  return p.page.getByTestId('invite-link').inputValue();
}

const content = (p) => p.page.evaluate(() => window.prophecy.content());

/** Clicks `locator` and waits until the page has applied a newer event, or shows a refusal. */
async function click(p, locator, what) {
  const before = await seq(p);
  await locator.click();
  await p.page.waitForFunction(
    (s) => window.prophecy.seq() > s || document.querySelector('[data-testid="refusal"], [data-testid="request-error"]'),
    before,
    { timeout: WAIT },
  );
  const refusal = await p.page.locator(`${tid('refusal')}, ${tid('request-error')}`).first().textContent({ timeout: 100 }).catch(() => null);
  if (refusal) throw new Error(`${p.name}: ${what} was refused: ${refusal}`);
}

/** The exact fractions shown before a battle: three of them, adding up to one. */
async function readOdds(p) {
  const odds = p.page.getByTestId('battle-odds');
  await odds.waitFor();
  const [win, draw, loss] = await Promise.all(['data-win', 'data-draw', 'data-loss'].map((a) => odds.getAttribute(a)));
  const frac = (s) => {
    assert.match(s, /^\d+(\/\d+)?$/, `an exact fraction: ${s}`);
    const [n, d = '1'] = s.split('/');
    return [BigInt(n), BigInt(d)];
  };
  const parts = [win, draw, loss].map(frac);
  const den = parts.reduce((a, [, d]) => a * d, 1n);
  const num = parts.reduce((a, [n, d]) => a + (n * den) / d, 0n);
  assert.equal(num, den, `the chances add up to one: ${win} + ${draw} + ${loss}`);
  return { win, draw, loss };
}

/** A move worth making: a guild whose Certificate she can buy, an Opportunity, a weak Creature. */
function chooseMove(v, c, me) {
  const moves = v.options.moves;
  const character = c.characters[me.character];
  const score = (m) => {
    const space = c.board[m.to];
    const here = v.spaces[m.to];
    let s = -m.cost * 0.5;
    if (space.guild && !me.certificates.includes(space.guild)) {
      const gold = character.guilds.includes(space.guild) ? 0 : 5;
      if (me.experience >= 5 && me.gold - m.cost >= gold) s += 20;
    }
    if (here.adventure !== null) {
      const card = c.adventures[here.adventure];
      if (card.kind === 'opportunity') s += 6;
      else {
        const theirs = card.stats.strength ?? card.stats.willpower ?? 9;
        const mine = card.stats.strength != null ? me.health.right : me.magic.right;
        s += me.health.right > 1 ? 4 + (mine - theirs) : -10;
      }
    }
    if (me.health.left > 0 && (space.kind === 'monastery' || space.kind === 'village')) s += 3;
    // A market draws an adventurer with Gold and few Items: the test reads its shop's buttons.
    if (space.kind === 'city' || space.kind === 'village') s += me.items.length === 0 && me.gold >= 3 ? 8 : 1;
    return s;
  };
  return moves.reduce((best, m) => (score(m) > score(best) ? m : best), moves[0]);
}

/** One step of the person's turn, by the page's controls. Returns a word for what was done. */
async function playStep(p, stats) {
  const v = await view(p);
  const c = await content(p);
  const me = v.adventurers.find((a) => a.player === v.you);
  const o = v.options;
  const turn = p.page.locator(tid('turn', { mine: 'true' }));
  if (o.draw_chance) {
    await click(p, turn.getByTestId('draw-chance'), 'drawing a Chance card');
    return 'draw';
  }
  if (v.turn.step === 'battle') {
    if (!o.battles.length) {
      await click(p, turn.getByTestId('use-special-rule'), 'the special rule');
      return 'special';
    }
    // Once, try an Item: the odds shown follow the Items ticked.
    const items = turn.getByTestId('battle-item');
    if (!stats.itemTried && (await items.count()) > 0) {
      const first = items.first();
      const id = Number(await first.getAttribute('data-item-id'));
      // Beside the Item, the chance of winning without it is the chance shown now.
      const shown = await readOdds(p);
      const beside = turn.locator(tid('item-odds', { 'item-id': id }));
      assert.equal(await beside.getAttribute('data-without'), shown.win, 'the chance without the Item is the one shown now');
      const withIt = await beside.getAttribute('data-with');
      await first.check();
      await p.page.waitForFunction((i) => {
        const el = document.querySelector('[data-testid="battle-odds"]');
        return (el && el.getAttribute('data-items').split(',').map(Number).includes(i)) || document.querySelector('[data-testid="battle-not-allowed"]');
      }, id);
      if (await turn.getByTestId('battle-not-allowed').count()) await first.uncheck();
      else if (withIt !== null) {
        assert.equal((await readOdds(p)).win, withIt, 'with the Item ticked, the chance shown is the one it promised');
      }
      stats.itemTried = true;
    }
    const odds = await readOdds(p);
    stats.odds.push(odds);
    if (!stats.battleShot && stats.shots) {
      stats.battleShot = true;
      // The battle's choices and odds, as the person sees them before fighting.
      mkdirSync(ARTIFACTS, { recursive: true });
      await turn.screenshot({ path: join(ARTIFACTS, `${stats.shots}-battle.png`) });
    }
    await click(p, turn.getByTestId('fight'), 'the fight');
    await p.page.getByTestId('last-battle').waitFor();
    return 'fight';
  }
  if (o.moves.length) {
    const m = chooseMove(v, c, me);
    const button = turn.locator(tid('move', { to: m.to, cost: m.cost })).first();
    await click(p, button, 'the move');
    return 'move';
  }
  if (o.certificate) {
    await click(p, turn.getByTestId('buy-certificate'), 'buying a Certificate');
    stats.certificates++;
    return 'certificate';
  }
  if (o.opportunity !== null) {
    await click(p, turn.getByTestId('use-opportunity'), 'using the Opportunity');
    stats.opportunities++;
    return 'opportunity';
  }
  // (What the shop's buttons say is checked in board-stacked.test.mjs, at a stocked village.)
  const shop = turn.locator(`${tid('buy-item')}, ${tid('sell-item')}`);
  if (stats.shots && !stats.shopShot && (await shop.count()) > 0) {
    stats.shopShot = true;
    mkdirSync(ARTIFACTS, { recursive: true });
    await turn.screenshot({ path: join(ARTIFACTS, `${stats.shots}-shop.png`) });
  }
  const buy = turn.locator(`${tid('buy-item')}:not([disabled])`).first();
  if (!stats.bought && (await buy.count()) > 0) {
    stats.bought = true;
    await click(p, buy, 'buying an Item');
    return 'buy';
  }
  const recover = turn.getByTestId('recover');
  if (!stats.recovered && (me.health.left > 0 || me.magic.left > 0) && (await recover.count()) > 0) {
    stats.recovered = true;
    await click(p, recover.first(), 'recovering');
    return 'recover';
  }
  if (o.end_turn) {
    stats.recovered = false;
    await click(p, turn.getByTestId('end-turn'), 'ending the turn');
    return 'end';
  }
  throw new Error(`nothing to do at step ${v.turn.step}: ${JSON.stringify(o)}`);
}

/**
 * Notes, in the page, the animation of every Chance card the moment it turns fresh (drawn just
 * now): `window.__freshAnims`, read after the page reloads too (it is installed again).
 */
async function watchFresh(p) {
  const install = () => {
    window.__freshAnims = window.__freshAnims || [];
    const note = (el) => window.__freshAnims.push(getComputedStyle(el).animationName);
    window.__walked = window.__walked || 0;
    const walking = (n) => n instanceof Element && (n.matches('[data-testid="piece"][data-walking]') || n.querySelector('[data-testid="piece"][data-walking]'));
    new MutationObserver((changes) => {
      for (const c of changes) {
        if (c.type === 'attributes') {
          const el = c.target;
          if (c.attributeName === 'data-walking' && walking(el)) window.__walked++;
          if (c.attributeName === 'class' && el instanceof HTMLElement && el.matches('[data-testid="last-chance"].fresh') && !(c.oldValue || '').includes('fresh')) note(el);
        } else {
          for (const n of c.addedNodes) if (walking(n)) window.__walked++;
          for (const n of c.addedNodes) {
            if (!(n instanceof HTMLElement)) continue;
            const found = n.matches('[data-testid="last-chance"].fresh') ? [n] : n.querySelectorAll('[data-testid="last-chance"].fresh');
            found.forEach(note);
          }
        }
      }
    }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['class', 'data-walking'], attributeOldValue: true });
  };
  await p.page.evaluate(install);
}

/** Waits until it is this page's turn with something to do, or the game is over. */
async function myTurnOrEnd(p, timeout) {
  await p.page.waitForFunction(
    () => {
      if (document.querySelector('[data-testid="result"]')) return true;
      const v = window.prophecy.view();
      const turn = document.querySelector('[data-testid="turn"][data-mine="true"]');
      return !!(v && v.options && v.options.player === v.you && turn && turn.querySelector('button:not([disabled])') && window.prophecy.connected());
    },
    null,
    { timeout },
  );
  return (await p.page.getByTestId('result').count()) > 0;
}

test('one person plays a whole game against two bots on a phone, to a result and a ranking', { timeout: 15 * 60_000 }, async () => {
  await withBoardTable('solo', async ({ server, open }) => {
    const ada = await open('Ada', PHONE);
    await createBoardTable(ada, server, 'Ada', 2);
    // The lobby: two bots and the creator.
    await ada.page.waitForFunction(() => document.querySelectorAll('[data-testid="seat"]').length === 3);
    assert.equal(await ada.page.locator(tid('seat', { bot: 'true' })).count(), 2);
    // A third bot, a strong one, comes and goes; its level shows beside its name.
    await ada.page.getByTestId('bot-level-select').selectOption('strong');
    await click(ada, ada.page.getByTestId('add-bot'), 'adding a bot');
    await ada.page.waitForFunction(() => document.querySelectorAll('[data-testid="seat"][data-bot="true"]').length === 3);
    const strongTag = ada.page.locator(tid('seat', { bot: 'true' })).last().getByTestId('bot-level');
    assert.equal(await strongTag.textContent(), 'strong bot');
    assert.ok(await comesIntoView(ada, strongTag), 'the strong bot\'s tag is out of view');
    await click(ada, ada.page.getByTestId('remove-bot').last(), 'removing a bot');
    await ada.page.waitForFunction(() => document.querySelectorAll('[data-testid="seat"][data-bot="true"]').length === 2);
    await click(ada, ada.page.getByTestId('start-game'), 'starting the game');
    // On a phone the board is a view of its own (and part of the turn while moving).
    await glance(ada, ada.page.getByTestId('board'));
    assert.equal(await ada.page.getByTestId('board').getAttribute('data-layout'), 'narrow');
    assert.equal(await ada.page.getByTestId('space').count(), (await content(ada)).board.length);
    assert.equal(await ada.page.getByTestId('piece').count(), 3);
    assert.equal(await ada.page.getByTestId('adventurer-card').count(), 3);
    // Nothing is wider than the phone's screen.
    assert.ok((await ada.page.evaluate(() => document.documentElement.scrollWidth)) <= PHONE.width);

    const stats = { odds: [], certificates: 0, opportunities: 0, steps: 0, shot: false, itemTried: false, recovered: false, shots: 'board-phone' };
    const deadline = Date.now() + 12 * 60_000;
    for (;;) {
      assert.ok(Date.now() < deadline, `the game ends in time (${stats.steps} steps so far)`);
      if (await myTurnOrEnd(ada, deadline - Date.now())) break;
      const did = await playStep(ada, stats);
      stats.steps++;
      if (!stats.shot && did === 'draw') {
        // The board on a phone, with the person's choices of move.
        await ada.page.locator(tid('move')).first().waitFor();
        await shot(ada, 'board-phone', { fullPage: true });
        stats.shot = true;
      }
    }
    // The end: who won (or that nobody did) and the ranking, on the page.
    const v = await view(ada);
    assert.ok(v.phase === 'won' || v.phase === 'ended', `the game is over: ${v.phase}`);
    const result = ada.page.getByTestId('result');
    if (v.phase === 'won') {
      assert.equal(Number(await result.getAttribute('data-winner')), v.winner);
      const winner = v.adventurers.find((a) => a.player === v.winner);
      assert.equal(winner.certificates.length, 5);
      assert.match(await result.textContent(), v.winner === v.you ? /You win/ : new RegExp(winner.name.replace(/[()]/g, '.')));
    }
    const ranking = await ada.page.getByTestId('ranking-entry').evaluateAll((els) => els.map((e) => [Number(e.getAttribute('data-player-id')), Number(e.getAttribute('data-certificates'))]));
    assert.deepEqual(ranking, v.ranking.map((r) => [r.player, r.certificates]));
    assert.equal(ranking.length, 3);
    // A recap: how long the game took, and how each adventurer ended.
    assert.match(await ada.page.getByTestId('recap').textContent(), /^After \d+ turns?\.$/);
    assert.equal(await ada.page.getByTestId('rank-recap').count(), 3);
    assert.match(await ada.page.getByTestId('rank-recap').first().textContent(), /\d+ Gold · \d+ Experience · \d+ Items?$/);
    if (v.phase === 'won') assert.equal(ranking[0][0], v.winner);
    assert.ok(stats.steps > 10, `the person played (${stats.steps} steps)`);
    // The last battle's dice are shown; the turn's controls are gone.
    if (stats.odds.length) assert.ok((await ada.page.getByTestId('die').count()) >= 2);
    assert.equal(await ada.page.getByTestId('end-turn').count(), 0);
    await shot(ada, 'board-phone-end', { fullPage: true });
    assert.deepEqual(consoleErrors(ada), []);
    console.log(`solo game: ${v.phase}, ${stats.steps} steps, ${stats.odds.length} battles, ${stats.certificates} Certificates bought, ${stats.opportunities} Opportunities used`);
  });
});

/** Where each piece stands, as the page shows it. */
/** Where the page draws each piece, once none is walking (a walk is only the picture's). */
async function pieces(p) {
  await p.page.waitForFunction(() => !document.querySelector('[data-testid="piece"][data-walking]'));
  return p.page.evaluate(() =>
    Array.from(document.querySelectorAll('[data-testid="piece"]'))
      .map((e) => [Number(e.getAttribute('data-player-id')), Number(e.getAttribute('data-space-id'))])
      .sort((a, b) => a[0] - b[0]),
  );
}

test('two people play a few turns, one page reloads, and both pages agree', { timeout: 5 * 60_000 }, async () => {
  await withBoardTable('pair', async ({ server, open }) => {
    // Ada's laptop shows motion; Bo's phone asks for reduced motion (the default here).
    const ada = await open('Ada', LAPTOP, { reducedMotion: 'no-preference' });
    const link = await createBoardTable(ada, server, 'Ada', 0);
    // With one seat the game cannot start.
    assert.ok(await ada.page.getByTestId('start-game').isDisabled());
    const bo = await open('Bo', PHONE);
    await bo.page.goto(link);
    await bo.page.getByTestId('join-name').fill('Bo');
    await bo.page.getByTestId('join-submit').click();
    await bo.page.getByTestId('lobby').waitFor();
    await bo.page.getByTestId('waiting-for-start').waitFor();
    await ada.page.waitForFunction(() => document.querySelectorAll('[data-testid="seat"]').length === 2);
    // Only the table's creator is offered to publish the story (the server refuses anyone else).
    await ada.page.getByTestId('publish-story').waitFor({ state: 'attached' });
    assert.equal(await bo.page.getByTestId('publish-story').count(), 0, 'Bo is offered to publish');
    await click(ada, ada.page.getByTestId('start-game'), 'starting the game');
    await glance(bo, bo.page.getByTestId('board'));
    const people = [ada, bo];
    for (const p of people) await watchFresh(p);
    // Your own adventurer comes first in the list, whatever the seat order.
    for (const p of people) {
      const you = (await view(p)).you;
      assert.equal(await p.page.getByTestId('adventurer-card').first().getAttribute('data-player-id'), String(you), `${p.name}'s own card first`);
    }
    let reloaded = false;
    let shotTaken = false;
    const stats = { odds: [], certificates: 0, opportunities: 0, itemTried: true, recovered: false, seen: {} };
    for (;;) {
      await sameSeq(people);
      const v = await view(ada);
      if (v.phase !== 'playing' || v.turn.number > 6) break;
      const who = people.find((p) => p.name === (v.seats.find((s) => s.player === v.turn.player) || {}).name);
      const other = people.find((p) => p !== who);
      // The other page says who is choosing, and offers nothing.
      await other.page.locator(tid('turn', { mine: 'false', 'player-id': v.turn.player })).waitFor();
      assert.equal(await other.page.locator(`${tid('draw-chance')}, ${tid('end-turn')}, ${tid('move')}`).count(), 0);
      await myTurnOrEnd(who, WAIT);
      // The turn came round: the turn's panel says what the other did since this player's
      // last action, in view, until the player acts.
      if (v.turn.step === 'draw_chance' && stats.lastPlayer !== undefined && stats.lastPlayer !== v.turn.player) {
        const away = who.page.locator(`${tid('turn')} ${tid('while-away')}`);
        assert.ok(await comesIntoView(who, away), `${who.name}: "While you were away" is out of view`);
        const lines = await away.getByTestId('away-line').allTextContents();
        assert.ok(lines.some((l) => l.startsWith(`${other.name} `)), `${who.name} reads ${JSON.stringify(lines)}`);
        stats.away = (stats.away || 0) + 1;
      }
      stats.lastPlayer = v.turn.player;
      const did = await playStep(who, stats);
      if (did === 'draw') assert.equal(await who.page.getByTestId('while-away').count(), 0, 'gone once the player acts');
      // A move (or a Certificate, an Item bought) is told in the turn's panel, in view.
      if (did === 'move' || did === 'certificate' || did === 'buy') {
        const line = who.page.getByTestId('this-turn-line').last();
        await who.page.waitForFunction((n) => {
          const lines = document.querySelectorAll('[data-testid="this-turn-line"]');
          return lines.length && lines[lines.length - 1].textContent.startsWith(n + ' ');
        }, who.name);
        assert.ok(await comesIntoView(who, line), `${who.name}: the ${did} is out of view`);
        stats.moves = (stats.moves || 0) + 1;
      }
      // What the step brought comes into view where the player looks, with no scrolling.
      if (did === 'draw' || did === 'fight') {
        const card = who.page.getByTestId(did === 'draw' ? 'last-chance' : 'last-battle');
        await card.waitFor();
        if (!(await comesIntoView(who, card))) {
          const where = await card.evaluate((el) => ({ rect: el.getBoundingClientRect().toJSON(), y: scrollY, h: innerHeight, active: document.activeElement?.outerHTML.slice(0, 80) }));
          assert.fail(`${who.name}: the ${did === 'draw' ? 'drawn card' : 'battle'} is out of view: ${JSON.stringify(where)}`);
        }
        if (did === 'draw') assert.equal(await card.getAttribute('data-card'), String((await view(who)).last_chance.card));
        stats.seen[who.name] = (stats.seen[who.name] || 0) + 1;
      }
      if (!shotTaken && did === 'draw' && who === ada) {
        await ada.page.locator(tid('move')).first().waitFor();
        // The rules of this step, one tap away.
        const help = ada.page.locator(tid('rules-help', { help: 'step-move' }));
        await help.locator('summary').click();
        await help.getByText('ride a horse two spaces (1 Gold)').waitFor();
        await shot(ada, 'board-laptop', { fullPage: true });
        shotTaken = true;
      }
      if (!reloaded && v.turn.number >= 3) {
        reloaded = true;
        await bo.page.reload();
        await glance(bo, bo.page.getByTestId('board'));
        await bo.page.waitForFunction(() => window.prophecy && window.prophecy.connected());
        await watchFresh(bo);
      }
    }
    assert.ok(reloaded, 'the phone page reloaded mid-game');
    assert.ok(stats.seen.Ada > 0 && stats.seen.Bo > 0, `each drew a card in view: ${JSON.stringify(stats.seen)}`);
    assert.ok(stats.moves >= 2, `moves told in view: ${stats.moves}`);
    assert.ok(stats.away >= 2, `"While you were away" read at ${stats.away} turns`);
    // The cards turned over on the laptop; under reduced motion they did not move.
    const anims = await Promise.all(people.map((p) => p.page.evaluate(() => window.__freshAnims)));
    assert.ok(anims[0].includes('card-turn'), `Ada's cards: ${anims[0]}`);
    assert.ok(anims[1].length > 0 && anims[1].every((a) => a === 'none'), `Bo's cards: ${anims[1]}`);
    // The pieces walked on the laptop, a space at a time; under reduced motion they did not.
    const walked = await Promise.all(people.map((p) => p.page.evaluate(() => window.__walked)));
    assert.ok(walked[0] > 0, `Ada's page drew ${walked[0]} steps of a walk`);
    assert.equal(walked[1], 0, 'Bo asked for reduced motion');
    await sameSeq(people);
    // Both pages show the same log and the same board.
    const [logA, logB] = await Promise.all(people.map(logOf));
    assert.ok(logA.length > 5);
    assert.deepEqual(logB, logA);
    // The log names amounts as totals with their dice, and Certificates by guild.
    const lines = logA.map(([, t]) => t);
    for (const l of lines.filter((t) => / in a Battle of /.test(t))) {
      assert.match(l, /: (\d+ against \d+ \(dice \d and \d\))(, then \d+ against \d+ \(dice \d and \d\))*; (won|a draw|lost)\.$/, l);
    }
    for (const l of lines.filter((t) => /Certificate/.test(t))) assert.match(l, /the Certificate of the (Fortress|Thieves’ Guild|Magic Tower|Forest Camp|Monastery) \(/, l);
    const [piecesA, piecesB] = await Promise.all(people.map(pieces));
    assert.deepEqual(piecesB, piecesA);
    const v = await view(ada);
    assert.deepEqual(piecesA, v.adventurers.filter((a) => a.alive).map((a) => [a.player, a.space]).sort((a, b) => a[0] - b[0]));
    const cards = (p) =>
      p.page.getByTestId('adventurer-card').evaluateAll((els) =>
        els.map((e) => {
          const attr = (id, name) => e.querySelector(`[data-testid="${id}"]`).getAttribute(name);
          return {
            player: e.getAttribute('data-player-id'),
            alive: e.getAttribute('data-alive'),
            health: [attr('health', 'data-right'), attr('health', 'data-left')],
            magic: [attr('magic', 'data-right'), attr('magic', 'data-left')],
            gold: attr('gold', 'data-value'),
            experience: attr('experience', 'data-value'),
            certificates: Array.from(e.querySelectorAll('[data-testid="certificate"][data-owned="true"]')).map((c) => c.getAttribute('data-guild')),
            items: Array.from(e.querySelectorAll('[data-testid="card-item"]')).map((c) => c.textContent),
          };
        }),
      );
    // The same cards (each page lists its own first).
    const byPlayer = (list) => list.sort((a, b) => Number(a.player) - Number(b.player));
    assert.deepEqual(byPlayer(await cards(bo)), byPlayer(await cards(ada)));
    // The board from the keyboard: the focused space moves with the arrow keys, and Enter
    // shows what lies there.
    const stop = ada.page.locator(`${tid('space')}[tabindex="0"]`);
    const from = Number(await stop.getAttribute('data-space-id'));
    await stop.focus();
    await ada.page.keyboard.press('ArrowRight');
    const next = (from + 1) % (await ada.page.getByTestId('space').count());
    await ada.page.waitForFunction((id) => document.activeElement?.getAttribute('data-space-id') === String(id), next);
    await ada.page.keyboard.press('Enter');
    await ada.page.locator(`${tid('space-detail')}[data-space-id="${next}"]`).waitFor();
    if (!shotTaken) await shot(ada, 'board-laptop', { fullPage: true });
    await shot(bo, 'board-phone-pair', { fullPage: true });
    assert.deepEqual(consoleErrors(ada), []);
    assert.deepEqual(consoleErrors(bo, { network: true }), []);
    // Bo leaves: the creator hands Bo's adventurer to a bot, which plays on.
    const boId = v.seats.find((s) => s.name === 'Bo').player;
    await bo.context.close();
    const hand = ada.page.locator(tid('hand-to-bot', { 'player-id': boId }));
    await click(ada, hand, 'handing Bo’s adventurer to a bot');
    await ada.page.locator(tid('adventurer-card', { 'player-id': boId, bot: 'true' })).waitFor();
  });
});
