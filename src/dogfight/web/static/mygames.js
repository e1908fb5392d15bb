// "My games": the seats this browser holds, kept in its local storage so that a player
// can come back to a game (the server keeps no list of a browser's games: a seat's
// token is its only key).
const KEY = "dogfight.games";
const KEEP = 50;

/** The saved seats, newest first: [{game, seat, token, title, ruleset, at}]. */
export function savedGames() {
  try {
    const games = JSON.parse(localStorage.getItem(KEY) || "[]");
    return Array.isArray(games) ? games.filter((g) => g && typeof g.game === "string") : [];
  } catch {
    return [];
  }
}

function store(games) {
  try {
    localStorage.setItem(KEY, JSON.stringify(games.slice(0, KEEP)));
  } catch {
    // storage full or refused (private mode): the game goes on, it is just not listed
  }
}

/** Remember (or refresh) a seat this browser plays. */
export function rememberGame(entry) {
  const others = savedGames().filter((g) => !(g.game === entry.game && g.seat === entry.seat));
  store([{ ...entry, at: Date.now() }, ...others]);
}

/** Forget a seat (the game itself stays on the server). */
export function forgetGame(game, seat) {
  store(savedGames().filter((g) => !(g.game === game && g.seat === seat)));
}

/** The link that opens a saved seat. */
export function linkOf(entry) {
  return `/game/${encodeURIComponent(entry.game)}?token=${encodeURIComponent(entry.token)}`;
}
