/* A game in play grows (live_replay.js brings the new payload, docs/viewer.md "Live"): the frames
 * are rebuilt (a hand that ended may open cards of earlier frames). A viewer at the end follows;
 * one who has stepped back stays where they are and is told there is more. */
import { interpolate, ngettext } from "../shared/i18n.js";
import { $, D, S, load, root } from "./state.js";
import { forgetLog, forgetSheet } from "./render.js";
import { go, onMove } from "./step.js";
import { refreshMoments } from "./moments.js";
import { forgetDeal } from "./deal.js";

const liveNote = $("live-note");
let pendingNew = 0;

export function update(payload) {
  const wasAtEnd = S.at === D.length, before = D.length;
  load(payload);
  $("slider").max = D.length;
  root.setAttribute("data-length", D.length);
  forgetSheet();
  forgetLog();
  refreshMoments();
  forgetDeal();
  // "still being played" goes once the game is over (or its hands are no longer hidden)
  const note = $("hidden-note");
  if (note && (!payload.hidden || D.frames[D.length].complete)) note.hidden = true;
  if (wasAtEnd) {
    go(D.length, "replace");
  } else {
    go(Math.min(S.at, D.length), "none");
    if (D.length > before && liveNote) {
      pendingNew += D.length - before;
      $("live-count").textContent = interpolate(ngettext("%(count)s new event", "%(count)s new events", pendingNew), { count: pendingNew });
      liveNote.hidden = false;
    }
  }
}

export function wireLiveNote() {
  if (!liveNote) return;
  $("live-latest").addEventListener("click", (e) => {
    e.preventDefault();
    go(D.length, "push");
  });
  onMove(() => {
    if (S.at === D.length) { liveNote.hidden = true; pendingNew = 0; }
  });
}
