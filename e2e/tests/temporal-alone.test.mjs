// Temporal Mechanics has two kinds of characters, PCs and NPCs (issue 33): a PC's Relationship
// trait may name an NPC, so one player alone on a phone can finish their PC and begin the Setup.
// Before an NPC exists, the form says where to make one.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  withTable, createTable, seated, advance, createCharacter, myCard, attachAspect, createObject, reveal,
  comesIntoView, consoleErrors, shot, tid, CATEGORIES,
} from './table.mjs';

const PHONE = { width: 375, height: 812 };

test('one player makes a PC whose relationship is with an NPC, and begins the Setup', { timeout: 120_000 }, async () => {
  await withTable('temporal-alone', async (table) => {
    const ada = await table.open('Ada', { viewport: PHONE });
    await createTable(ada, table.server, 'Ada', 'temporal');
    seated([ada]);
    await advance(ada, 'characters');
    await createCharacter(ada, 'Ines');
    const traits = ['Dam engineer', 'Sleepless', 'Stubborn', null, 'The Water Board'];
    for (const [k, category] of CATEGORIES.entries()) {
      if (traits[k]) await attachAspect(ada, myCard(ada), traits[k], category, null);
    }
    // No NPC yet: the Relationship's "With" says how to get one.
    const card = myCard(ada);
    await reveal(ada, card);
    await card.getByTestId('aspect-category').selectOption('relationship');
    const none = card.getByTestId('aspect-relationship-with');
    await none.filter({ hasText: 'No other PC or NPC yet: add an NPC below' }).waitFor();
    assert.ok(await comesIntoView(ada, none), 'the hint is out of view');

    await createObject(ada, 'Old Mags', 'npc');
    await attachAspect(ada, myCard(ada), 'Taught her everything', 'relationship', 'Old Mags');
    await myCard(ada).getByTestId('missing').waitFor({ state: 'detached' });
    assert.ok(await comesIntoView(ada, myCard(ada).getByTestId('aspect-text-display').filter({ hasText: 'Taught her everything' })));
    await shot(ada, 'temporal-alone-relationship-375');

    // Her PC is complete: the table (of one) moves on to the Setup.
    await advance(ada, 'outline');
    await ada.page.locator(tid('phase', { phase: 'outline' })).filter({ hasText: 'Setup' }).waitFor();
    assert.deepEqual(consoleErrors(ada), []);
  });
});
