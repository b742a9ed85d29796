// The tables this browser has a seat at, kept in this browser only (localStorage): a table's
// page adds itself once the player is seated, and the home page lists them. The list holds
// table tokens and when they were last opened here, nothing else: the home page asks each
// table for its summary, which the server gives only to a browser seated there.

const KEY = 'prophecy.tables';

/** @typedef {{token: string, opened?: number}} Remembered */
/** Tables kept in the list at most (the oldest opened go first). */
const MAX_TABLES = 50;

/** @returns {Remembered[]} */
function read() {
  try {
    const list = JSON.parse(localStorage.getItem(KEY) || '[]');
    return Array.isArray(list) ? list.filter((/** @type {Remembered} */ t) => t && typeof t.token === 'string' && /^[0-9a-fA-F]+$/.test(t.token)) : [];
  } catch {
    return [];
  }
}

/** @param {Remembered[]} list */
function write(list) {
  try {
    localStorage.setItem(KEY, JSON.stringify(list.slice(0, MAX_TABLES)));
  } catch {
    // Storage full or refused (private mode): the list is a convenience.
  }
}

/** The tables this browser was seated at, the last opened first. */
export function rememberedTables() {
  return read().sort((a, b) => (b.opened || 0) - (a.opened || 0));
}

/**
 * The page of table `token` is open here, with a seat.
 * @param {string} token
 */
export function rememberTable(token) {
  const list = read().filter((t) => t.token !== token);
  list.unshift({ token, opened: Date.now() });
  write(list);
}

/**
 * Takes table `token` off this browser's list (the seat itself stays).
 * @param {string} token
 */
export function forgetTable(token) {
  write(read().filter((t) => t.token !== token));
}
