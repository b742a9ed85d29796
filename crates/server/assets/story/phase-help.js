// The story game's rules at hand: each phase of Prophecy and of Temporal Mechanics in a few
// sentences, in our own words, for the "How this phase works" box (common/rules-help.js).

/** The story game, by phase. */
/** @type {Record<string, string[]>} */
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
/** @type {Record<string, string[]>} */
export const TEMPORAL_HELP = {
  prophecy: [
    'Everyone joins by the table’s link. The game begins with the PCs; the warning from the future comes later, in the Setup.',
    'Anyone can propose moving on; the table moves on when every player has agreed.',
  ],
  characters: [
    'Each player makes a PC with one trait in each of five categories; the relationship may be with another PC or with an NPC.',
    'NPCs, people, places and things belong to everyone: anyone can add them.',
  ],
  outline: [
    'Setup, in the future: first the flashback, the catastrophe as it happened, told against the timer.',
    'Then, if you like, the warning your PCs send back to their past selves: roll on a world’s table, pick a scenario or write it. It is fixed when the Confrontation begins.',
    'Then the story tree, from the climactic scene down: the scenes below a scene make it easier.',
  ],
  story: [
    'Confrontation, in the present: play the scenes below before the scenes above, the climactic scene last.',
    'Each scene: investigate, influence (match traits; the check), then interpret what happened.',
    'Resolution, back in the future: the flashforward tells how the timeline has changed.',
  ],
};
