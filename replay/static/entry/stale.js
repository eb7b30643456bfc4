/* A refused write is never re-sent by accident (docs/entry.md, "Two scorers on one game"). After a
 * 409, or a change by another scorer found while this page holds unsaved input (a filled score
 * sheet, picked cards, a deal or an exchange being tapped), every write is held: Save and the card
 * buttons are disabled and `send` refuses, until the scorer presses "Enter again" next to the
 * message, i.e. has seen the new state. The message stands next to the control that was used and
 * in the sticky bar. A change found with nothing typed just shows the new state. */
import { $, S, alertBox, gettext, interpolate, name, root, say } from "./state.js";
import { refresh } from "./api.js";
import { render } from "./view.js";
import { firstField, firstOut, victoryWord } from "./sheet.js";

export function sheetFilled() { return firstOut() !== ""; }

/** What the scorer has typed or tapped and not sent, in words ("" when nothing). */
export function unsavedInput() {
  if (sheetFilled()) return gettext("the hand typed in the score sheet");
  if (Object.keys(S.dealHands).some((s) => S.dealHands[s].length)) return gettext("the deal being tapped");
  if (Object.keys(S.exchange.slots).some((s) => Object.keys(S.exchange.slots[s]).length)) return gettext("the exchange being tapped");
  if (S.picked.length) return gettext("the cards picked");
  return "";
}

export function markStale(seq, what, origin, refused) {
  S.stale = { seq, what, origin };
  const text = interpolate(refused
    ? gettext("Not saved: %(what)s. The game changed meanwhile (another scorer entered up to #%(seq)s); the latest state is shown. Check it, then press “Enter again” if the entry is still needed.")
    : gettext("Not sent: %(what)s. The game changed meanwhile (another scorer entered up to #%(seq)s); the latest state is shown. Check it, then press “Enter again” if the entry is still needed."),
  { what, seq });
  const where = origin === "save-hand" ? "sheet" : "cards";
  ["sheet", "cards"].forEach((w) => {
    const box = $(w + "-stale");
    box.hidden = w !== where;
    box.querySelector(".stale-text").textContent = w === where ? text : "";
  });
  $("bar-stale").hidden = false;
  $("bar-stale-text").textContent = interpolate(refused ? gettext("Not saved: game at #%(seq)s") : gettext("Changed meanwhile: game at #%(seq)s"), { seq });
  $("hand-form").classList.toggle("stale", where === "sheet");
  $("save-hand").disabled = true;  // at once, before the new state is drawn
  root.setAttribute("data-stale", "1");
}

export function acknowledgeStale() {
  const was = S.stale;
  S.stale = null;
  S.checkKey = null;  // the form is checked again at the new position before Save comes back
  ["sheet-stale", "cards-stale", "bar-stale"].forEach((id) => { $(id).hidden = true; });
  $("hand-form").classList.remove("stale");
  root.setAttribute("data-stale", "0");
  say("");
  render();
  // back to where the entry is made again: the form's first field, or the card controls
  const back = was && was.origin === "save-hand" ? firstField()
    : document.querySelector("#seats .picker .pick, #controls button:not([disabled])");
  if (back) back.focus();
}

/** The game moved on without this page's doing (another scorer): unsaved input makes the page
 *  stale (as after a 409); otherwise the latest state is shown and said. */
export function changedElsewhere(seq) {
  root.setAttribute("data-conflict", String(seq));
  const what = unsavedInput();
  if (what) markStale(seq, what, sheetFilled() ? "save-hand" : "cards", false);
  return refresh(what ? "" : interpolate(gettext("Another scorer entered up to #%(seq)s: the latest state is shown."), { seq }));
}

/** "Hand 3 is over: Ann & Cid +155, Bob & Dee -55; totals 455 / 345.": the hand's score line. */
export function handOver(n, line) {
  const teams = S.legal.state.teams || [], totals = S.legal.state.totals || [];
  const label = (i) => (teams[i] && teams[i].length ? teams[i].map(name).join(" & ") : interpolate(gettext("column %(number)s"), { number: i + 1 }));
  const pts = (line.points || []).map((p, i) => label(i) + " " + (p > 0 ? "+" : "") + p).join(", ");
  const victory = line.double_victory ? victoryWord() : "";
  const said = totals.length
    ? (victory ? gettext("Hand %(number)s is over: %(points)s (%(victory)s); totals %(totals)s.") : gettext("Hand %(number)s is over: %(points)s; totals %(totals)s."))
    : (victory ? gettext("Hand %(number)s is over: %(points)s (%(victory)s).") : gettext("Hand %(number)s is over: %(points)s."));
  return interpolate(said, { number: n, points: pts, victory, totals: totals.join(" / ") });
}

export { alertBox };
