/* The penalty (docs/entry.md, "Penalty…"): a missed wish noticed at the table ends the hand, so it
 * is kept apart from the other controls, behind a disclosure and a confirm step, for the seats the
 * engine accepts it for now (the endpoint's `penalties`). */
import { $, S, W, esc, gettext, interpolate, name, penaltyLabel } from "./state.js";
import { send } from "./api.js";

function penaltiesNow() { return (S.legal && S.legal.penalties) || []; }
function penaltyId(e) { return "penalty-" + e.seat + (e.reason === "missed_wish" ? "" : "-" + e.reason); }
function samePenalty(a, b) { return !!a && !!b && a.seat === b.seat && a.reason === b.reason; }

export function renderPenalty() {
  var box = $("penalty-box"), list = penaltiesNow();
  if (!list.some(function (e) { return samePenalty(e, S.penaltyPick); })) S.penaltyPick = null;
  box.hidden = !list.length;
  if (!list.length) box.open = false;
  $("penalty-seats").innerHTML = list.map(function (e, i) {
    return '<button type="button" class="btn penalty-seat" id="' + esc(penaltyId(e)) + '" data-index="' + i +
      '" aria-controls="penalty-confirm" aria-pressed="' + samePenalty(e, S.penaltyPick) + '">' + esc(penaltyLabel(e)) + "</button>";
  }).join(" ");
  var e = S.penaltyPick;
  $("penalty-confirm").hidden = !e;
  if (!e) { $("penalty-question").textContent = ""; return; }
  var st = S.legal.state, opponents = (st.teams || []).filter(function (t) { return t.indexOf(e.seat) < 0; });
  $("penalty-question").innerHTML = "<b>" + esc(interpolate(gettext("%(penalty)s: end hand %(number)s now?"), { penalty: penaltyLabel(e), number: st.hand_number || "" })) + "</b> " +
    (opponents.length ? esc(interpolate(gettext("%(names)s win the hand."), { names: opponents.map(function (t) { return t.map(name).join(" & "); }).join(", ") })) + " " : "") +
    esc(gettext("Undo can retract it afterwards."));
}
export function choosePenalty(i) {
  S.penaltyPick = penaltiesNow()[i] || null;
  renderPenalty();
  if (S.penaltyPick) $("penalty-no").focus();  // the safe choice first: Tab goes on to the confirm button
}
export function cancelPenalty(focus) {
  var was = S.penaltyPick;
  S.penaltyPick = null;
  renderPenalty();
  if (focus && was && $(penaltyId(was))) $(penaltyId(was)).focus();
}
export function closePenalty() { S.penaltyPick = null; $("penalty-box").open = false; }
export function confirmPenalty() {
  var e = S.penaltyPick;
  if (!e || S.busy || !penaltiesNow().some(function (p) { return samePenalty(p, e); })) return;
  send([e], W.describe(e));
}
