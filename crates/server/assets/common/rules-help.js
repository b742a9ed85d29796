// Rules at hand: for each phase of the story game and each step of a board game turn, a short
// explanation in our own words, one tap away (a <details> that stays open or closed as the
// player left it). The seeds' full rules are for reading before play; these are for the table.

import { h } from './dom.js';

/** A "How this works" box: `points` are sentences; it remembers whether it is open. */
export function rulesHelp(ctx, key, title, points) {
  if (!points) return null;
  const open = ctx.ui.open.has('help:' + key);
  return h(
    'details',
    { class: 'rules-help', testid: 'rules-help', 'data-help': key, open, ontoggle: (e) => ctx.toggled('help:' + key, e.target.open), 'data-key': 'help:' + key },
    h('summary', null, title),
    h('ul', null, points.map((p, i) => h('li', { 'data-key': 'h' + i }, p))),
  );
}

/** The story game, by phase. */
export const STORY_HELP = {
  prophecy: [
    'The prophecy names the catastrophe your heroes will try to stop, and the sign that it is coming.',
    'Roll two dice on a world’s catastrophe table (the first die is the tens, the second the units), take a module’s prophecy, or write your own.',
    'Anyone can propose moving on; the table moves on when every player has agreed. Until then the prophecy can be rolled again or replaced.',
    'Lines leave out what the table does not want in the story; drawing one is anonymous.',
  ],
  characters: [
    'Each player makes one character: a name, then one aspect in each of five categories: an occupation, something physical or mental, something psychological, a relationship with another character, and an affiliation.',
    'An aspect is a short phrase that can help in a scene, such as “Ex-smuggler” or “Owes Ash a life”.',
    'People, places and things of the world belong to everyone: anyone can add them and give them aspects.',
    'When every character has its five aspects, propose moving on.',
  ],
  outline: [
    'Plan from the end: the Finale is the scene that stops the catastrophe, and it is the hardest.',
    'A precursor is a scene that makes its parent easier: its difficulty is one less, and if it succeeds the parent rolls an extra reward die.',
    'About eight scenes in all is plenty. The chance beside each scene is a plan, with the pairs you expect to find.',
    'Put people, places and things into scenes: their aspects are what the characters’ aspects will match.',
  ],
  story: [
    'Play a scene once its precursors are done; the Finale comes last.',
    'In a scene, describe what the characters do and look for matching pairs: one of a character’s aspects with one of the scene’s, and why they fit. Every other player can accept a pair or object to it.',
    'Each pair that counts adds a die, and each successful precursor a reward die. A 4, 5 or 6 is a hit; every 6 rolls one more die.',
    'When everyone agrees, the check is rolled: at least as many hits as the difficulty is a success. Then tell what happened, success or failure, and finish the scene.',
    'The timer is a guide for the table, not a rule.',
  ],
};

/** Temporal Mechanics, by phase. */
export const TEMPORAL_HELP = {
  prophecy: [
    'A warning from the future, for inspiration: roll on a world’s table or pick a scenario, or skip it.',
    'Anyone can propose moving on; the table moves on when every player has agreed.',
  ],
  characters: [
    'Each player makes a PC with one trait in each of five categories.',
    'NPCs, people, places and things belong to everyone: anyone can add them.',
  ],
  outline: [
    'Setup, in the future: first the flashback, the catastrophe as it happened, told against the timer.',
    'Then the story tree, from the climactic scene down: the scenes below a scene make it easier.',
  ],
  story: [
    'Confrontation, in the present: play the scenes below before the scenes above, the climactic scene last.',
    'Each scene: investigate, influence (match traits; the check), then interpret what happened.',
    'Resolution, back in the future: the flashforward tells how the timeline has changed.',
  ],
};

/** The board game, by step of a turn. */
export const BOARD_HELP = {
  draw_chance: [
    'Every turn begins with a Chance card. A land card puts Adventure cards on every empty space of that land; a merchant restocks the City or the Village.',
    'Winds heal or recharge everyone; Good Times brings Gold; Charity helps the poorest; Peaceful Times gives an extra turn without a Chance card.',
  ],
  move: [
    'Stay, walk one space either way (free), ride a horse two spaces (1 Gold), sail to the next port (1 Gold), or step through a Magic Gate to any other gate (2 Gold).',
    'In the City, the Thieves’ Guild and the Fortress you may use what the space offers instead of moving.',
  ],
  battle: [
    'A Creature on your space must be fought. A Battle of Strength uses your Strength (red cubes on the right) and Items; a Battle of Wills your Willpower (blue cubes).',
    'Each side rolls a die and adds its value: the higher wins; equal is a draw. A Creature with three lives must lose three rolls in a row.',
    'Losing costs 1 Health, or what the card says; with no Health left, the adventurer dies. The chances shown are exact.',
  ],
  moved: [
    'Use what the space offers: an Opportunity, the shops (buy; sell for half the price, rounded up), healing or recharging, repairs (1 Gold in a civilization space).',
    'A guild sells its Certificate for 5 Experience and 5 Gold (no Gold in your own two guilds). The fifth Certificate wins the game.',
  ],
};
