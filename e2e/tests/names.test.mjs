// Names as people see them (issue 11): a newcomer on a phone who picks a name already at the
// table (in other letters' case) or one made only of invisible characters is told why, in the
// join form, and keeps the form; a right-to-left override in a name is closed at the end of
// the name, so the text after it on the page reads the right way round.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withTable, createTable, consoleErrors, sameSeq, shot } from './table.mjs';

test('taken and invisible names are refused in the join form; an override stays in its name', { timeout: 90_000 }, async () => {
  await withTable('names', async (table) => {
    const ada = await table.open('Ada');
    const link = await createTable(ada, table.server, 'Ada');
    const bo = await table.open('Bo', { viewport: { width: 375, height: 812 } });
    await bo.page.goto(link);

    await bo.page.getByTestId('join-name').fill('ADA');
    await bo.page.getByTestId('join-submit').click();
    const error = bo.page.getByTestId('join-error');
    await error.filter({ hasText: 'Someone at this table is already called ADA: choose another name.' }).waitFor();
    await shot(bo, 'names-taken-phone');

    await bo.page.getByTestId('join-name').fill('\u200B\u3164');
    await bo.page.getByTestId('join-submit').click();
    await error.filter({ hasText: 'A name needs at least one letter or sign people can see.' }).waitFor();
    assert.equal(await bo.page.getByTestId('join-form').count(), 1, 'the form stays for another try');

    await bo.page.getByTestId('join-name').fill('\u202EBo');
    await bo.page.getByTestId('join-submit').click();
    await bo.page.getByTestId('phase').waitFor();
    await sameSeq([ada, bo]);

    // The name is closed where it ends: the page holds the override and its closer.
    const names = await ada.page.getByTestId('player').allTextContents();
    const shown = names.find((n) => n.includes('\u202E'));
    assert.ok(shown, `Bo's name on Ada's page: ${JSON.stringify(names)}`);
    assert.ok(shown.includes('\u202EBo\u202C'), JSON.stringify(shown));
    // In the log too the override ends with the name: the words after it read left to right.
    const joined = (await ada.page.getByTestId('log-entry').allTextContents()).find((t) => t.includes('\u202E'));
    assert.ok(joined, 'a log line names Bo');
    assert.match(joined, /\u202EBo\u202C [a-z]/, JSON.stringify(joined));
    await shot(ada, 'names-players');

    for (const p of [ada, bo]) assert.deepEqual(consoleErrors(p, { network: true }).filter((e) => !/status of 400/.test(e)), [], `${p.name}'s console errors`);
  });
});
