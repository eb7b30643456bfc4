/* Moving to a position: the frame drawn, the address updated as `how` says. */
import { D, S } from "./state.js";
import { targets } from "./nav.js";
import { render } from "./render.js";
import { arrived, leaving } from "./url.js";

const listeners = [];
/** fn() runs after every move, drawn but before the address changes (live.js hides its note). */
export function onMove(fn) { listeners.push(fn); }

// how: "replace" (a step: the current history entry follows), "push" (a jump: a new entry),
// "none" (the address stays: scrubbing the slider, or a move made by the history itself)
export function go(n, how) {
  n = Math.max(0, Math.min(D.length, n | 0));
  leaving(how);
  const t0 = performance.now();
  S.at = n;
  render();
  listeners.forEach((fn) => fn());
  S.lastRenderMs = performance.now() - t0;
  arrived(n, how);
}

/** Follows a control ("next", "prev_trick", ...): steps replace the entry, jumps push one. */
export function goTarget(key, how) {
  go(targets(S.at)[key], how || ((key === "prev" || key === "next") ? "replace" : "push"));
}
