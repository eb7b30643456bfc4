/* The deal of the hand at the reader's position, at a glance (#deal-glance; replay/frames/deals.py
 * reads it off the frames the reader was given, so a hidden card stays a card back): per seat the
 * cards dealt, sorted, those it passed outlined, then what it passed to whom and received from whom.
 * The view selector applies as on the table: in a seat's view the other hands are face down and
 * only that seat's exchange is shown. Drawn here only (the page without the script says so). */
import { esc } from "../shared/cards.js";
import { gettext, interpolate } from "../shared/i18n.js";
import { $, D, S, cardsHtml, name } from "./state.js";

const HIDDEN = "?";
let drawn = null;  // what is on the page: "<deal's at>|<view>|<payload's length>"

/** The deal of the hand position `n` is in (null before the first hand's deal, or none). */
function dealAt(n) {
  let found = null;
  (D.P.deals || []).forEach((d) => { if (d.at <= n) found = d; });
  return found;
}

function exchangeHtml(cls, label, bySeat, view, seat) {
  const parts = Object.keys(bySeat).map(Number).sort((a, b) => a - b)
    .filter((other) => view === "all" || view === seat || view === other)
    .map((other) => '<span class="' + cls + '" data-seat="' + other + '">' + esc(name(other)) + " " + cardsHtml(bySeat[String(other)]) + "</span>");
  return parts.length ? '<span class="x"><span class="lbl">' + esc(label) + "</span> " + parts.join(" ") + "</span>" : "";
}

function seatHtml(d, seat, view) {
  const s = d.seats[seat], shown = view === "all" || view === seat;
  const dealt = shown ? s.dealt : s.dealt.map(() => HIDDEN);
  const passed = {};
  Object.values(s.passed).forEach((cards) => cards.forEach((c) => { passed[c] = (passed[c] || 0) + 1; }));
  let cards = "";
  dealt.forEach((c) => {
    const mark = shown && passed[c] ? "passed" : "";
    if (mark) passed[c] -= 1;
    cards += D.words.cardHtml(c, mark);
  });
  return '<li class="deal-seat" data-seat="' + seat + '"><span class="who">' + esc(name(seat)) + '</span> <span class="dealt" data-count="' +
    dealt.length + '" data-cards="' + esc(dealt.join(" ")) + '">' + cards + "</span>" +
    exchangeHtml("gave", gettext("passed:"), s.passed, view, seat) + exchangeHtml("got", gettext("received:"), s.received, view, seat) + "</li>";
}

/** Draws the deal of the current hand (again only when the hand, the view or the payload changed). */
export function renderDeal() {
  const box = $("deal-glance");
  if (!box) return;
  const d = dealAt(S.at), key = (d ? d.at : "-") + "|" + S.view + "|" + D.length;
  if (key === drawn) return;
  drawn = key;
  box.hidden = !d;
  if (!d) return;
  const round = D.P.hand_word === "round";
  $("deal-h").textContent = interpolate(round ? gettext("Round %(number)s as dealt") : gettext("Hand %(number)s as dealt"), { number: d.number });
  let rows = "";
  for (let seat = 0; seat < d.seats.length; seat++) rows += seatHtml(d, seat, S.view);
  $("deal-seats").innerHTML = rows;
  $("deal-hint").hidden = !d.seats.some((s) => Object.keys(s.passed).length);  // no exchange (Tien Zi Que): nothing outlined
}

/** A game in play grew: the deal is drawn afresh (a hand that ended may have opened its cards). */
export function forgetDeal() { drawn = null; }
