/* The deal (docs/entry.md, "The deal"), two ways. Whole hands, by tapping: each card tapped in the
 * pile goes to the seat being dealt to (remembered; it moves on by itself to the next seat once
 * one has all its cards), and when one seat is left the rest of the pile is its hand; a card tapped
 * in a seat's pending hand goes back to the pile; one Deal button sends every seat's `deal` in one
 * entry. Card by card: the next drawer is named and each card of the pile is a button (`draw`). */
import { $, S, W, actionsOf, esc, gettext, interpolate, name, ngettext } from "./state.js";
import { pickerHtml } from "./view.js";

function remaining() { return S.legal.deal.remaining; }
function seatsToDeal() {
  const R = remaining(), order = S.legal.state.order || Object.keys(R).map(Number);
  return order.filter((s) => (R[String(s)] || 0) > 0);
}
function pending(s) { return S.dealHands[s] || (S.dealHands[s] = []); }
function pendingAll() { return [].concat(...Object.values(S.dealHands)); }
function full(s) { return pending(s).length >= (remaining()[String(s)] || 0); }

/** Drop pending cards the pile no longer has (another scorer dealt meanwhile), keep the rest. */
function prune() {
  const pile = S.legal.deal.pile.slice(), seats = seatsToDeal();
  Object.keys(S.dealHands).forEach((s) => {
    if (seats.indexOf(Number(s)) < 0) { delete S.dealHands[s]; return; }
    S.dealHands[s] = S.dealHands[s].filter((c) => { const i = pile.indexOf(c); if (i < 0) return false; pile.splice(i, 1); return true; });
  });
  const drawer = S.legal.deal.next_drawer;
  if (S.dealSeat === null && seats.indexOf(drawer) >= 0 && !full(drawer)) S.dealSeat = drawer;  // the deal starts where the engine's does
  if (S.dealSeat === null || seats.indexOf(S.dealSeat) < 0 || full(S.dealSeat)) S.dealSeat = nextSeat();
}
function nextSeat() {
  const seats = seatsToDeal(), from = S.dealSeat === null ? -1 : seats.indexOf(S.dealSeat);
  for (let k = 1; k <= seats.length; k++) {
    const s = seats[(from + k + seats.length) % seats.length];
    if (!full(s)) return s;
  }
  return seats.length ? seats[0] : null;
}
// One seat left and the pile holds just its cards: they are its hand (no tap needed).
function fillTheLast() {
  const open = seatsToDeal().filter((s) => !full(s));
  if (open.length !== 1) return;
  const s = open[0], left = pileLeft();
  if (pending(s).length + left.length === (remaining()[String(s)] || 0)) S.dealHands[s] = pending(s).concat(left);
}
function pileLeft() {
  const taken = pendingAll().slice();
  return S.legal.deal.pile.filter((c) => { const i = taken.indexOf(c); if (i < 0) return true; taken.splice(i, 1); return false; });
}

export function dealHtml(mark) {
  const D = S.legal.deal, draws = actionsOf("draw");
  mark(draws);
  let html = '<div class="group" id="deal-group"><h3>' + esc(gettext("The deal")) + '</h3><div class="mode" role="radiogroup" aria-label="' + esc(gettext("Deal entry")) + '">' +
    '<label><input type="radio" name="deal-mode" value="hand"' + (S.dealMode === "hand" ? " checked" : "") + "> " + esc(gettext("whole hands")) + "</label> " +
    '<label><input type="radio" name="deal-mode" value="card"' + (S.dealMode === "card" ? " checked" : "") + "> " + esc(gettext("card by card")) + "</label></div>";
  if (S.dealMode === "card") {
    html += "<p>" + esc(interpolate(ngettext("%(name)s draws (%(count)s card left): pick the card.", "%(name)s draws (%(count)s cards left): pick the card.", D.pile.length),
      { name: name(D.next_drawer), count: D.pile.length })) + "</p>";
    html += '<label class="row">' + esc(gettext("Type the card")) + ' <input id="draw-code" autocomplete="off" autocapitalize="off" spellcheck="false" placeholder="' +
      esc(gettext("e.g. Ts, ph")) + '" size="8"></label>';
    html += '<div class="hand picker" id="draw-cards">';
    draws.forEach((a) => {
      html += '<button type="button" class="pick act" data-card="' + esc(a.card) + "\" data-event='" + esc(JSON.stringify(a)) + "'>" + W.cardHtml(a.card) + "</button>";
    });
    return html + "</div></div>";
  }
  html += '<div class="deal-seats" role="group" aria-label="' + esc(gettext("Cards go to")) + '">' + seatsToDeal().map((s) =>
    '<button type="button" class="btn deal-seat" id="deal-seat-' + s + '" data-seat="' + s + '" aria-pressed="' + (s === S.dealSeat) + '">' +
    esc(name(s)) + ' <span class="n">' + pending(s).length + "/" + remaining()[String(s)] + "</span></button>").join(" ") + "</div>";
  html += '<p class="hint">' + esc(gettext("Tap a seat, then its cards; it moves on to the next seat by itself, and the last seat gets the rest.")) + "</p>";
  const left = pileLeft(), pile = D.pile;
  const taken = pendingAll().slice();
  html += pickerHtml(pile, "pile", gettext("The cards not dealt yet"), (c) => { const i = taken.indexOf(c); if (i < 0) return false; taken.splice(i, 1); return true; })
    .replace('class="hand picker"', 'class="hand picker pile" data-left="' + left.length + '"');
  html += dealDock();
  html += '<label class="row">' + esc(gettext("Type cards")) + ' <input id="card-codes" autocomplete="off" autocapitalize="off" spellcheck="false" placeholder="' + esc(gettext("e.g. Ts 9r ph")) + '"></label>';
  return html + "</div>";
}

/** Before drawing: the pending hands checked against the pile, the last seat filled in. */
export function prepareDeal() {
  if (S.legal.phase !== "deal" || !S.legal.deal || S.dealMode !== "hand") return;
  prune();
  fillTheLast();
}

/** The Deal button with the cards tapped so far, in the seat being dealt to. */
export function dealDock() {
  return '<p class="dock-row" id="deal-dock"><button type="button" class="btn primary" id="deal-btn" disabled>' + esc(gettext("Deal")) + "</button> " +
    '<button type="button" class="btn" id="deal-clear">' + esc(gettext("Clear")) + "</button></p>";
}

/** A seat's cards tapped in the deal and not sent yet (a tap sends one back to the pile). */
export function dealPending(s) {
  const cards = S.dealHands[s] || [];
  if (!cards.length) return "";
  return '<div class="hand pending" aria-label="' + esc(interpolate(gettext("%(name)s: cards to deal"), { name: name(s) })) + '">' + cards.map((c) =>
    '<button type="button" class="pick undeal" data-seat="' + s + '" data-card="' + esc(c) + '" title="' + esc(gettext("back to the pile")) + '">' + W.cardHtml(c) + "</button>").join("") + "</div>";
}

export function updateDeal() {
  const btn = $("deal-btn");
  if (!btn) return;
  const R = remaining();
  const seats = seatsToDeal().filter((s) => pending(s).length);
  const tooMany = seats.some((s) => pending(s).length > R[String(s)]);
  btn.disabled = S.busy || !!S.stale || !seats.length || tooMany;
  btn.textContent = seats.length ? interpolate(gettext("Deal %(hands)s"), { hands: seats.map((s) => name(s) + " " + pending(s).length + (pending(s).length < R[String(s)] ? "/" + R[String(s)] : "")).join(", ") }) : gettext("Deal");
}

/** A card tapped in the pile: to the seat being dealt to (or back, if it was tapped already). */
export function dealTap(card) {
  const owner = Object.keys(S.dealHands).find((s) => S.dealHands[s].indexOf(card) >= 0);
  if (owner !== undefined) { undeal(Number(owner), card); return; }
  if (S.dealSeat === null) return;
  pending(S.dealSeat).push(card);
  if (full(S.dealSeat)) S.dealSeat = nextSeat();
}
export function undeal(seat, card) {
  const list = pending(seat), i = list.indexOf(card);
  if (i >= 0) list.splice(i, 1);
  S.dealSeat = seat;
}
export function chooseDealSeat(seat) { S.dealSeat = seat; }
export function clearDeal() { S.dealHands = {}; S.dealSeat = null; }

/** Typed codes: the current seat's pending cards become the typed ones found in the pile. */
export function dealTyped(codes) {
  const seat = S.dealSeat;
  if (seat === null) return [];
  S.dealHands[seat] = [];
  const left = pileLeft(), missing = [];
  codes.forEach((code) => {
    const i = left.indexOf(code);
    if (i < 0) missing.push(code); else { S.dealHands[seat].push(code); left.splice(i, 1); }
  });
  if (full(seat)) S.dealSeat = nextSeat();
  return missing;
}

export function dealEvents() {
  return seatsToDeal().filter((s) => pending(s).length).map((s) => ({ type: "deal", seat: s, cards: pending(s).slice() }));
}
