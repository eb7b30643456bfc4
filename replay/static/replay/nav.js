/* Navigation targets: index lookups in the server's marks (hand and trick starts). Corrections
 * (undo events and the events they took back) are stepped over unless shown, as in
 * replay/present.py nav_targets. */
import { D, S } from "./state.js";

function after(points, n) {
  for (let i = 0; i < points.length; i++) if (points[i] > n) return points[i];
  return D.length;
}
function before(points, n) {
  for (let i = points.length - 1; i >= 0; i--) if (points[i] < n) return points[i];
  return 0;
}
const folded = (k) => !S.showUndone && D.undone[k] === true;
function forward(k) { while (k < D.length && folded(k)) k++; return k; }
function back(k) { while (k > 0 && folded(k)) k--; return k; }

/** Where each control leads from position n. */
export function targets(n) {
  const h = D.P.marks.hands || [], t = D.P.marks.tricks || [];
  return {
    first: 0, prev_hand: back(before(h, n)), prev_trick: back(before(t, n)), prev: back(Math.max(0, n - 1)),
    next: forward(Math.min(D.length, n + 1)), next_trick: forward(after(t, n)), next_hand: forward(after(h, n)), last: D.length,
  };
}

/** The navigation links (id -> target), as templates/replay/replay.html has them. */
export const NAV = {
  "nav-first": "first", "nav-prev-hand": "prev_hand", "nav-prev-trick": "prev_trick", "nav-prev": "prev",
  "nav-next": "next", "nav-next-trick": "next_trick", "nav-next-hand": "next_hand", "nav-last": "last",
};
