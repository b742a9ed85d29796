// Text typed by players is shown as text: HTML in a name, an aspect, an objective, a
// justification, a narration, a line or the prophecy never becomes an element, and nothing it
// contains runs (a dialog, a blocked inline handler or a request for `x` would be an error).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  withTable, gameToStory, createTable, startScene, proposePair, narrate, panel, sameSeq, accepted,
  aspectId, objectId, cardOf, selectScene, tid, consoleErrors, until, makeCheck, TEXTS,
} from './table.mjs';

const IMG = '<img src=x onerror=alert(1)>';
const SCRIPT = '<script>alert(2)</script>';

const T = {
  ada: `Ada${IMG}`,
  bo: `Bo${SCRIPT}`,
  prophecy: `The river rises <img src=x onerror=alert(3)> on the night of ${SCRIPT}`,
  wren: 'Wren<svg onload=alert(4)>',
  aspect: IMG,
  aspect2: SCRIPT,
  finale: `Silence <img src=x onerror=alert(5)>`,
  precursor: `Steal <b>the</b> chart${SCRIPT}`,
  place: 'Archive<iframe src=javascript:alert(6)>',
  placeAspect: '<a href=javascript:alert(7)>Flooded</a>',
  justification: '<img src=x onerror=alert(8)> fits',
  narration: `She <em>dove</em>${SCRIPT}<img src=x onerror=alert(9)>`,
  line: '<marquee>spiders</marquee>',
};

const CHARS = [
  { name: T.wren, aspects: [T.aspect, T.aspect2, 'Reckless', 'Owes Ash a life', 'River Guild'] },
  { name: 'Ash', aspects: ['Archivist', 'Frail', 'Stubborn', 'Sister of Wren', 'The Lantern Order'] },
];

/** Nothing anywhere in the page was made from typed text: no such elements, no handlers. */
async function assertNoMarkup(p) {
  const found = await p.page.evaluate(() => ({
    injected: Array.from(document.querySelectorAll('#app img, #app script, #app iframe, #app b, #app em, #app marquee, #app a[href^="javascript"], #app [onerror], #app [onload]'))
      .filter((el) => !(el.tagName === 'IMG' && el.getAttribute('data-testid') === 'qr'))
      // The page may emphasize its own words; the typed <em>dove</em> and <b>the</b> are not those.
      .filter((el) => !['B', 'EM'].includes(el.tagName) || ['dove', 'the'].includes(el.textContent))
      .map((el) => el.outerHTML),
  }));
  assert.deepEqual(found.injected, [], `${p.name}: elements made from typed text`);
}

/** `locator`'s text is exactly (or contains) the typed text. */
async function assertText(locator, text, { exact = true } = {}) {
  const shown = (await locator.first().textContent()).trim();
  if (exact) assert.equal(shown, text);
  else assert.ok(shown.includes(text), `"${shown}" should include "${text}"`);
}

test('HTML typed by players is shown as text, never as markup', { timeout: 150_000 }, async () => {
  await withTable('xss', async (table) => {
    const { players, precursor, archive } = await gameToStory(table, [{ name: T.ada }, { name: T.bo }], {
      chars: CHARS,
      texts: { ...TEXTS, prophecy: T.prophecy, finale: T.finale, precursor: T.precursor, place: T.place, placeAspects: [T.placeAspect] },
    });
    const [ada, bo] = players;
    await accepted(bo, 'add a line', async () => {
      await bo.page.getByTestId('line-text').fill(T.line);
      await bo.page.getByTestId('add-line').click();
    });
    await startScene(ada, precursor);
    await proposePair(ada, await aspectId(ada, T.aspect), await aspectId(ada, T.placeAspect), T.justification);
    await makeCheck(bo);
    await narrate(ada, T.narration);
    await sameSeq(players);

    const wren = await objectId(ada, T.wren);
    for (const p of players) {
      await assertNoMarkup(p);
      assert.deepEqual(await p.page.locator(`${tid('player')} .player-name`).allTextContents(), [T.ada, T.bo]);
      await assertText(p.page.getByTestId('prophecy-text'), T.prophecy);
      await assertText(cardOf(p, wren).getByTestId('object-name-text'), T.wren);
      const notes = await cardOf(p, wren).getByTestId('aspect-text-display').allTextContents();
      assert.deepEqual(notes.slice(0, 2), [T.aspect, T.aspect2]);
      await assertText(cardOf(p, archive).getByTestId('object-name-text'), T.place);
      await assertText(panel(p).getByTestId('scene-objective'), T.precursor);
      await assertText(panel(p).getByTestId('justification'), T.justification);
      await assertText(panel(p).getByTestId('narration-text').locator('p'), T.narration);
      await assertText(p.page.getByTestId('line').locator('.line-text'), T.line);
      // The outline draws objectives in SVG: text there too.
      const finaleNode = p.page.getByTestId('outline-node').filter({ has: p.page.locator('title', { hasText: T.finale }) });
      assert.equal(await finaleNode.count(), 1, `${p.name}: the Finale's node has its objective as text`);
      // The log names players as text (it quotes nothing else players type, since any of it
      // could be flagged later) and holds no element made from their text.
      assert.ok((await p.page.getByTestId('log').textContent()).includes(T.bo), `${p.name}'s log has ${T.bo}`);
      assert.equal(await p.page.getByTestId('log').locator('img, script').count(), 0, `${p.name}'s log has no markup`);
      assert.deepEqual(consoleErrors(p), [], `${p.name}: a dialog, a script or a request ran`);
    }
    // The selected scene's details, and the scene that was performed, show text too.
    const detail = await selectScene(bo, (await bo.page.evaluate(() => window.prophecy.view().finale)));
    await assertText(detail.getByTestId('scene-objective'), T.finale);
    await assertNoMarkup(bo);

    // The printable page (server-rendered HTML) escapes it all.
    const printed = await bo.context.newPage();
    const printErrors = [];
    printed.on('console', (m) => { if (m.type() === 'error') printErrors.push(m.text()); });
    printed.on('dialog', (d) => { printErrors.push(`dialog: ${d.message()}`); d.dismiss(); });
    await printed.goto(new URL(await bo.page.getByTestId('export-print').getAttribute('href'), bo.page.url()).href);
    const body = await printed.locator('body').innerText();
    for (const text of [T.prophecy, T.wren, T.aspect, T.finale, T.precursor, T.narration, T.justification]) {
      assert.ok(body.includes(text), `the printable page shows ${text} as text`);
    }
    const injected = await printed.evaluate(() =>
      Array.from(document.querySelectorAll('img, script, iframe, marquee, a[href^="javascript"], [onerror], [onload], b, em'))
        // The page's own emphasis is fine; the typed <em>dove</em> and <b>the</b> are not.
        .filter((e) => !['B', 'EM'].includes(e.tagName) || ['dove', 'the'].includes(e.textContent))
        .map((e) => e.outerHTML),
    );
    assert.deepEqual(injected, []);
    assert.deepEqual(printErrors, []);
    await printed.close();
  });
});

// The checks above can fail: served a page that inserts text as HTML (its `dom.js` changed to use
// insertAdjacentHTML), they find the elements and the errors.
test('the same checks catch a page that inserts text as HTML', { timeout: 60_000 }, async () => {
  await withTable('xss-self-check', async (table) => {
    const ada = await table.open('Ada');
    // The server sends dom.js bundled into each page's script (main.3f9a1c2b.js), minified:
    // the names of the variables are the minifier's.
    await ada.context.route('**/main.*.js', async (route) => {
      const response = await route.fetch();
      const source = await response.text();
      const broken = source.replace(/(\w+)\.appendChild\(document\.createTextNode\(String\((\w+)\)\)\)/, "$1.insertAdjacentHTML('beforeend', String($2))");
      assert.notEqual(broken, source, 'dom.js (in main.js) changed: update this self-check');
      await route.fulfill({ response, body: broken });
    });
    await createTable(ada, table.server, T.ada);
    await ada.page.locator(`${tid('player')} img`).first().waitFor({ state: 'attached' });
    await assert.rejects(() => assertNoMarkup(ada), /elements made from typed text/);
    await assert.rejects(() => assertText(ada.page.locator(`${tid('player')} .player-name`), T.ada));
    // The blocked inline handler (CSP) and the request for `x` show up as console errors.
    assert.ok(await until(() => consoleErrors(ada).length > 0), 'console errors reveal the injected element');
  });
});
