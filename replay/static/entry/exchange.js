/* The exchange by tapping cards onto seats (docs/entry.md, "The exchange"): the pushing seat's
 * hand is a row of card buttons and its receivers are seat buttons under it. A card tapped goes to
 * the receiver shown as next (left, partner, right: the order of play), so the usual push is three
 * taps; a seat tapped right after a card takes that card instead; a seat tapped first takes the
 * next card; a placed card tapped again comes back. Once a seat's push is complete the next seat
 * pushes; one button sends every complete push as one entry. No drop-down list of card names. */
import { $, S, W, esc, gettext, handHidden, interpolate, name } from "./state.js";

function pushes() { return S.legal.pushes || {}; }
function pushers() { const order = S.legal.state.order || Object.keys(pushes()).map(Number); return order.filter((s) => pushes()[String(s)]); }
/** The receivers of a seat's push, in the order of play after it (each once per card given). */
function receivers(seat) {
  const want = pushes()[String(seat)] || {}, order = S.legal.state.order || Object.keys(want).map(Number);
  const at = order.indexOf(seat), list = [];
  for (let k = 1; k <= order.length; k++) {
    const t = order[(at + k) % order.length];
    for (let n = 0; n < (want[String(t)] || 0); n++) list.push(t);
  }
  return list;
}
function slots(seat) { return S.exchange.slots[seat] || (S.exchange.slots[seat] = {}); }
function slotKey(t, n) { return n ? t + "." + n : String(t); }
function slotKeys(seat) {
  const seen = {};
  return receivers(seat).map((t) => { seen[t] = (seen[t] || 0); return slotKey(t, seen[t]++); });
}
function complete(seat) { return slotKeys(seat).every((k) => slots(seat)[k]); }
function nextSlot(seat) {
  if (S.exchange.armed && !slots(seat)[S.exchange.armed]) return S.exchange.armed;
  return slotKeys(seat).find((k) => !slots(seat)[k]) || null;
}

/** Before drawing: the pushing seat (the first still to push), slots checked against the hand. */
export function prepareExchange() {
  if (S.legal.phase !== "exchange" || !S.legal.pushes) { S.exchange = { seat: null, slots: {}, last: null, armed: null }; return; }
  const list = pushers(), hands = S.legal.state.hands || [];
  Object.keys(S.exchange.slots).forEach((s) => {
    if (list.indexOf(Number(s)) < 0) { delete S.exchange.slots[s]; return; }
    if (handHidden(Number(s))) return;  // a hand the page may not see: the engine checks the push
    const hand = hands[Number(s)] || [];
    Object.keys(S.exchange.slots[s]).forEach((k) => { if (hand.indexOf(S.exchange.slots[s][k]) < 0) delete S.exchange.slots[s][k]; });
  });
  if (S.exchange.seat === null || list.indexOf(S.exchange.seat) < 0) S.exchange.seat = list.find((s) => !complete(s)) ?? list[0] ?? null;
}

export function isPlaced(card) { const s = S.exchange.seat; return s !== null && Object.values(slots(s)).indexOf(card) >= 0; }

/** Under the pushing seat's hand: its receivers, and the button that sends the pushes. */
export function exchangeDock(seat) {
  const next = nextSlot(seat);
  let html = '<div class="push-to" role="group" aria-label="' + esc(interpolate(gettext("%(name)s pushes to"), { name: name(seat) })) + '">';
  slotKeys(seat).forEach((k) => {
    const t = Number(k.split(".")[0]), card = slots(seat)[k];
    html += '<button type="button" class="btn push-slot' + (k === next ? " next" : "") + '" id="push-to-' + k.replace(".", "-") + '" data-slot="' + k +
      '" aria-pressed="' + (k === next) + '">' + interpolate(esc(gettext("to %(name)s: %(card)s")), { name: esc(name(t)), card: card ? W.cardHtml(card) : '<span class="empty">' + (k === next ? esc(gettext("next card")) : "—") + "</span>" }) + "</button>";
  });
  html += "</div>";
  const ready = pushers().filter(complete);
  html += '<p class="dock-row"><button type="button" class="btn primary" id="push-btn"' + (ready.length ? "" : " disabled") + ">" +
    esc(ready.length ? interpolate(gettext("Send the exchange: %(names)s"), { names: ready.map(name).join(", ") }) : gettext("Send the exchange")) + "</button></p>";
  return html;
}

/** Above the seats' boxes: who pushes (a tap changes the seat being entered). */
export function pushHtml() {
  const list = pushers();
  if (!list.length) return "";
  return '<div class="group" id="push-group"><h3>' + esc(gettext("The exchange")) + '</h3><p class="hint">' +
    esc(gettext("Tap a card of the pushing seat: it goes to the seat marked next (a seat tapped right after a card takes it instead).")) + "</p>" +
    '<div class="push-seats" role="group" aria-label="' + esc(gettext("Who pushes")) + '">' + list.map((s) =>
      '<button type="button" class="btn push-seat" id="push-seat-' + s + '" data-seat="' + s + '" aria-pressed="' + (s === S.exchange.seat) + '">' +
      esc(name(s)) + " " + (complete(s) ? "✓" : Object.keys(slots(s)).length + "/" + slotKeys(s).length) + "</button>").join(" ") + "</div></div>";
}

/** A card of the pushing seat tapped. */
export function exchangeTap(card) {
  const seat = S.exchange.seat;
  if (seat === null) return;
  const own = slots(seat), at = Object.keys(own).find((k) => own[k] === card);
  if (at) { delete own[at]; S.exchange.last = null; return; }
  const k = nextSlot(seat);
  if (!k) return;
  own[k] = card;
  S.exchange.last = S.exchange.armed ? null : k;  // a seat tapped now takes this card
  S.exchange.armed = null;
  if (complete(seat)) {
    const open = pushers().find((s) => !complete(s));
    if (open !== undefined) { S.exchange.seat = open; S.exchange.last = null; }
  }
}

/** A receiver tapped: takes the card tapped just before, or else the next card. */
export function slotTap(k) {
  const seat = S.exchange.seat, own = slots(seat), last = S.exchange.last;
  if (last && own[last] && last !== k) {
    const card = own[last];
    own[last] = own[k];
    if (!own[last]) delete own[last];
    own[k] = card;
    S.exchange.last = null;
    return;
  }
  S.exchange.last = null;
  S.exchange.armed = own[k] ? null : k;
  if (own[k]) delete own[k], (S.exchange.armed = k);
}

/** Every seat's push is complete: with quick entry on, the exchange is sent at once. */
export function exchangeComplete() { const list = pushers(); return list.length > 0 && list.every(complete); }

export function choosePusher(seat) { S.exchange.seat = seat; S.exchange.last = null; S.exchange.armed = null; }

export function pushEvents() {
  return pushers().filter(complete).map((seat) => {
    const cards = {};
    slotKeys(seat).forEach((k) => {
      const t = k.split(".")[0], c = slots(seat)[k];
      cards[t] = cards[t] === undefined ? c : [].concat(cards[t], c);
    });
    return { type: "push", seat, cards };
  });
}
