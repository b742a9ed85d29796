// Steps of the Challenge rules through their page, for the tests that play them.

import { tid, view, accepted, reveal, showTab } from './table.mjs';

/** The home page: a name, the Challenge rules, Create; the creator is the GM. */
export async function createChallengeTable(p, server, name) {
  await p.page.goto(`${server.url}/`);
  await p.page.getByTestId('create-name').fill(name);
  await p.page.getByTestId('game-challenge').check();
  await p.page.getByTestId('create-table').click();
  await p.page.waitForURL(/\/t\/[0-9a-f]{32}$/);
  await p.page.getByTestId('gm-name').waitFor();
  await p.page.waitForFunction(() => /\?join=[0-9a-f]{32}$/.test(document.querySelector('[data-testid="invite-link"]')?.value ?? ''));
  return p.page.getByTestId('invite-link').inputValue();
}

/** Makes a sheet through the form: aptitudes {knowledge…}, skills [ids], specialties [[skill, name]]. */
export async function makeSheet(p, sheet) {
  const page = p.page;
  // On a phone, to the Characters view and back afterwards.
  const layout = page.getByTestId('layout');
  const was = await layout.getAttribute('data-tab');
  await (await reveal(p, page.getByTestId('create-sheet'))).click();
  const form = page.getByTestId('sheet-form');
  await form.getByTestId('sheet-name').fill(sheet.name);
  await form.getByTestId('sheet-concept').fill(sheet.concept);
  for (const [a, n] of Object.entries(sheet.aptitudes)) await form.locator(tid('aptitude-input', { aptitude: a })).fill(String(n));
  for (const s of sheet.skills) await form.locator(tid('skill-check', { skill: s })).check();
  for (const [skill, name] of sheet.specialties || []) {
    await form.getByTestId('add-specialty').click();
    await form.getByTestId('specialty-skill').last().selectOption(skill);
    await form.getByTestId('specialty-name').last().fill(name);
  }
  await accepted(p, `make ${sheet.name}`, () => form.getByTestId('save-sheet').click());
  await form.waitFor({ state: 'detached' });
  if ((await layout.getAttribute('data-tab')) !== was) await showTab(p, was);
  const v = await view(p);
  return v.characters.find((c) => c.sheet.name === sheet.name);
}

/** The GM calls a challenge through the panel; returns its id. */
export async function callChallenge(gm, { character, description, situation, aptitude, skills }) {
  const panel = gm.page.getByTestId('gm-panel');
  await panel.getByTestId('challenge-character').selectOption(String(character));
  await panel.getByTestId('challenge-description').fill(description);
  await panel.getByTestId('challenge-situation').selectOption(situation);
  await panel.getByTestId('challenge-aptitude').selectOption(aptitude);
  for (const s of skills) {
    const box = panel.locator(tid('challenge-skill', { skill: s }));
    if (!(await box.isVisible())) await panel.locator('.other-skills summary').click();
    await box.check();
  }
  await accepted(gm, `call “${description}”`, () => panel.getByTestId('call-challenge').click());
  const v = await view(gm);
  return v.challenges.find((c) => c.description === description && c.status === 'open').id;
}

/** Rolls an open challenge on its player's page; returns the result element's band and dice. */
export async function roll(p, id) {
  const panel = p.page.locator(tid('open-challenge', { 'challenge-id': id, mine: 'true' }));
  await reveal(p, panel);
  await accepted(p, 'roll', () => panel.getByTestId('roll-challenge').click());
  const res = p.page.locator(`${tid('challenge', { 'challenge-id': id, status: 'rolled' })} ${tid('challenge-result')}`);
  await res.waitFor();
  const dice = await res.getByTestId('die').evaluateAll((els) => els.map((e) => [Number(e.dataset.face), e.dataset.kept === 'true']));
  return { result: Number(await res.getAttribute('data-result')), band: await res.getAttribute('data-band'), dice };
}
