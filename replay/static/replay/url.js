/* The address follows the position (docs/viewer.md, "Address"): single steps replace the current
 * history entry a moment after the last one, jumps push a new entry after settling the current one. */
import { S } from "./state.js";

// A held arrow key would otherwise call replaceState dozens of times a second, which browsers
// throttle (and which costs a little).
const URL_DELAY_MS = 120;
let urlTimer = null;
let entryAt = 0;

/** The address of position n with the reader's view, table turn and corrections setting. */
export function query(n) {
  const params = new URLSearchParams(location.search);
  params.set("at", n);
  params.set("view", S.view);
  params.set("bottom", S.bottom);
  if (S.showUndone) params.set("undone", "1"); else params.delete("undone");
  return "?" + params.toString();
}

function replaceUrl() { urlTimer = null; history.replaceState({ at: entryAt }, "", query(entryAt)); }

/** Before a move: a pending step update is dropped, and a jump first settles the entry it leaves. */
export function leaving(how) {
  if (urlTimer === null || how === "none") return;
  clearTimeout(urlTimer);
  urlTimer = null;
  if (how === "push") replaceUrl();
}

/** After a move to n: "push" a new entry, "replace" the current one soon, "none" leave it. */
export function arrived(n, how) {
  if (how === "push") { history.pushState({ at: n }, "", query(n)); entryAt = n; }
  else if (how === "replace") { entryAt = n; urlTimer = setTimeout(replaceUrl, URL_DELAY_MS); }
}

/** The current entry shows n at once (a view or table-turn change, the page's first address). */
export function replaceNow(n) { entryAt = n; replaceUrl(); }

/** The history moved by itself (back/forward): a pending update is not for the new entry. */
export function historyMoved(n) {
  clearTimeout(urlTimer);
  urlTimer = null;
  entryAt = n;
}
