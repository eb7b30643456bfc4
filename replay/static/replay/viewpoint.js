/* Whose cards are open (view: "all" or a seat), which seat sits nearest (bottom), and whether
 * corrections are shown: each change redraws in place and replaces the address at once. */
import { $, D, S, root } from "./state.js";
import { forgetLog } from "./render.js";
import { go } from "./step.js";
import { replaceNow } from "./url.js";

const viewSel = $("view");
const bottomInput = () => root.querySelector("input[name=bottom]");
function redraw() {
  go(S.at, "none");
  replaceNow(S.at);  // at once: a view change is no stream of steps
}

export function setView(v) {
  S.view = v;
  if (typeof v === "number") S.bottom = v;
  viewSel.value = String(v);
  bottomInput().value = S.bottom;
  redraw();
}

/** All hands, then each seat's. */
export function cycleView() {
  const order = ["all"].concat(D.players.map((_, i) => i));
  setView(order[(order.indexOf(S.view) + 1) % order.length]);
}

/** Turns the table by one seat. */
export function rotate() {
  const order = D.frames[S.at].order || D.players.map((_, i) => i);
  S.bottom = order[(order.indexOf(S.bottom) + 1) % order.length];
  bottomInput().value = S.bottom;
  redraw();
}

export function setShowUndone(on) {
  S.showUndone = on;
  root.classList.toggle("show-undone", on);
  forgetLog();  // the log's links carry the setting
}
