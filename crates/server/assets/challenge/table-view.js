// The Challenge rules' table, rendered from the server's view: the header, the GM's panel, the
// challenges (the player's choice with the exact chance of every band, and the dice rolled), the
// character sheets and their form, the fights, the players and the log. What the rules allow is
// the server's to say: the page shows the choices and refusals the view carries.

import { h } from '../common/dom.js';
import { awayCard } from '../common/away.js';
import {
  tagged, showOnly, tabBar, publishLinks, toasts, topbar, tableLinks, banners, pageFooter, logPanel,
  streamLayout,
} from '../common/shell.js';
import { msg, form, submit, select, labelled } from '../common/controls.js';

/**
 * @typedef {import('./page-types').ChallengeContext} Ctx
 * @typedef {import('../common/page-types').Seen<import('./view-types').ChallengeView>} View
 * @typedef {import('./view-types').Challenge} Challenge
 * @typedef {import('./view-types').Character} Character
 * @typedef {import('./view-types').ChoiceOdds} ChoiceOdds
 * @typedef {import('../common/page-types').Child} Child
 */

/** @type {import('./view-types').Aptitude[]} */
const APTITUDES = ['knowledge', 'awareness', 'charisma', 'physicality'];
const SITUATIONS = [
  { value: 'difficult', label: 'Difficult: d4 (at best a partial success)' },
  { value: 'average', label: 'Average: d6 (at best a success)' },
  { value: 'favourable', label: 'Favourable: d8 (things might go exceptionally well)' },
];
const SEED_BANDS = [
  { from: 1, to: 1, label: 'A failure, with a further consequence' },
  { from: 2, to: 2, label: 'A failure with no consequence beyond the failure' },
  { from: 3, to: 4, label: 'A partial success' },
  { from: 5, to: 6, label: 'A success' },
  { from: 7, to: 8, label: 'A success with a long-term benefit beyond the success' },
];

// ---------------------------------------------------------------- words

/**
 * @param {View} view
 * @param {number} id
 */
function playerName(view, id) {
  const p = (view.players || []).find((x) => x.id === id);
  return p ? p.name : `Player ${id}`;
}

// The players at the table now (a removed player's name stays in view.players for the records).
/**
 * @param {View} view
 */
function seated(view) {
  return (view.players || []).filter((p) => !p.removed);
}

/**
 * @param {View} view
 * @param {number | null} id
 */
function character(view, id) {
  return (view.characters || []).find((c) => c.id === id) || null;
}

/**
 * @param {View} view
 * @param {import('./view-types').Aptitude} a
 */
function aptitudeName(view, a) {
  const g = (view.skills || []).find((x) => x.aptitude === a);
  return g ? g.name : a;
}

/**
 * "Physicality: Might", "Knowledge of the Supernatural": the server's words, as the seed heads its lists.
 * @param {View} view
 * @param {import('./view-types').Skill} skill
 */
function skillWords(view, skill) {
  for (const g of view.skills || []) {
    const s = g.skills.find((x) => x.skill === skill);
    if (s) return s.title || s.name;
  }
  return skill;
}

/**
 * The Skill's own name under its Aptitude: "Might", "The Supernatural".
 * @param {string} name
 */
function shortName(name) {
  const m = /^(?:Knowledge|Awareness) of (.*)$/.exec(name) || /^[A-Za-z]+: (.*)$/.exec(name);
  const n = m ? m[1] : name;
  return n.charAt(0).toUpperCase() + n.slice(1);
}

/**
 * @param {View} view
 * @param {import('./view-types').Skill} skill
 */
function skillShort(view, skill) {
  return shortName(skillWords(view, skill));
}

/**
 * An exact probability "n/d" as numbers.
 * @param {string} p
 */
function ratio(p) {
  const [n, d = '1'] = String(p).split('/');
  return { n: Number(n), d: Number(d) };
}

/**
 * @param {string} p
 */
function pct(p) {
  const { n, d } = ratio(p);
  if (!d) return '–';
  const v = (100 * n) / d;
  if (n === 0) return '0%';
  if (n === d) return '100%';
  if (v < 1) return '<1%';
  if (v > 99) return '>99%';
  return `${Math.round(v)}%`;
}

/**
 * The seed's way: "5 in 9 (56%)"; "0"; "certain".
 * @param {string} p
 */
function chance(p) {
  const { n, d } = ratio(p);
  if (n === 0) return '0';
  if (n === d) return 'certain (100%)';
  return `${n} in ${d} (${pct(p)})`;
}

/**
 * @param {{from: number | string, to: number | string}} b
 */
function range(b) {
  return b.from === b.to ? String(b.from) : `${b.from}–${b.to}`;
}

/**
 * @param {string} band
 */
function bandClass(band) {
  return (
    {
      failure_with_consequence: 'bad',
      failure: 'bad',
      partial_success: 'partial',
      success: 'good',
      success_with_benefit: 'great',
    }[band] || ''
  );
}

/**
 * @param {import('./view-types').Specialty | null | undefined} a
 * @param {import('./view-types').Specialty | null | undefined} b
 */
function sameSpecialty(a, b) {
  if (!a && !b) return true;
  return !!a && !!b && a.skill === b.skill && a.name === b.name;
}

// ---------------------------------------------------------------- the page

/** A phone's views (common/shell.js): the challenges (and the GM's panel), the sheets, the table. */
const CHALLENGE_TABS = [
  { id: 'challenges', label: 'Challenges' },
  { id: 'sheets', label: 'Characters' },
  { id: 'table', label: 'Table' },
];

/**
 * @param {Ctx} ctx
 */
export function renderChallengeTable(ctx) {
  const { view, ui } = ctx;
  // A stream shows the challenges, their dice as they fall.
  if (ctx.stream) return streamLayout(ctx, ctx.title || 'The Challenge rules', challengesSection(ctx));
  const gm = view.gm === ctx.you;
  const tab = CHALLENGE_TABS.some((t) => t.id === ui.tab) ? ui.tab : 'challenges';
  // Marked when not shown: a challenge waiting for a roll (this player's, or anyone's to
  // watch), new log lines.
  /** @type {Record<string, number | boolean>} */
  const marks = { table: (ctx.log || []).filter((e) => e.seq > (ui.seenLogSeq || 0)).length };
  if ((view.challenges || []).some((c) => c.status === 'open')) marks.challenges = true;
  const top = headerParts(ctx);
  return [
    topbar(ctx, top),
    banners(ctx),
    showOnly(
      h(
        'div',
        { class: 'layout challenge-layout', 'data-key': 'layout', testid: 'layout' },
        h(
          'main',
          { id: 'main', class: 'main-col', tabindex: -1, 'data-key': 'main' },
          tagged(awayCard(ctx), CHALLENGE_TABS.map((t) => t.id).join(' ')),
          tagged(tableLinks(ctx, top), 'table'),
          tagged([gm ? gmPanel(ctx) : null, challengesSection(ctx)], 'challenges'),
          tagged(sheetsSection(ctx), 'sheets'),
          tagged(fightsSection(ctx), 'table'),
        ),
        h('aside', { class: 'side-col', 'aria-label': 'The table', 'data-key': 'side' }, tagged([playersSection(ctx), logSection(ctx), rulesSection()], 'table')),
      ),
      tab,
    ),
    tabBar(CHALLENGE_TABS, tab, marks, (id) => ctx.showTab(id)),
    h('p', { class: 'visually-hidden', role: 'status', 'aria-live': 'polite', testid: 'announce', 'data-key': 'announce' }, ctx.ui.announce),
    pageFooter(h('a', { href: '/' }, 'Start another table')),
    toasts(ctx),
  ];
}

/**
 * The header's parts (common/shell.js: topbar, tableLinks). On a phone the invitation waits in
 * the Table view once the table is in play: once it has a character sheet (before, the game
 * master is still inviting the players).
 * @param {Ctx} ctx
 * @returns {import('../common/shell.js').HeaderParts}
 */
function headerParts(ctx) {
  const { view } = ctx;
  const gm = view.gm === ctx.you;
  return {
    title: ctx.title || 'The Challenge rules',
    meta: h(
      'span',
      { class: ['badge', gm ? 'phase' : null], testid: 'gm-name', 'data-gm': view.gm === null || view.gm === undefined ? '' : view.gm },
      gm ? 'You are the game master' : view.gm === null || view.gm === undefined ? 'No game master yet' : `Game master: ${playerName(view, view.gm)}`,
    ),
    exportsLabel: 'Export the session',
    gameFile: { download: 'prophecy-challenge.jsonl', title: 'The whole session, one event per line.' },
    publish: publishLinks(ctx, view.gm === ctx.you),
    mayWatch: view.gm === ctx.you,
    inPlay: (view.characters || []).length > 0,
  };
}

// ---------------------------------------------------------------- the players

/**
 * @param {Ctx} ctx
 */
function playersSection(ctx) {
  const { view, ui } = ctx;
  const gm = view.gm === ctx.you;
  return h(
    'section',
    { class: ['panel', 'players', ctx.connected ? null : 'stale'], 'aria-labelledby': 'players-h', 'data-key': 'players' },
    h('h2', { id: 'players-h' }, 'Players'),
    h(
      'ul',
      { class: 'player-list' },
      seated(view).map((p) => {
        const on = ctx.online.has(p.id);
        const isGm = p.id === view.gm;
        const confirmKey = 'hand-gm:' + p.id;
        return h(
          'li',
          { class: ['player', on ? 'online' : 'offline'], testid: 'player', 'data-player-id': p.id, 'data-gm': String(isGm), 'data-key': 'p' + p.id },
          h('span', { class: 'dot', role: 'img', 'aria-label': on ? 'online' : 'offline', title: on ? 'online' : 'offline' }),
          h('span', { class: 'player-name' }, p.name),
          p.id === ctx.you ? h('span', { class: 'tag' }, 'you') : null,
          isGm ? h('span', { class: 'tag gm', testid: 'gm-tag' }, 'game master') : null,
          gm && !isGm
            ? ui.confirm === confirmKey
              ? h(
                  'span',
                  { class: 'confirm', role: 'group', 'aria-label': `Confirm handing the GM seat to ${p.name}` },
                  h(
                    'button',
                    {
                      type: 'button',
                      class: 'btn small primary',
                      testid: 'confirm-hand-gm',
                      disabled: ui.pending.has('hand-gm'),
                      onclick: () => ctx.act('hand-gm', { action: 'hand_gm', to: p.id }, { onDone: () => { ui.confirm = null; } }),
                    },
                    `Make ${p.name} the GM`,
                  ),
                  h('button', { type: 'button', class: 'btn small ghost', onclick: () => { ui.confirm = null; ctx.rerender(); } }, 'Keep it'),
                )
              : h(
                  'button',
                  {
                    type: 'button',
                    class: 'btn small ghost',
                    testid: 'hand-gm',
                    'data-player-id': p.id,
                    'aria-label': `Hand the GM seat to ${p.name}`,
                    onclick: () => { ui.confirm = confirmKey; ctx.rerender(); },
                  },
                  'Hand the GM seat to…',
                )
            : null,
        );
      }),
    ),
    msg(ctx, 'hand-gm'),
  );
}

// ---------------------------------------------------------------- the log and the rules

/**
 * @param {Ctx} ctx
 */
function logSection(ctx) {
  return logPanel(ctx, ctx.log);
}

function rulesSection() {
  return h(
    'section',
    { class: 'panel rules-panel', 'aria-labelledby': 'rules-h', 'data-key': 'rules' },
    h('h2', { id: 'rules-h' }, 'The rules at a glance'),
    h(
      'ul',
      { class: 'small rules-list' },
      h('li', null, 'A difficult situation rolls d4s, an average one d6s, a favourable one d8s.'),
      h('li', null, 'One step of improvement for each relevant Skill held; one for a Specialty that applies when the Skill is not held; one for spending an Aptitude point (one per roll). At most two steps unless a special rule allows more.'),
      h('li', null, 'No step: roll two, keep the lower. One step: roll one. Two steps: roll two, keep the higher; each step beyond adds a die.'),
      h('li', null, '1: a failure, with a further consequence. 2: a failure. 3–4: a partial success. 5–6: a success. 7–8: a success with a long-term benefit.'),
      h('li', null, 'Spent points come back after an hour or so of something relaxing. Fights are not rolled: the player characters win, and the group decides what it cost.'),
    ),
  );
}

// ---------------------------------------------------------------- the GM's panel

/**
 * @param {View} view
 * @param {import('./page-types').Call | null} prev
 */
function newCall(view, prev) {
  return {
    character: nextCharacter(view, prev ? prev.character : ''),
    description: '',
    situation: prev ? prev.situation : 'average',
    aptitude: prev ? prev.aptitude : 'physicality',
    skills: new Set(),
    allowSteps: '',
    custom: false,
    bands: SEED_BANDS.map((b, i) => ({ ...b, key: i })),
  };
}

/**
 * Whom the next challenge is for, after one called for `after` (its id, or '' for none): the
 * next live character in order without an open challenge, so a call for each in turn needs no
 * change of the form; `after` itself when every other has one.
 * @param {import('./view-types').ChallengeView} view
 * @param {string} after
 */
function nextCharacter(view, after) {
  const live = (view.characters || []).filter((c) => !c.retired);
  const at = live.findIndex((c) => String(c.id) === after);
  const turn = [...live.slice(at + 1), ...live.slice(0, at + 1)];
  const free = turn.find((c) => c.open_challenge === null && String(c.id) !== after);
  if (free) return String(free.id);
  return at >= 0 ? after : live.length ? String(live[0].id) : '';
}

/**
 * @param {Ctx} ctx
 */
function gmPanel(ctx) {
  const { view, ui } = ctx;
  if (!ui.call) ui.call = newCall(view, null);
  if (!ui.fight) ui.fight = { description: '', cost: '', suggested: '' };
  return h(
    'section',
    { class: 'panel gm-panel', testid: 'gm-panel', 'aria-labelledby': 'gm-h', 'data-key': 'gm-panel' },
    h('h2', { id: 'gm-h' }, 'Game master'),
    callForm(ctx),
    h(
      'div',
      { class: 'gm-row' },
      restForm(ctx),
      h(
        'details',
        { class: 'fight-details', open: ui.open.has('fight') || ui.msgs.has('fight') || !!ui.fight.description, ontoggle: (e, el) => ctx.toggled('fight', el.open) },
        h('summary', { testid: 'open-fight' }, 'Write down a fight'),
        fightForm(ctx),
      ),
    ),
  );
}

/**
 * @param {Ctx} ctx
 * @param {Event} e
 */
function onCallInput(ctx, e) {
  const c = ctx.ui.call;
  if (!c) return;
  // The form's fields: inputs and selects (a select has no `checked`).
  const t = /** @type {HTMLInputElement} */ (e.target);
  const f = t.getAttribute('data-field');
  if (!f) return;
  if (f === 'skill') {
    const skill = /** @type {import('./view-types').Skill} */ (t.getAttribute('data-skill'));
    if (t.checked) c.skills.add(skill);
    else c.skills.delete(skill);
  } else if (f === 'custom') {
    c.custom = t.checked;
  } else if (f.startsWith('band-')) {
    const row = c.bands.find((b) => String(b.key) === t.getAttribute('data-row'));
    if (row) Object.assign(row, { [f.slice(5)]: t.value });
  } else {
    // The other fields (character, description, situation, aptitude, allowSteps) as typed.
    Object.assign(c, { [f]: t.value });
  }
  if (e.type === 'change') ctx.rerender();
}

/**
 * @param {Ctx} ctx
 */
function callForm(ctx) {
  const { view, ui } = ctx;
  const c = ui.call;
  if (!c) return null; // gmPanel made it
  const live = (view.characters || []).filter((x) => !x.retired);
  if (c.character === '' && live.length) c.character = String(live[0].id);
  const groups = view.skills || [];
  const governing = groups.find((g) => g.aptitude === c.aptitude) || groups[0];
  const others = groups.filter((g) => g !== governing);
  const skillBox = (/** @type {{skill: import('./view-types').Skill, name: string, title: string}} */ s) =>
    h(
      'label',
      { class: 'check', 'data-key': 'cs:' + s.skill },
      h('input', { type: 'checkbox', testid: 'challenge-skill', 'data-skill': s.skill, 'data-field': 'skill', checked: c.skills.has(s.skill) }),
      ' ',
      shortName(s.name),
    );
  const othersChosen = others.some((g) => g.skills.some((s) => c.skills.has(s.skill)));
  return h(
    'div',
    { 'data-key': 'call:' + ui.gens.call },
    form(
      ctx,
      'call',
      {
        class: 'call-form',
        'aria-labelledby': 'call-h',
        oninput: (e) => onCallInput(ctx, e),
        onchange: (e) => onCallInput(ctx, e),
        onsubmit: () => sendCall(ctx),
      },
      h('h3', { id: 'call-h' }, 'Call a challenge'),
      live.length
        ? null
        : h('p', { class: 'small muted' }, 'No character sheet yet: a challenge is called for a character.'),
      h(
        'div',
        { class: 'row wrap' },
        labelled(
          'call-character',
          'For',
          select(
            'call-character',
            'character',
            live.map((x) => ({ value: String(x.id), label: `${x.sheet.name} (${x.owner === ctx.you ? 'yours' : playerName(view, x.owner)})${x.open_challenge === null ? '' : ': a challenge is open'}` })),
            c.character,
            { testid: 'challenge-character', 'data-field': 'character' },
          ),
        ),
        labelled('call-situation', 'Situation', select('call-situation', 'situation', SITUATIONS, c.situation, { testid: 'challenge-situation', 'data-field': 'situation' })),
      ),
      labelled(
        'call-description',
        'What is at stake',
        h('input', { id: 'call-description', type: 'text', maxlength: 300, testid: 'challenge-description', 'data-field': 'description', 'data-key': 'call-description', value: c.description, autocomplete: 'off', placeholder: 'Climb the wet wall before the guards turn' }),
      ),
      labelled(
        'call-aptitude',
        'Governing Aptitude (its points may be spent)',
        select('call-aptitude', 'aptitude', groups.map((g) => ({ value: g.aptitude, label: g.name })), c.aptitude, { testid: 'challenge-aptitude', 'data-field': 'aptitude' }),
      ),
      h(
        'fieldset',
        { class: 'field skills-pick' },
        h('legend', null, 'Relevant Skills (each one held is a step)'),
        h('div', { class: 'checks' }, governing ? governing.skills.map(skillBox) : null),
        h(
          'details',
          { class: 'other-skills', open: ui.open.has('other-skills') || othersChosen, ontoggle: (e, el) => ctx.toggled('other-skills', el.open) },
          h('summary', null, 'Skills of the other Aptitudes'),
          others.map((g) => h('div', { class: 'skill-group', 'data-key': 'og:' + g.aptitude }, h('p', { class: 'small muted group-name' }, g.name), h('div', { class: 'checks' }, g.skills.map(skillBox)))),
        ),
      ),
      h(
        'details',
        { class: 'special-rules', open: ui.open.has('special-rules') || c.custom || c.allowSteps !== '', ontoggle: (e, el) => ctx.toggled('special-rules', el.open) },
        h('summary', null, 'Special rules'),
        labelled(
          'call-allow-steps',
          'Most steps of improvement (the rules allow 2)',
          h('input', { id: 'call-allow-steps', type: 'number', min: 2, max: 8, step: 1, inputmode: 'numeric', testid: 'allow-steps', 'data-field': 'allowSteps', 'data-key': 'call-allow-steps', value: c.allowSteps, placeholder: '2' }),
        ),
        h(
          'label',
          { class: 'check' },
          h('input', { type: 'checkbox', testid: 'custom-bands', 'data-field': 'custom', checked: c.custom }),
          ' Another band table for this challenge',
        ),
        c.custom ? bandsEditor(ctx, c) : null,
      ),
      h('div', { class: 'row' }, submit(ctx, 'call', 'Call the challenge', 'call-challenge')),
    ),
  );
}

/**
 * @param {Ctx} ctx
 * @param {import('./page-types').Call} c
 */
function bandsEditor(ctx, c) {
  return h(
    'div',
    { class: 'bands-editor' },
    h('p', { class: 'small muted' }, 'Bands cover the results 1 to 8, in order, without gaps.'),
    c.bands.map((b) =>
      h(
        'div',
        { class: 'band-row', 'data-key': 'b' + b.key },
        labelled('band-from-' + b.key, 'From', h('input', { id: 'band-from-' + b.key, type: 'number', min: 1, max: 8, testid: 'band-from', 'data-field': 'band-from', 'data-row': b.key, 'data-key': 'band-from-' + b.key, value: b.from })),
        labelled('band-to-' + b.key, 'To', h('input', { id: 'band-to-' + b.key, type: 'number', min: 1, max: 8, testid: 'band-to', 'data-field': 'band-to', 'data-row': b.key, 'data-key': 'band-to-' + b.key, value: b.to })),
        labelled('band-label-' + b.key, 'Means', h('input', { id: 'band-label-' + b.key, type: 'text', maxlength: 80, testid: 'band-label', 'data-field': 'band-label', 'data-row': b.key, 'data-key': 'band-label-' + b.key, value: b.label })),
        h(
          'button',
          {
            type: 'button',
            class: 'icon remove',
            testid: 'remove-band',
            'aria-label': `Remove the band ${range(b)}`,
            onclick: () => {
              c.bands = c.bands.filter((x) => x !== b);
              ctx.rerender();
            },
          },
          h('span', { 'aria-hidden': 'true' }, '×'),
        ),
      ),
    ),
    h(
      'button',
      {
        type: 'button',
        class: 'btn small secondary',
        testid: 'add-band',
        onclick: () => {
          const key = Math.max(-1, ...c.bands.map((b) => b.key)) + 1;
          c.bands.push({ key, from: 8, to: 8, label: '' });
          ctx.focus('band-from-' + key);
          ctx.rerender();
        },
      },
      'Add a band',
    ),
  );
}

/**
 * @param {Ctx} ctx
 */
function sendCall(ctx) {
  const { ui } = ctx;
  const c = ui.call;
  if (!c) return;
  if (c.character === '') {
    ui.msgs.set('call', { kind: 'error', text: 'Make a character sheet first: a challenge is called for a character.' });
    ctx.rerender();
    return;
  }
  /** @type {import('../common/page-types').Action} */
  const action = {
    action: 'call_challenge',
    character: Number(c.character),
    description: c.description.trim(),
    situation: c.situation,
    aptitude: c.aptitude,
    skills: Array.from(c.skills),
  };
  if (String(c.allowSteps).trim() !== '') {
    const n = Number(c.allowSteps);
    if (!Number.isInteger(n) || n < 2 || n > 8) {
      ui.msgs.set('call', { kind: 'error', text: 'The most steps a special rule allows is a whole number from 2 to 8.' });
      ctx.rerender();
      return;
    }
    if (n !== 2) action.allow_steps = n;
  }
  if (c.custom) {
    const bands = c.bands.map((b) => ({ from: Number(b.from), to: Number(b.to), label: String(b.label).trim() }));
    if (bands.some((b) => !Number.isInteger(b.from) || !Number.isInteger(b.to) || b.from < 1 || b.to > 8)) {
      ui.msgs.set('call', { kind: 'error', text: 'Each band goes from a result to a result, both from 1 to 8.' });
      ctx.rerender();
      return;
    }
    action.bands = bands;
  }
  ctx.act('call', action, {
    onDone: () => {
      ui.call = newCall(ctx.view, c);
      ui.gens.call++;
      ctx.focus('call-description');
    },
  });
}

/**
 * @param {Ctx} ctx
 */
function restForm(ctx) {
  const { view, ui } = ctx;
  const live = (view.characters || []).filter((x) => !x.retired);
  const spent = live.filter((c) => c.aptitudes.some((a) => a.current < a.maximum));
  return h(
    'div',
    { class: 'rest-box', 'data-key': 'rest' },
    h('h3', null, 'A rest'),
    h('p', { class: 'small muted' }, spent.length ? `Points spent: ${spent.map((c) => c.sheet.name).join(', ')}.` : 'No point is spent.'),
    h(
      'div',
      { class: 'row wrap' },
      labelled(
        'rest-character',
        'Who rested an hour or more',
        select('rest-character', 'character', [{ value: '', label: 'Everyone' }].concat(live.map((c) => ({ value: String(c.id), label: c.sheet.name }))), ui.rest, {
          testid: 'rest-character',
          onchange: (e, el) => {
            ui.rest = el.value;
          },
        }),
      ),
      h(
        'button',
        {
          type: 'button',
          class: 'btn secondary',
          testid: 'rest',
          disabled: ui.pending.has('rest'),
          onclick: () => ctx.act('rest', ui.rest === '' ? { action: 'rest' } : { action: 'rest', character: Number(ui.rest) }),
        },
        'Rest: points come back',
      ),
    ),
    msg(ctx, 'rest'),
  );
}

/**
 * @param {Ctx} ctx
 */
function fightForm(ctx) {
  const { view, ui } = ctx;
  const f = ui.fight;
  if (!f) return null; // gmPanel made it
  const onInput = (/** @type {Event} */ e) => {
    const t = /** @type {HTMLInputElement} */ (e.target);
    const field = t.getAttribute('data-field');
    if (field) Object.assign(f, { [field]: t.value });
  };
  return h(
    'div',
    { class: 'fight-box', 'data-key': 'fight:' + ui.gens.fight },
    form(
      ctx,
      'fight',
      {
        'aria-labelledby': 'fight-h',
        oninput: onInput,
        onchange: onInput,
        onsubmit: () => {
          /** @type {import('../common/page-types').Action} */
          const action = { action: 'record_fight', description: f.description.trim(), cost: f.cost.trim() };
          if (f.suggested !== '') action.suggested_by = Number(f.suggested);
          ctx.act('fight', action, {
            onDone: () => {
              ui.fight = { description: '', cost: '', suggested: '' };
              ui.gens.fight++;
            },
          });
        },
      },
      h('h3', { id: 'fight-h' }, 'A fight'),
      h('p', { class: 'small muted' }, 'Fights are not rolled: the player characters win. Decide as a group what it cost.'),
      labelled('fight-description', 'The fight', h('textarea', { id: 'fight-description', rows: 2, maxlength: 1000, testid: 'fight-description', 'data-field': 'description', 'data-key': 'fight-description' }, f.description)),
      labelled('fight-cost', 'What winning cost', h('textarea', { id: 'fight-cost', rows: 2, maxlength: 1000, testid: 'fight-cost', 'data-field': 'cost', 'data-key': 'fight-cost' }, f.cost)),
      labelled(
        'fight-suggested',
        'Cost suggested by',
        select('fight-suggested', 'suggested', [{ value: '', label: 'The group' }].concat(seated(view).map((p) => ({ value: String(p.id), label: p.name }))), f.suggested, { testid: 'fight-suggested', 'data-field': 'suggested' }),
      ),
      h('div', { class: 'row' }, submit(ctx, 'fight', 'Write the fight down', 'record-fight')),
    ),
  );
}

// ---------------------------------------------------------------- challenges

/**
 * @param {Ctx} ctx
 */
function challengesSection(ctx) {
  const { view } = ctx;
  const all = (view.challenges || []).slice();
  const open = all.filter((c) => c.status === 'open');
  const done = all.filter((c) => c.status !== 'open').reverse();
  return h(
    'section',
    { class: 'panel challenges', 'aria-labelledby': 'challenges-h', 'data-key': 'challenges' },
    h('h2', { id: 'challenges-h' }, 'Challenges'),
    firstStep(ctx),
    !all.length ? h('p', { class: 'muted' }, noChallengeYet(ctx)) : null,
    open.map((c) => openChallenge(ctx, c)),
    done.length ? h('ol', { class: 'challenge-list', 'aria-label': 'Challenges rolled, newest first' }, done.map((c) => pastChallenge(ctx, c))) : null,
  );
}

/**
 * What the challenges panel says before the first one, to whoever reads it.
 * @param {Ctx} ctx
 */
function noChallengeYet(ctx) {
  if (ctx.watching) return 'No challenge yet: the game master calls them, and the rolls show here as they fall.';
  if (ctx.view.gm === ctx.you) return 'Call a challenge when failing is as interesting as succeeding.';
  return 'When the game master calls a challenge for your character, you choose how to improve the roll here and roll.';
}

/**
 * A player without a character is pointed to making one: challenges are called for characters.
 * @param {Ctx} ctx
 */
function firstStep(ctx) {
  const { view, ui } = ctx;
  const mine = (view.characters || []).some((c) => c.owner === ctx.you && !c.retired);
  if (ctx.watching || view.gm === ctx.you || mine || ui.draft) return null;
  return h(
    'div',
    { class: 'first-step', testid: 'make-character-first', 'data-key': 'first-step' },
    h('p', null, h('strong', null, 'First, make your character.'), ' The game master calls challenges for characters: yours needs a sheet, with its Aptitudes and Skills.'),
    h(
      'button',
      {
        type: 'button',
        class: 'btn primary',
        testid: 'start-sheet',
        onclick: () => {
          ctx.showTab('sheets');
          openDraft(ctx, emptyDraft(ctx));
        },
      },
      'Make your character',
    ),
  );
}

/**
 * @param {Ctx} ctx
 * @param {Challenge} c
 */
function challengeHead(ctx, c) {
  const { view } = ctx;
  const ch = character(view, c.character);
  return [
    h(
      'h3',
      { class: 'challenge-title' },
      h('span', { class: 'challenge-who' }, ch ? ch.sheet.name : `Character ${c.character}`),
      ': “',
      c.description,
      '”',
    ),
    h(
      'p',
      { class: 'meta challenge-meta' },
      h('span', { class: ['badge', 'sit-' + c.situation] }, c.situation_words),
      h('span', { class: 'badge' }, aptitudeName(view, c.aptitude)),
      c.skills.length ? c.skills.map((s) => h('span', { class: 'badge', 'data-key': 's:' + s }, skillWords(view, s))) : h('span', { class: 'badge' }, 'no Skill'),
      c.allow_steps > 2 ? h('span', { class: 'badge special' }, `special rule: up to ${c.allow_steps} steps`) : null,
      c.custom_bands ? h('span', { class: 'badge special', testid: 'custom-bands-note' }, 'its own band table') : null,
    ),
  ];
}

/**
 * @param {Ctx} ctx
 * @param {Challenge} c
 */
function choiceState(ctx, c) {
  let s = ctx.ui.choices.get(c.id);
  if (!s) {
    s = { specialty: -1, spend: false };
    ctx.ui.choices.set(c.id, s);
  }
  return s;
}

/**
 * @param {Ctx} ctx
 * @param {Challenge} c
 */
function openChallenge(ctx, c) {
  const { view, ui } = ctx;
  const ch = character(view, c.character);
  const mine = !!ch && ch.owner === ctx.you;
  const gm = view.gm === ctx.you;
  return h(
    'article',
    { class: ['challenge', 'open', mine ? 'mine' : null], id: 'challenge-' + c.id, testid: 'open-challenge', 'data-challenge-id': c.id, 'data-character-id': c.character, 'data-mine': String(mine), 'data-key': 'open:' + c.id, 'aria-label': `Open challenge for ${ch ? ch.sheet.name : 'a character'}` },
    h('p', { class: 'kicker' }, mine ? 'Your roll' : 'Waiting for a roll'),
    challengeHead(ctx, c),
    mine ? choicePanel(ctx, c, ch) : h('p', { class: 'muted', testid: 'waiting-roll' }, `Waiting for ${ch ? playerName(view, ch.owner) : 'the player'} to choose and roll${ch ? ` for ${ch.sheet.name}` : ''}…`),
    c.custom_bands ? bandTable(c) : null,
    gm
      ? h(
          'div',
          { class: 'row' },
          h(
            'button',
            { type: 'button', class: 'btn ghost small', testid: 'cancel-challenge', 'data-challenge-id': c.id, disabled: ui.pending.has('cancel:' + c.id), onclick: () => ctx.act('cancel:' + c.id, { action: 'cancel_challenge', challenge: c.id }) },
            'Cancel this challenge',
          ),
          msg(ctx, 'cancel:' + c.id),
        )
      : null,
  );
}

/**
 * @param {Challenge} c
 */
function bandTable(c) {
  return h(
    'details',
    { class: 'band-table' },
    h('summary', null, 'This challenge’s band table'),
    h('ul', { class: 'small' }, c.bands.map((b) => h('li', { 'data-key': 'b' + b.from }, `${range(b)}: ${b.label}`))),
  );
}

/**
 * @param {Ctx} ctx
 * @param {Challenge} c
 * @param {Character} ch
 */
function choicePanel(ctx, c, ch) {
  const { view, ui } = ctx;
  const s = choiceState(ctx, c);
  /** @type {import('./view-types').Specialty[]} */
  const specialties = [];
  for (const e of c.choices) {
    const sp = e.choice.specialty;
    if (sp && !specialties.some((x) => sameSpecialty(x, sp))) specialties.push(sp);
  }
  if (s.specialty >= specialties.length) s.specialty = -1;
  const spec = s.specialty >= 0 ? specialties[s.specialty] : null;
  const find = (/** @type {import('./view-types').Specialty | null} */ sp, /** @type {number} */ points) => c.choices.find((e) => sameSpecialty(e.choice.specialty, sp) && (e.choice.aptitude_points || 0) === points) || null;
  const without = find(spec, 0);
  const withPoint = find(spec, 1);
  const chosen = s.spend ? withPoint : without;
  const apt = ch.aptitudes.find((a) => a.aptitude === c.aptitude);
  const aptName = aptitudeName(view, c.aptitude);
  const rollKey = 'roll:' + c.id;
  // A Specialty that can never be used here (the Skill is held, or too many steps either way).
  const specRefusal = (/** @type {import('./view-types').Specialty} */ sp) => {
    const a = find(sp, 0);
    const b = find(sp, 1);
    return a && a.refused && (!b || b.refused) ? a.refused : null;
  };
  const held = c.skills.filter((sk) => ch.sheet.skills.includes(sk));
  const onChange = (/** @type {Event} */ e) => {
    // The panel's fields: the Specialty's select and the point's checkbox.
    const t = /** @type {HTMLInputElement} */ (e.target);
    if (t.getAttribute('data-field') === 'specialty') s.specialty = Number(t.value);
    else if (t.getAttribute('data-field') === 'spend') s.spend = t.checked;
    ctx.rerender();
  };
  return h(
    'div',
    { class: 'choice-panel', onchange: onChange },
    h(
      'p',
      { class: 'small' },
      held.length
        ? `${ch.sheet.name} has ${held.map((sk) => skillWords(view, sk)).join(' and ')}: ${held.length === 1 ? 'a step' : `${held.length} steps`} already.`
        : `${ch.sheet.name} has none of the Skills named: no step from a Skill.`,
    ),
    specialties.length
      ? labelled(
          'choice-specialty-' + c.id,
          'A Specialty that applies (a step when the Skill is not held)',
          h(
            'select',
            { id: 'choice-specialty-' + c.id, testid: 'choice-specialty', 'data-field': 'specialty', 'data-key': 'choice-specialty-' + c.id },
            h('option', { value: '-1', selected: s.specialty === -1, 'data-key': 'o:-1' }, 'No Specialty'),
            specialties.map((sp, i) => {
              const r = specRefusal(sp);
              return h('option', { value: String(i), selected: s.specialty === i, disabled: !!r, 'data-key': 'o:' + i }, `${sp.name} (${skillShort(view, sp.skill)})${r ? ' — not possible here' : ''}`);
            }),
          ),
        )
      : null,
    specialties.some((sp) => specRefusal(sp))
      ? h(
          'ul',
          { class: 'small refused-list' },
          specialties.map((sp, i) => {
            const r = specRefusal(sp);
            return r ? h('li', { testid: 'choice-refused', 'data-code': r.code, 'data-key': 'sr' + i }, h('strong', null, `${sp.name}: ${r.rule}: `), r.message) : null;
          }),
        )
      : null,
    h(
      'div',
      { class: 'spend' },
      h(
        'label',
        { class: 'check' },
        h('input', { type: 'checkbox', id: 'spend-point-' + c.id, testid: 'spend-point', 'data-field': 'spend', checked: s.spend, disabled: !withPoint || (!!withPoint.refused && !s.spend), 'data-key': 'spend-point-' + c.id }),
        ` Spend a point of ${aptName}`,
        apt ? h('span', { class: 'muted' }, ` (${apt.current} of ${apt.maximum} left)`) : null,
      ),
      withPoint && withPoint.refused ? h('p', { class: 'small refused-note', testid: 'choice-refused', 'data-code': withPoint.refused.code }, h('strong', null, withPoint.refused.rule + ': '), withPoint.refused.message) : null,
    ),
    oddsTable(ctx, c, without, withPoint, s.spend, aptName),
    h(
      'p',
      { class: 'choice-summary', role: 'status', 'aria-live': 'polite', testid: 'choice-pool' },
      chosen && !chosen.refused
        ? `You roll ${chosen.pool_words} (${chosen.steps === 1 ? '1 step' : `${chosen.steps} steps`}). ${c.bands.map((b, i) => `${range(b)}: ${chance(chosen.bands[i] ? chosen.bands[i].p : '0')}`).join('; ')}.`
        : chosen && chosen.refused
          ? `Not possible: ${chosen.refused.message}`
          : '',
    ),
    chosen && chosen.refused && !(withPoint && withPoint.refused && s.spend)
      ? h('p', { class: 'small refused-note', testid: 'choice-refused', 'data-code': chosen.refused.code }, h('strong', null, chosen.refused.rule + ': '), chosen.refused.message)
      : null,
    h(
      'div',
      { class: 'row roll-row' },
      h(
        'button',
        {
          type: 'button',
          class: 'btn primary big',
          testid: 'roll-challenge',
          'data-challenge-id': c.id,
          disabled: ui.pending.has(rollKey) || !chosen || !!chosen.refused,
          onclick: () => {
            if (chosen) ctx.act(rollKey, { action: 'roll', challenge: c.id, choice: chosen.choice });
          },
        },
        ui.pending.has(rollKey) ? 'Rolling…' : chosen && !chosen.refused ? `Roll ${chosen.pool_words}` : 'Roll',
      ),
      msg(ctx, rollKey),
    ),
  );
}

/**
 * @param {Ctx} ctx
 * @param {Challenge} c
 * @param {ChoiceOdds | null} without
 * @param {ChoiceOdds | null} withPoint
 * @param {boolean} spend
 * @param {string} aptName
 */
function oddsTable(ctx, c, without, withPoint, spend, aptName) {
  const col = (/** @type {ChoiceOdds | null} */ e) => (e && !e.refused ? e : null);
  const a = col(without);
  const b = col(withPoint);
  const head = (/** @type {ChoiceOdds | null} */ e, /** @type {string} */ label, /** @type {boolean} */ chosen) =>
    h(
      'th',
      { scope: 'col', class: chosen ? 'chosen' : null, 'aria-current': chosen ? 'true' : null },
      label,
      h('span', { class: 'pool' }, e ? e.refused ? 'not possible' : e.pool_words : '–'),
      chosen ? h('span', { class: 'visually-hidden' }, ' (your choice)') : null,
    );
  const cell = (/** @type {ChoiceOdds | null} */ e, /** @type {number} */ i, /** @type {boolean} */ chosen) => {
    if (!e || e.refused) return h('td', { class: ['odds-cell', 'none', chosen ? 'chosen' : null] }, '–');
    const p = e.bands[i] ? e.bands[i].p : '0';
    const { n } = ratio(p);
    return h(
      'td',
      { class: ['odds-cell', chosen ? 'chosen' : null, n === 0 ? 'zero' : null] },
      h('span', { class: 'pct' }, pct(p)),
      h('span', { class: 'frac' }, n === 0 ? 'never' : chance(p).replace(/ \(.*\)$/, '')),
      // A bar without inline styles (the page's CSP forbids them).
      h('progress', { class: 'bar', max: ratio(p).d, value: ratio(p).n, 'aria-hidden': 'true', tabindex: -1 }),
    );
  };
  const chosenEntry = spend ? withPoint : without;
  return h(
    'table',
    { class: 'odds-table' },
    h('caption', null, 'The exact chance of each result, without and with the point'),
    h(
      'thead',
      null,
      h(
        'tr',
        null,
        h('th', { scope: 'col' }, 'Result'),
        head(without, 'Without a point', !spend),
        head(withPoint, `With a point of ${aptName}`, spend),
      ),
    ),
    h(
      'tbody',
      null,
      c.bands.map((band, i) => {
        const pOf = (/** @type {ChoiceOdds | null} */ e) => (e && !e.refused && e.bands[i] ? e.bands[i].p : '');
        return h(
          'tr',
          {
            testid: 'band-odds',
            'data-from': band.from,
            'data-to': band.to,
            'data-p': pOf(chosenEntry),
            'data-p-without': pOf(a),
            'data-p-with': pOf(b),
            'data-key': 'band:' + band.from,
          },
          h('th', { scope: 'row' }, h('span', { class: 'range' }, range(band)), ' ', band.label),
          cell(without, i, !spend),
          cell(withPoint, i, spend),
        );
      }),
    ),
  );
}

/**
 * @param {Ctx} ctx
 * @param {Challenge} c
 */
function pastChallenge(ctx, c) {
  const o = c.outcome;
  return h(
    'li',
    { class: ['challenge', c.status], id: 'challenge-' + c.id, testid: 'challenge', 'data-challenge-id': c.id, 'data-status': c.status, 'data-key': 'c:' + c.id },
    challengeHead(ctx, c),
    c.status === 'cancelled' ? h('p', { class: 'muted' }, 'Cancelled by the game master: nothing was rolled or spent.') : null,
    o ? result(ctx, c, o) : null,
  );
}

/**
 * @param {NonNullable<Challenge['outcome']>} o
 */
function keptIndex(o) {
  return o.faces.indexOf(o.result);
}

/**
 * @param {Ctx} ctx
 * @param {Challenge} c
 * @param {NonNullable<Challenge['outcome']>} o
 */
function result(ctx, c, o) {
  const { view } = ctx;
  const kept = keptIndex(o);
  const used = [];
  if (o.skills_held) used.push(o.skills_held === 1 ? 'a Skill held' : `${o.skills_held} Skills held`);
  if (o.choice && o.choice.specialty) used.push(`the Specialty “${o.choice.specialty.name}”`);
  if (o.spent) used.push(`a point of ${aptitudeName(view, o.spent)}`);
  const ch = character(view, c.character);
  return h(
    'div',
    { class: ['result', 'band-' + bandClass(o.band)], testid: 'challenge-result', 'data-result': o.result, 'data-band': o.band },
    h(
      'p',
      { class: 'small muted' },
      `${o.pool_words}; ${o.steps === 1 ? '1 step' : `${o.steps} steps`}${used.length ? ` (${used.join(', ')})` : ' (no improvement)'}.`,
    ),
    h(
      'ul',
      { class: 'cdice', 'aria-label': `The dice: ${o.faces.join(', ')}` },
      o.faces.map((f, i) =>
        h(
          'li',
          { class: ['cdie', 'd' + c.sides, i === kept ? 'kept' : null], testid: 'die', 'data-face': f, 'data-kept': String(i === kept), 'data-key': 'd' + i },
          h('span', { class: 'face' }, String(f)),
          h('span', { class: 'visually-hidden' }, ` on a d${c.sides}${i === kept ? ', kept' : ''}`),
          i === kept && o.faces.length > 1 ? h('span', { class: 'kept-tag', 'aria-hidden': 'true' }, 'kept') : null,
        ),
      ),
    ),
    h('p', { class: 'outcome-line' }, h('strong', { class: 'result-number' }, String(o.result)), ' — ', h('span', { class: 'band-label' }, o.label)),
    c.custom_bands ? h('p', { class: 'small muted' }, 'Read on this challenge’s own band table.') : null,
    narration(ctx, c, ch),
  );
}

/** What happened after the roll: written by the character's player or the GM, kept in the log
 * and the export; everyone else reads it. A draft being typed survives other players' updates. */
/**
 * @param {Ctx} ctx
 * @param {Challenge} c
 * @param {Character | null} ch
 */
function narration(ctx, c, ch) {
  const { view, ui } = ctx;
  const text = c.narration ? c.narration.text : '';
  const mayWrite = (ch && ch.owner === ctx.you) || view.gm === ctx.you;
  const shown = c.narration ? h('blockquote', { class: 'narration-text', testid: 'narration-text' }, text) : null;
  if (!mayWrite) return shown;
  const key = 'narrate:' + c.id;
  const draft = ui.narrations[c.id] ?? text;
  return h(
    'div',
    { class: 'narration', 'data-key': 'narration' },
    shown,
    form(
      ctx,
      key,
      {
        'aria-label': 'Narrate what happens',
        oninput: (e) => {
          const t = /** @type {HTMLTextAreaElement} */ (e.target); // the form's one field
          if (t.name === 'text') ui.narrations[c.id] = t.value;
        },
        onsubmit: (el) => {
          const value = /** @type {HTMLTextAreaElement} */ (el.elements.namedItem('text')).value.trim();
          ctx.act(key, { action: 'narrate', challenge: c.id, text: value }, { onDone: () => { delete ui.narrations[c.id]; } });
        },
      },
      labelled('narration-' + c.id, c.narration ? 'Change the narration' : 'Narrate what happens', h('textarea', { id: 'narration-' + c.id, name: 'text', rows: 3, maxlength: 4000, testid: 'narration-input', 'data-key': 'narration-input' }, draft)),
      h('div', { class: 'row' }, submit(ctx, key, c.narration ? 'Save the narration' : 'Write it down', 'narrate')),
    ),
  );
}

// ---------------------------------------------------------------- fights

/**
 * @param {Ctx} ctx
 */
function fightsSection(ctx) {
  const { view } = ctx;
  const fights = view.fights || [];
  if (!fights.length) return null;
  return h(
    'section',
    { class: 'panel fights', 'aria-labelledby': 'fights-h', 'data-key': 'fights' },
    h('h2', { id: 'fights-h' }, 'Fights'),
    h(
      'ol',
      { class: 'fight-list' },
      fights.map((f, i) =>
        h(
          'li',
          { testid: 'fight', 'data-key': 'f' + i },
          h('p', { class: 'fight-text' }, f.description),
          h('p', { class: 'small' }, h('strong', null, 'Won. It cost: '), f.cost && f.cost.trim() ? f.cost : 'nothing', f.suggested_by !== null && f.suggested_by !== undefined ? ` (suggested by ${playerName(view, f.suggested_by)})` : ''),
        ),
      ),
    ),
  );
}

// ---------------------------------------------------------------- sheets

/**
 * @param {Ctx} ctx
 */
/**
 * @param {Ctx} ctx
 * @returns {import('./page-types').SheetDraft}
 */
function emptyDraft(ctx) {
  return {
    mode: 'create',
    character: null,
    owner: String(ctx.you),
    name: '',
    concept: '',
    aptitudes: { knowledge: '1', awareness: '1', charisma: '1', physicality: '1' },
    skills: new Set(),
    specialties: [],
    abilities: '',
    nextKey: 0,
  };
}

/**
 * @param {Character} c
 */
/**
 * @param {Character} c
 * @returns {import('./page-types').SheetDraft}
 */
function draftOf(c) {
  const s = c.sheet;
  return {
    mode: 'edit',
    character: c.id,
    owner: String(c.owner),
    name: s.name,
    concept: s.concept || '',
    aptitudes: Object.fromEntries(APTITUDES.map((a) => [a, String(s.aptitudes[a] || 0)])),
    skills: new Set(s.skills),
    specialties: s.specialties.map((sp, i) => ({ key: i, skill: sp.skill, name: sp.name })),
    abilities: s.abilities || '',
    nextKey: s.specialties.length,
  };
}

/**
 * @param {Ctx} ctx
 * @param {import('./page-types').SheetDraft} draft
 */
function openDraft(ctx, draft) {
  ctx.ui.draft = draft;
  ctx.ui.gens.sheet++;
  ctx.ui.msgs.delete('sheet');
  ctx.focus('sheet-name');
  ctx.rerender();
}

/**
 * @param {Ctx} ctx
 */
function sheetsSection(ctx) {
  const { view, ui } = ctx;
  const live = (view.characters || []).filter((c) => !c.retired);
  const retired = (view.characters || []).filter((c) => c.retired);
  const mine = live.filter((c) => c.owner === ctx.you);
  return h(
    'section',
    { class: 'panel sheets', 'aria-labelledby': 'sheets-h', 'data-key': 'sheets' },
    h(
      'div',
      { class: 'section-head' },
      h('h2', { id: 'sheets-h' }, 'Characters'),
      ui.draft
        ? null
        : h('button', { type: 'button', class: 'btn primary', testid: 'create-sheet', onclick: () => openDraft(ctx, emptyDraft(ctx)) }, mine.length ? 'Make another character' : 'Make a character'),
    ),
    ui.draft ? sheetForm(ctx) : null,
    live.length ? h('div', { class: 'sheet-cards' }, live.map((c) => sheetCard(ctx, c))) : h('p', { class: 'muted' }, 'No character yet.'),
    retired.length
      ? h(
          'details',
          { class: 'retired' },
          h('summary', null, `Retired characters (${retired.length})`),
          h('ul', null, retired.map((c) => h('li', { testid: 'sheet-card', 'data-character-id': c.id, 'data-retired': 'true', 'data-owner': c.owner, 'data-key': 'r' + c.id }, `${c.sheet.name} (${c.owner_name})`))),
        )
      : null,
  );
}

/**
 * @param {Ctx} ctx
 * @param {Character} c
 */
function sheetCard(ctx, c) {
  const { view, ui } = ctx;
  const gm = view.gm === ctx.you;
  const own = c.owner === ctx.you;
  const may = own || gm;
  const s = c.sheet;
  const retireKey = 'retire:' + c.id;
  const open = c.open_challenge !== null && c.open_challenge !== undefined ? (view.challenges || []).find((x) => x.id === c.open_challenge) : null;
  return h(
    'article',
    { class: ['card', 'sheet-card', own ? 'yours' : null], testid: 'sheet-card', 'data-character-id': c.id, 'data-owner': c.owner, 'data-retired': 'false', 'data-key': 'sc' + c.id, 'aria-labelledby': 'sheet-h-' + c.id },
    h('h3', { class: 'card-title', id: 'sheet-h-' + c.id }, s.name),
    h('p', { class: 'small muted' }, own ? 'Your character' : c.owner === view.gm ? `The game master’s character (${c.owner_name})` : `Played by ${c.owner_name}`, s.concept ? ` · ${s.concept}` : ''),
    h(
      'ul',
      { class: 'aptitudes', 'aria-label': 'Aptitude points: left of the maximum' },
      c.aptitudes.map((a) =>
        h(
          'li',
          { testid: 'aptitude', 'data-aptitude': a.aptitude, 'data-current': a.current, 'data-maximum': a.maximum, 'data-key': a.aptitude },
          h('span', { class: 'apt-name' }, a.name),
          h('span', { class: 'apt-points' }, `${a.current}/${a.maximum}`),
          a.maximum <= 10
            ? h(
                'span',
                { class: 'apt-dots', 'aria-hidden': 'true' },
                Array.from({ length: a.maximum }, (_, i) => h('span', { class: ['pt', i < a.current ? 'on' : 'off'] })),
              )
            : null,
        ),
      ),
    ),
    h(
      'div',
      { class: 'sheet-skills' },
      h('h4', null, 'Skills'),
      s.skills.length
        ? h(
            'ul',
            { class: 'skill-list' },
            (view.skills || [])
              .filter((g) => g.skills.some((x) => s.skills.includes(x.skill)))
              .map((g) => h('li', { 'data-key': g.aptitude }, h('span', { class: 'muted' }, g.name + ': '), g.skills.filter((x) => s.skills.includes(x.skill)).map((x) => shortName(x.name)).join(', '))),
          )
        : h('p', { class: 'small muted' }, 'None.'),
    ),
    s.specialties.length
      ? h('div', { class: 'sheet-specialties' }, h('h4', null, 'Specialties'), h('ul', null, s.specialties.map((sp, i) => h('li', { 'data-key': 'sp' + i }, `${skillWords(view, sp.skill)}: ${sp.name}`))))
      : null,
    s.abilities && s.abilities.trim() ? h('div', { class: 'sheet-abilities' }, h('h4', null, 'Abilities'), h('p', { class: 'abilities-text' }, s.abilities)) : null,
    open ? h('p', { class: 'small open-note' }, h('a', { href: '#challenge-' + open.id }, `A challenge waits: “${open.description}”`)) : null,
    may
      ? h(
          'div',
          { class: 'row card-actions' },
          h('button', { type: 'button', class: 'btn small secondary', testid: 'edit-sheet', 'data-character-id': c.id, 'aria-label': `Edit ${s.name}`, onclick: () => openDraft(ctx, draftOf(c)) }, 'Edit'),
          ui.confirm === retireKey
            ? h(
                'span',
                { class: 'confirm', role: 'group', 'aria-label': `Confirm retiring ${s.name}` },
                h('button', { type: 'button', class: 'btn small danger', testid: 'confirm-retire', disabled: ui.pending.has(retireKey), onclick: () => ctx.act(retireKey, { action: 'retire_sheet', character: c.id }, { onDone: () => { ui.confirm = null; } }) }, `Retire ${s.name}`),
                h('button', { type: 'button', class: 'btn small ghost', onclick: () => { ui.confirm = null; ctx.rerender(); } }, 'Keep'),
              )
            : h('button', { type: 'button', class: 'btn small ghost', testid: 'retire-sheet', 'data-character-id': c.id, 'aria-label': `Retire ${s.name}`, onclick: () => { ui.confirm = retireKey; ctx.rerender(); } }, 'Retire'),
        )
      : null,
    msg(ctx, retireKey),
  );
}

/**
 * @param {Ctx} ctx
 * @param {Event} e
 */
function onSheetInput(ctx, e) {
  const d = ctx.ui.draft;
  if (!d) return;
  // The form's fields: inputs, selects and a textarea (only inputs have `checked`).
  const t = /** @type {HTMLInputElement} */ (e.target);
  const f = t.getAttribute('data-field');
  if (!f) return;
  if (f === 'aptitude') d.aptitudes[String(t.getAttribute('data-aptitude'))] = t.value;
  else if (f === 'skill') {
    const skill = /** @type {import('./view-types').Skill} */ (t.getAttribute('data-skill'));
    if (t.checked) d.skills.add(skill);
    else d.skills.delete(skill);
  } else if (f === 'spec-skill' || f === 'spec-name') {
    const row = d.specialties.find((r) => String(r.key) === t.getAttribute('data-row'));
    if (row) Object.assign(row, { [f === 'spec-skill' ? 'skill' : 'name']: t.value });
  } else Object.assign(d, { [f]: t.value });
}

/**
 * @param {Ctx} ctx
 */
function sheetForm(ctx) {
  const { view, ui } = ctx;
  const d = ui.draft;
  if (!d) return null;
  const gm = view.gm === ctx.you;
  const editing = d.mode === 'edit';
  const target = editing ? character(view, d.character) : null;
  const groups = view.skills || [];
  const skillOptions = groups.map((g) => ({ group: g.name, options: g.skills.map((s) => ({ value: s.skill, label: skillWords(view, s.skill) })) }));
  return h(
    'div',
    { class: 'sheet-form-wrap', 'data-key': 'sheet-form:' + ui.gens.sheet },
    form(
      ctx,
      'sheet',
      {
        class: 'sheet-form',
        testid: 'sheet-form',
        'aria-labelledby': 'sheet-form-h',
        oninput: (e) => onSheetInput(ctx, e),
        onchange: (e) => onSheetInput(ctx, e),
        onsubmit: () => sendSheet(ctx),
      },
      h('h3', { id: 'sheet-form-h' }, editing ? `Edit ${target ? target.sheet.name : 'the sheet'}` : 'Make a character'),
      editing && target && target.aptitudes.some((a) => a.current < a.maximum) ? h('p', { class: 'small muted' }, 'Points already spent stay spent until a rest.') : null,
      !editing && gm
        ? labelled(
            'sheet-owner',
            'Whose character',
            select('sheet-owner', 'owner', seated(view).map((p) => ({ value: String(p.id), label: p.id === ctx.you ? 'Yours (a non-player character)' : `${p.name}’s` })), d.owner, { testid: 'sheet-owner', 'data-field': 'owner' }),
          )
        : null,
      h(
        'div',
        { class: 'row wrap' },
        labelled('sheet-name', 'Name', h('input', { id: 'sheet-name', type: 'text', maxlength: 60, required: true, autocomplete: 'off', testid: 'sheet-name', 'data-field': 'name', 'data-key': 'sheet-name', value: d.name })),
        labelled('sheet-concept', 'Concept', h('input', { id: 'sheet-concept', type: 'text', maxlength: 200, autocomplete: 'off', testid: 'sheet-concept', 'data-field': 'concept', 'data-key': 'sheet-concept', value: d.concept, placeholder: 'A shy performer who shines on stage' })),
      ),
      h(
        'fieldset',
        { class: 'field aptitude-points' },
        h('legend', null, 'Aptitude points (0 to 20 each)'),
        h(
          'div',
          { class: 'apt-inputs' },
          groups.map((g) =>
            labelled(
              'apt-' + g.aptitude,
              g.name,
              h('input', { id: 'apt-' + g.aptitude, type: 'number', min: 0, max: 20, step: 1, inputmode: 'numeric', testid: 'aptitude-input', 'data-aptitude': g.aptitude, 'data-field': 'aptitude', 'data-key': 'apt-' + g.aptitude, value: d.aptitudes[g.aptitude] }),
            ),
          ),
        ),
      ),
      h(
        'div',
        { class: 'skill-groups' },
        groups.map((g) =>
          h(
            'fieldset',
            { class: 'field skill-group', 'data-key': 'sg:' + g.aptitude },
            h('legend', null, g.aptitude === 'knowledge' || g.aptitude === 'awareness' ? `${g.name} of` : g.name),
            g.skills.map((s) =>
              h(
                'label',
                { class: 'check', 'data-key': 'sk:' + s.skill },
                h('input', { type: 'checkbox', testid: 'skill-check', 'data-skill': s.skill, 'data-field': 'skill', checked: d.skills.has(s.skill) }),
                ' ',
                shortName(s.name),
              ),
            ),
          ),
        ),
      ),
      h(
        'fieldset',
        { class: 'field specialties' },
        h('legend', null, 'Specialties (a narrow use of a Skill)'),
        d.specialties.length ? null : h('p', { class: 'small muted' }, 'None yet. For instance: Awareness of Animals, on horses.'),
        d.specialties.map((r) =>
          h(
            'div',
            { class: 'spec-row', 'data-key': 'spec:' + r.key },
            labelled('spec-skill-' + r.key, 'Skill', select('spec-skill-' + r.key, 'spec-skill', skillOptions, r.skill, { testid: 'specialty-skill', 'data-field': 'spec-skill', 'data-row': r.key })),
            labelled('spec-name-' + r.key, 'Specialty', h('input', { id: 'spec-name-' + r.key, type: 'text', maxlength: 80, autocomplete: 'off', testid: 'specialty-name', 'data-field': 'spec-name', 'data-row': r.key, 'data-key': 'spec-name-' + r.key, value: r.name, placeholder: 'on horses' })),
            h(
              'button',
              {
                type: 'button',
                class: 'icon remove',
                testid: 'remove-specialty',
                'aria-label': `Remove the Specialty ${r.name || '(unnamed)'}`,
                onclick: () => {
                  d.specialties = d.specialties.filter((x) => x !== r);
                  ctx.focus('add-specialty');
                  ctx.rerender();
                },
              },
              h('span', { 'aria-hidden': 'true' }, '×'),
            ),
          ),
        ),
        h(
          'button',
          {
            type: 'button',
            id: 'add-specialty',
            class: 'btn small secondary',
            testid: 'add-specialty',
            onclick: () => {
              const key = d.nextKey++;
              d.specialties.push({ key, skill: groups.length ? groups[0].skills[0].skill : 'nature', name: '' });
              ctx.focus('spec-skill-' + key);
              ctx.rerender();
            },
          },
          'Add a Specialty',
        ),
      ),
      labelled('sheet-abilities', 'Abilities (optional: what they change in the story)', h('textarea', { id: 'sheet-abilities', rows: 3, maxlength: 2000, testid: 'sheet-abilities', 'data-field': 'abilities', 'data-key': 'sheet-abilities' }, d.abilities)),
      h(
        'div',
        { class: 'row' },
        submit(ctx, 'sheet', editing ? 'Save the sheet' : 'Make the character', 'save-sheet'),
        h(
          'button',
          {
            type: 'button',
            class: 'btn ghost',
            testid: 'cancel-sheet',
            onclick: () => {
              ui.draft = null;
              ui.msgs.delete('sheet');
              ctx.rerender();
            },
          },
          'Cancel',
        ),
      ),
    ),
  );
}

/**
 * @param {Ctx} ctx
 */
function sendSheet(ctx) {
  const { ui } = ctx;
  const d = ui.draft;
  if (!d) return;
  /** @type {Record<string, number>} */
  const aptitudes = {};
  for (const a of APTITUDES) {
    const raw = String(d.aptitudes[a] ?? '').trim();
    const n = raw === '' ? 0 : Number(raw);
    if (!Number.isInteger(n) || n < 0 || n > 20) {
      ui.msgs.set('sheet', { kind: 'error', text: 'Aptitude points are whole numbers from 0 to 20.' });
      ctx.focus('apt-' + a);
      ctx.rerender();
      return;
    }
    aptitudes[a] = n;
  }
  const sheet = {
    name: d.name.trim(),
    concept: d.concept.trim(),
    aptitudes,
    skills: Array.from(d.skills),
    specialties: d.specialties.filter((r) => r.name.trim()).map((r) => ({ skill: r.skill, name: r.name.trim() })),
    abilities: d.abilities.trim(),
  };
  if (!sheet.name) {
    ui.msgs.set('sheet', { kind: 'error', text: 'Give the character a name.' });
    ctx.focus('sheet-name');
    ctx.rerender();
    return;
  }
  /** @type {import('../common/page-types').Action} */
  let action;
  if (d.mode === 'edit') action = { action: 'edit_sheet', character: d.character, sheet };
  else {
    action = { action: 'create_sheet', sheet };
    if (d.owner !== '' && Number(d.owner) !== ctx.you) action.owner = Number(d.owner);
  }
  ctx.act('sheet', action, {
    onDone: () => {
      ui.draft = null;
    },
  });
}
