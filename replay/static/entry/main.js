/* The scorer's entry page (templates/entry/enter.html, docs/entry.md), as small ES modules:
 *
 *   state.js    the page's state, its config and the engine's words (static/shared/cards.js)
 *   api.js      reading the state, writing entries, the outbox of entries kept offline
 *   stale.js    a refused or overtaken write is never re-sent by accident
 *   view.js     drawing the seats, the trick and the controls
 *   deal.js, exchange.js, play.js, penalty.js: the controls of each part of a hand
 *   sheet.js    the score-sheet form
 *   keys.js     what a tap, a key or a typed word does
 *   draft.js    what is typed and not sent yet, kept in this browser across a reload
 *
 * No rule of Tichu lives here: every control is one of the engine's legal events now, and the
 * engine judges every entry (a 409 when another scorer entered first, a 422 with its reason).
 *
 * Live: the page follows the game as other scorers store events (static/shared/live.js, a long
 * poll): a new seq loads the new state, unless this page is busy writing (its own answer will
 * bring it) or holds unsaved input, which is then marked stale (as after a 409) instead of being
 * overwritten. The polling stops once the game is finished. */
import { followGame } from "../shared/live.js";
import { C, S, root } from "./state.js";
import { getJson, refresh, renderOutbox, scheduleFlush, send } from "./api.js";
import { changedElsewhere } from "./stale.js";
import { wire } from "./keys.js";
import { outbox } from "./state.js";
import { keepDrafts, restoreDraft } from "./draft.js";

function follow() {
  if (root.getAttribute("data-status") === "finished") return;
  root.setAttribute("data-live-status", "following");  // the first long poll is on its way
  followGame({
    game: C.game,
    seq: S.seq,
    onChange(seq) {
      if (seq <= S.seq || seq === S.lastOwn || S.busy || S.auto) return undefined;  // our own write (or older news): its answer redraws the page
      return changedElsewhere(seq);
    },
    onStatus(status) { root.setAttribute("data-live-status", status); },
  });
}

if (root) {
  wire();
  document.addEventListener("visibilitychange", () => {
    if (document.hidden || S.busy) return;
    getJson(C.legal_url).then((res) => { if (res.status === 200 && res.body.seq !== S.seq) changedElsewhere(res.body.seq); });
  });
  window.tichuEntry = { state: S, refresh, send, outbox };
  renderOutbox();
  keepDrafts();
  // entries kept from an earlier visit go out; what was typed and not sent is put back (draft.js)
  refresh().then(() => { if (S.legal) restoreDraft(); scheduleFlush(); follow(); });
}
