/* The entry page's state and small helpers, shared by its modules (docs/entry.md, "The script").
 * No rule of Tichu here: what may be entered is what GET /api/games/{id}/legal/ says now. */
import { csrf as sharedCsrf, newKey } from "../shared/writes.js";
import { makeWords, readWords, esc } from "../shared/cards.js";
import { gettext, interpolate, ngettext } from "../shared/i18n.js";
import { Outbox } from "./outbox.js";

export { esc, gettext, interpolate, ngettext };
export const root = document.getElementById("entry");
export const C = root ? JSON.parse(document.getElementById("entry-config").textContent) : { players: [] };
export const $ = (id) => document.getElementById(id);
export const players = C.players || [];
export const nSeats = players.length;
export const seatCount = (C.seat_names || players).length;  // Threechu: three players and the dummy

const WORDS = readWords();

/** A seat's name: its player, or the engine's name of a seat without one (Threechu's dummy). */
export function name(seat) {
  if (typeof seat === "number" && seat >= 0 && seat < nSeats) return players[seat];
  const named = (C.seat_names || [])[seat];
  return named !== undefined ? named : ((WORDS.terms || {}).seat || "seat {number:seat}").replace("{number:seat}", String(seat));
}

/** Card faces and the engine's words (static/shared/cards.js, fed by games.engine page_words). */
export const W = makeWords(WORDS, name);

/** The script's own words: gettext, interpolate and ngettext (static/shared/i18n.js, Django's
 * JavaScript catalogue loaded by entry/enter.html). The game's own words are the engine's (W). */

export const outbox = Outbox("tichu-entry:game-" + C.game + ":outbox");

export const S = {
  seq: C.seq,        // the seq the page's state is at: sent as expected_seq
  legal: null,       // the last answer of the legal endpoint
  picked: [],        // indices into the hand (or pile) being picked from
  pickFrom: null,    // "hand:<seat>" or "pile": what `picked` indexes
  dealMode: "hand",  // "hand": whole hands (deal events); "card": one card at a time (draw)
  dealSeat: null,    // the seat the tapped pile cards go to (remembered)
  dealHands: {},     // seat -> cards tapped for it, not sent yet
  exchange: { seat: null, slots: {}, last: null },  // pusher -> {receiver: card}; the card tapped last
  busy: false,
  auto: false,       // the page is entering a forced event after the scorer's own entry
  pending: null,     // the last write, kept for Retry after a network failure
  checkKey: null,    // the hand_result JSON the engine last approved
  touched: {},       // the score-sheet fields used since the form was last empty ("out", "points", "save"):
                     // a field's problem is said only once it was used, or Save was tapped
  checkTimer: null,
  tab: null,
  penaltyPick: null, // the penalty event being confirmed (one of S.legal.penalties)
  stale: null,       // {seq, what, origin} after a refused (409) write or a change with unsaved input
  refocus: null,
};

/** Whether the page may not see `seat`'s hand (a duplicate table's code, a scorer without a seat:
 *  the legal facts come `redacted`). The scorer then picks from every card not played yet this hand
 *  (`unplayed`) and the engine checks what is sent. */
export function handHidden(seat) {
  const hand = ((S.legal && S.legal.state.hands) || [])[seat] || [];
  return !!(S.legal && S.legal.redacted) && hand.indexOf("?") >= 0;
}
export function unplayed() {
  const played = (S.legal && S.legal.state.played) || [];
  return Object.keys(C.cards).filter((c) => played.indexOf(c) < 0);
}

export function actionsOf(type) { return ((S.legal && S.legal.actions) || []).filter((a) => a.type === type); }
export function key(cards) { return cards.slice().sort().join(" "); }

export function say(text, kind) {
  $("status").textContent = text;
  $("status").className = "status" + (kind ? " " + kind : "");
}
// `code`: the engine's refusal code, kept as data-code for tools and tests (a scorer reads words).
export function alertBox(text, retry, code) {
  $("alert").hidden = !text;
  $("alert-text").textContent = text || "";
  $("alert").setAttribute("data-code", code || "");
  $("retry").hidden = !retry;
}
export function setBusy(on) {
  S.busy = on;
  root.setAttribute("data-busy", on || S.auto ? "1" : "0");
}
export { newKey };
export const csrf = () => sharedCsrf(C.csrf);
export function penaltyLabel(e) {
  const why = String(e.reason || "");
  return why === "missed_wish" ? interpolate(gettext("Missed wish by %(name)s"), { name: name(e.seat) })
    : interpolate(gettext("%(name)s: %(reason)s"), { name: name(e.seat), reason: W.term("reason:" + why, why.replace(/_/g, " ")) });
}
