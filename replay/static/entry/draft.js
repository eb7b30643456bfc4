/* Nothing typed is lost (issue 33, item 2; docs/entry.md, "Offline at the table"): what the scorer
 * has typed or tapped and not sent yet (a deal being tapped, an exchange, the cards picked for a
 * play, the score sheet's fields) is kept in this browser's localStorage, keyed by the game and the
 * seq it was typed at, after every tap and keystroke and when the page is hidden (phones discard
 * background tabs). A reload, or a tab the phone brought back, restores it with a note, if the game
 * is still at that seq; once the server has the entry the game's seq moves on and the draft of the
 * old seq is dropped. The outbox (outbox.js) keeps what was sent but not yet answered.
 *
 * The draft is the scorer's input only, never a rule: the page checks it against the engine's
 * legal facts at that seq as if it had just been tapped (deal.js and exchange.js prune what no
 * longer fits). */
import { $, C, S, gettext, interpolate, root, say } from "./state.js";
import { unsavedInput } from "./stale.js";
import { render } from "./view.js";

const PREFIX = "tichu-entry:game-" + C.game + ":draft:";

function isDefault(el) {
  if (el.type === "checkbox" || el.type === "radio") return el.checked === el.defaultChecked;
  if (el.tagName === "SELECT") {
    const first = Array.prototype.findIndex.call(el.options, (o) => o.defaultSelected);
    return el.selectedIndex === (first < 0 ? 0 : first);
  }
  return el.value === el.defaultValue;
}

/** The score sheet's fields that differ from the empty form: {id: value or checked}. */
function sheetFields() {
  const typed = {};
  const form = $("hand-form");
  if (!form) return typed;
  form.querySelectorAll("input[id], select[id]").forEach((el) => {
    if (!isDefault(el)) typed[el.id] = el.type === "checkbox" || el.type === "radio" ? el.checked : el.value;
  });
  return typed;
}

function tapped() {
  const deal = {};
  Object.keys(S.dealHands).forEach((s) => { if (S.dealHands[s].length) deal[s] = S.dealHands[s].slice(); });
  const slots = {};
  Object.keys(S.exchange.slots).forEach((s) => { if (Object.keys(S.exchange.slots[s]).length) slots[s] = { ...S.exchange.slots[s] }; });
  return { deal, slots };
}

function keys() {
  const found = [];
  try {
    for (let i = 0; i < window.localStorage.length; i++) {
      const k = window.localStorage.key(i);
      if (k && k.indexOf(PREFIX) === 0) found.push(k);
    }
  } catch (e) { /* storage off: nothing kept */ }
  return found;
}

/** Keep the pending input for the game's current seq (and drop the drafts of other seqs). */
export function saveDraft() {
  if (!S.legal || typeof S.seq !== "number") return;
  const sheet = sheetFields(), { deal, slots } = tapped();
  const draft = {
    seq: S.seq, sheet, deal, dealSeat: S.dealSeat, dealMode: S.dealMode,
    exchange: { seat: S.exchange.seat, slots }, picked: S.picked.slice(), pickFrom: S.pickFrom,
  };
  const empty = !Object.keys(sheet).length && !Object.keys(deal).length && !Object.keys(slots).length && !S.picked.length;
  try {
    keys().forEach((k) => { if (k !== PREFIX + S.seq) window.localStorage.removeItem(k); });
    if (empty) window.localStorage.removeItem(PREFIX + S.seq);
    else window.localStorage.setItem(PREFIX + S.seq, JSON.stringify(draft));
  } catch (e) { /* storage full or off: the page keeps it for its own life */ }
}

let timer = null;
function saveSoon() {  // after the page's own handlers have updated the state
  if (timer) return;
  timer = setTimeout(() => { timer = null; saveDraft(); }, 0);
}

/** Once the state is loaded: put back what was typed at this seq before a reload, and say so. */
export function restoreDraft() {
  let draft = null;
  try { draft = JSON.parse(window.localStorage.getItem(PREFIX + S.seq) || "null"); } catch (e) { draft = null; }
  if (!draft || draft.seq !== S.seq) { saveDraft(); return; }  // older seqs' drafts: the server has moved on
  Object.keys(draft.deal || {}).forEach((s) => { S.dealHands[s] = draft.deal[s].slice(); });
  if (typeof draft.dealSeat === "number") S.dealSeat = draft.dealSeat;
  if (draft.dealMode === "hand" || draft.dealMode === "card") S.dealMode = draft.dealMode;
  if (draft.exchange) {
    Object.keys(draft.exchange.slots || {}).forEach((s) => { S.exchange.slots[s] = { ...draft.exchange.slots[s] }; });
    if (typeof draft.exchange.seat === "number") S.exchange.seat = draft.exchange.seat;
  }
  if (Array.isArray(draft.picked) && draft.picked.length) { S.picked = draft.picked.slice(); S.pickFrom = draft.pickFrom || null; }
  const sheet = draft.sheet || {};
  Object.keys(sheet).forEach((id) => {
    const el = $(id);
    if (!el || !$("hand-form").contains(el)) return;
    if (el.type === "checkbox" || el.type === "radio") el.checked = !!sheet[id]; else el.value = String(sheet[id]);
  });
  render();
  const last = Object.keys(sheet).map($).filter(Boolean).pop();
  if (last) last.dispatchEvent(new Event("input", { bubbles: true }));  // the sheet checks itself again
  const what = unsavedInput();
  if (!what) return;
  if (Object.keys(draft.deal || {}).length || Object.keys((draft.exchange || {}).slots || {}).length || (draft.picked || []).length) {
    if (S.tab !== "cards" && $("tab-cards")) $("tab-cards").click();
  }
  root.setAttribute("data-restored", "1");
  say(interpolate(gettext("Restored from this phone: %(what)s, as typed before the page was reloaded (not sent yet)."), { what }), "note");
}

/** Keep the draft after every tap and keystroke, and when the page is hidden or left. */
export function keepDrafts() {
  root.addEventListener("click", saveSoon);
  root.addEventListener("input", saveSoon);
  root.addEventListener("change", saveSoon);
  $("hand-form").addEventListener("reset", saveSoon);
  document.addEventListener("visibilitychange", () => { if (document.hidden) saveDraft(); });
  window.addEventListener("pagehide", saveDraft);
}
