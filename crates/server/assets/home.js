// The home page: create a table of the story game (with its ruleset), of the board game (with
// a number of bots) or of the Challenge rules (its creator is the game master). Without
// JavaScript the form posts and the server answers 303; with it, the page posts JSON and goes to
// the table's address.

const form = document.querySelector('[data-testid="create-form"]');
const error = document.querySelector('[data-testid="create-error"]');
const button = document.querySelector('[data-testid="create-table"]');

// The rulesets only matter for the story game, the bots only for the board game: show what the
// chosen game uses (without JavaScript, everything shows and the server ignores the rest).
function showGame() {
  const game = form.elements.game ? form.elements.game.value || 'story' : 'story';
  for (const el of form.parentNode.querySelectorAll('[data-for-game]')) el.hidden = el.getAttribute('data-for-game') !== game;
}
form.addEventListener('change', (e) => {
  if (e.target.name === 'game') showGame();
});
showGame();

function showError(text) {
  error.textContent = text;
  error.hidden = !text;
}

form.addEventListener('submit', async (e) => {
  e.preventDefault();
  const name = form.elements.name.value.trim();
  const ruleset = form.elements.ruleset.value;
  const game = form.elements.game ? form.elements.game.value || 'story' : 'story';
  const bots = Number(form.elements.bots ? form.elements.bots.value : 0);
  if (!name) {
    showError('Type your name first.');
    form.elements.name.focus();
    return;
  }
  showError('');
  button.disabled = true;
  button.textContent = 'Creating…';
  try {
    const r = await fetch('/tables', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(game === 'board' ? { name, game, ruleset, bots } : game === 'challenge' ? { name, game } : { name, game, ruleset }),
      credentials: 'same-origin',
    });
    const body = await r.json().catch(() => ({}));
    if (!r.ok) throw new Error(body.error || `The server answered ${r.status}.`);
    location.assign(body.url || `/t/${body.token}`);
  } catch (err) {
    button.disabled = false;
    button.textContent = 'Create the table';
    showError(err.message && err.message !== 'Failed to fetch' ? err.message : 'Could not reach the server. Try again.');
  }
});
