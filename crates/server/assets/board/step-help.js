// The board game's rules at hand: each step of a turn in a few sentences, in our own words, for
// the "How this step works" box (common/rules-help.js).

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
