// The invitation: the creator makes a new link (the old one seats nobody new, everyone seated
// stays and sees the new link), closes joining and opens it again; a newcomer with a dead link
// is told why before typing anything. Seated players download the game file.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withTable, seatPlayers, joinTable, inviteLink, consoleErrors } from './table.mjs';

test('the creator renews the invitation and closes joining; a dead link says why', { timeout: 90_000 }, async () => {
  await withTable('invite', async (table) => {
    const { link, players } = await seatPlayers(table, [{ name: 'Ada' }, { name: 'Bo', options: { viewport: { width: 375, height: 800 } } }]);
    const [ada, bo] = players;
    assert.match(link, /\/t\/[0-9a-f]{32}\?join=[0-9a-f]{32}$/);
    assert.equal(await bo.page.getByTestId('renew-invite').count(), 0, 'only the creator changes the invitation');
    // The newcomer's address bar no longer carries the code once seated.
    assert.doesNotMatch(bo.page.url(), /join=/);

    await ada.page.getByTestId('renew-invite').click();
    await ada.page.getByTestId('confirm-renew-invite').click();
    await ada.page.waitForFunction((old) => {
      const v = document.querySelector('[data-testid="invite-link"]')?.value;
      return v && v !== old;
    }, link);
    const renewed = await inviteLink(ada);
    assert.notEqual(renewed, link);
    // Bo's page hears of it and shows the new link too.
    await bo.page.waitForFunction((l) => document.querySelector('[data-testid="invite-link"]')?.value === l, renewed);

    const cy = await table.open('Cy');
    await cy.page.goto(link);
    await cy.page.getByTestId('join-refusal').filter({ hasText: 'current invitation link' }).waitFor();
    assert.equal(await cy.page.getByTestId('join-form').count(), 0);
    await joinTable(cy, renewed, 'Cy');

    await ada.page.getByTestId('close-joining').click();
    await ada.page.getByTestId('confirm-close-invite').click();
    await ada.page.getByTestId('joining-closed').waitFor();
    await bo.page.getByTestId('joining-closed').waitFor();
    const di = await table.open('Di');
    await di.page.goto(renewed);
    await di.page.getByTestId('join-refusal').filter({ hasText: 'closed joining' }).waitFor();

    await ada.page.getByTestId('open-joining').click();
    await ada.page.getByTestId('invite-link').waitFor();
    const reopened = await inviteLink(ada);
    assert.notEqual(reopened, renewed);
    await joinTable(di, reopened, 'Di');

    // The game file: every event, one per line, for a seated player.
    const file = await bo.page.evaluate(async (href) => (await fetch(href)).text(), await bo.page.getByTestId('export-game').getAttribute('href'));
    const events = file.trim().split('\n').map((l) => JSON.parse(l));
    assert.equal(events[0].type, 'game_opened');
    assert.deepEqual(events.filter((e) => e.type === 'player_joined').map((e) => e.name), ['Ada', 'Bo', 'Cy', 'Di']);

    for (const p of [ada, bo, cy, di]) assert.deepEqual(consoleErrors(p), [], `${p.name}'s console errors`);
  });
});
