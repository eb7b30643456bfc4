/* Drawing the card-by-card entry from the engine's state (docs/entry.md, "Card by card"). The
 * seat that acts is drawn with its controls right under its hand (the "dock"), so its cards and
 * its Play button share one phone screen; the page scrolls that seat into view under the sticky
 * bar after each entry. */
import { $, C, S, W, actionsOf, esc, gettext, handHidden, interpolate, name, ngettext, outbox, players, root, unplayed } from "./state.js";
import { dealHtml, dealPending, prepareDeal, updateDeal } from "./deal.js";
import { exchangeDock, isPlaced, prepareExchange, pushHtml } from "./exchange.js";
import { playHtml, updatePlay } from "./play.js";
import { renderPenalty } from "./penalty.js";
import { renderSheetForm } from "./sheet.js";

export function phaseText() {
  const L = S.legal, st = L.state;
  const phase = (p) => W.term("phase:" + p, (p || "").replace(/_/g, " "));
  if (L.status === "finished" || L.phase === "game_over") return phase("game_over");
  const parts = [];
  if (L.phase === "between_hands") {
    const played = (st.score_sheet || []).length;
    parts.push(phase("between_hands"), interpolate(ngettext("%(count)s hand played", "%(count)s hands played", played), { count: played }));
    if (typeof st.next_shuffler === "number") parts.push(interpolate(gettext("%(name)s shuffles next"), { name: name(st.next_shuffler) }));
    return parts.join(" · ");
  }
  if (st.hand_number) parts.push(interpolate(gettext("hand %(number)s"), { number: st.hand_number }));
  // who acts says the phase too ("Bob draws next", "Bob to play"): the phase's own word only
  // where nobody is named, so that the line is short enough to read whole on a phone's bar
  let who = "";
  if (L.phase === "deal" && L.deal && L.deal.next_drawer !== null) who = interpolate(gettext("%(name)s draws next"), { name: name(L.deal.next_drawer) });
  else if (typeof L.turn === "number") {
    who = interpolate(L.phase === "dragon_gift" ? gettext("%(name)s to give the Dragon trick") : gettext("%(name)s to play"), { name: name(L.turn) });
  }
  parts.push(who || phase(L.phase));
  return parts.join(" · ");
}

export function render() {
  const L = S.legal;
  if (!L) return;
  $("seq").textContent = String(L.seq);
  $("phase-text").textContent = phaseText();
  $("undo").disabled = !L.can_undo || !!S.stale;
  renderSheetForm();
  prepareDeal();
  prepareExchange();
  renderSeats();
  renderTrick();
  renderControls();
  renderPenalty();
  if (S.stale || outbox.size()) root.querySelectorAll("#controls button, #seats button, #penalty-box button").forEach((b) => { b.disabled = true; });
  if (outbox.size()) {
    $("undo").disabled = true;
    $("controls").insertAdjacentHTML("afterbegin", '<p class="note outbox-wait" id="outbox-wait">' +
      esc(interpolate(gettext("%(what)s: kept in this browser, not yet sent. The next entry is offered once the server has it."),
        { what: outbox.items()[outbox.size() - 1].what })) + "</p>");
  }
  if (!S.tab) selectTab(C.sheet.enabled && (L.phase === "between_hands" || L.phase === "game_over") ? "sheet" : "cards", false);
  keepActingSeatInView();
}

/** The seat the scorer enters for now: the seat to play, the seat pushing, or the seat dealt to. */
export function actingSeat() {
  const L = S.legal;
  if (L.phase === "exchange" && L.pushes) return S.exchange.seat;
  if (L.phase === "deal" && L.deal) return S.dealMode === "hand" ? S.dealSeat : L.deal.next_drawer;
  return typeof L.turn === "number" ? L.turn : null;
}

function renderSeats() {
  const L = S.legal, st = L.state;
  const teamOf = {};
  (st.teams || []).forEach((t, i) => t.forEach((s) => { teamOf[s] = i; }));
  const order = st.order || players.map((_, i) => i);
  const acting = actingSeat();
  let html = "";
  order.forEach((s) => {
    const hand = (st.hands || [])[s] || [];
    const turn = acting === s;
    const call = (st.calls || {})[String(s)];
    const outRank = (st.out || []).indexOf(s);
    const src = pickSource();
    html += '<div class="seat-box' + (turn ? " turn" : " quiet") + (teamOf[s] !== undefined ? " team-" + teamOf[s] : "") +
      (outRank >= 0 ? " is-out" : "") + '" data-seat="' + s + '"' + (turn ? ' aria-current="true"' : "") + ">";
    html += '<div class="seat-head"><span class="seat-name">' + esc(name(s)) + "</span>";
    if (call) html += ' <span class="badge call call-' + call + '" data-call="' + call + '">' + esc(W.callName(call)) + "</span>";
    if (outRank >= 0) html += ' <span class="badge out">' + esc(interpolate(gettext("out #%(rank)s"), { rank: outRank + 1 })) + "</span>";
    if (turn) html += ' <span class="badge to-act">' + esc(L.phase === "deal" ? gettext("dealt to") : L.phase === "exchange" ? gettext("pushes") : L.phase === "dragon_gift" ? gettext("gives the Dragon") : gettext("to play")) + "</span>";
    if (st.received && L.phase === "deal") html += ' <span class="count">' + esc(interpolate(ngettext("%(count)s card", "%(count)s cards", st.received[s]), { count: st.received[s] })) + "</span>";
    html += ' <span class="count">' + hand.length + "</span></div>";
    if (src === "hand:" + s) html += pickerHtml(pickCards(), src, interpolate(gettext("%(name)s's hand"), { name: name(s) }), L.phase === "exchange" ? isPlaced : null);
    else html += '<div class="hand" aria-label="' + esc(interpolate(ngettext("%(name)s's hand: %(count)s card", "%(name)s's hand: %(count)s cards", hand.length), { name: name(s), count: hand.length })) + '">' + W.cardsHtml(hand) + "</div>";
    if (L.phase === "deal" && S.dealMode === "hand") html += dealPending(s);
    if (turn && L.phase === "play") html += '<div class="controls-dock" id="play-dock">' + playHtml() + "</div>";
    if (turn && L.phase === "exchange") html += '<div class="controls-dock" id="push-dock">' + exchangeDock(s) + "</div>";
    html += "</div>";
  });
  $("seats").innerHTML = html;
}

function renderTrick() {
  const st = S.legal.state, log = st.trick_log || [];
  let html = "";
  if (st.wish) html += '<p class="wish">' + esc(gettext("Wish:")) + ' <b data-wish="' + esc(st.wish) + '">' + esc(W.rankName(st.wish)) + "</b></p>";
  if (log.length) {
    html += '<div class="trick-log">';
    log.forEach((e) => {
      html += '<div class="play" data-seat="' + e.seat + '"><span class="who">' + esc(name(e.seat)) + "</span> " +
        (e.pass ? '<span class="pass">' + esc(W.term("event:pass", "pass")) + "</span>" : W.cardsHtml(e.cards) + ' <span class="combo">' + esc(W.term("combination:" + e.combination, (e.combination || "").replace(/_/g, " "))) + "</span>") + "</div>";
    });
    html += "</div>";
  }
  $("trick-box").innerHTML = html;
}

// The cards the scorer picks from: the hand of the seat to play or to push, or the pile in a deal.
export function pickSource() {
  const L = S.legal;
  if (L.phase === "play" && typeof L.turn === "number") return "hand:" + L.turn;
  if (L.phase === "exchange" && L.pushes && S.exchange.seat !== null) return "hand:" + S.exchange.seat;
  if (L.phase === "deal" && L.deal && S.dealMode === "hand") return "pile";
  return null;
}
export function pickCards() {
  const src = pickSource(), st = S.legal.state;
  if (src === "pile") return S.legal.deal.pile;
  if (src && src.indexOf("hand:") === 0) {
    const seat = Number(src.slice(5));
    return handHidden(seat) ? unplayed() : (st.hands || [])[seat] || [];
  }
  return [];
}
export function pickedCards() {
  const cards = pickCards();
  return S.picked.map((i) => cards[i]).filter((c) => c !== undefined);
}
export function pickerHtml(cards, src, label, isOn) {
  if (S.pickFrom !== src) { S.pickFrom = src; S.picked = []; }
  let html = '<div class="hand picker" role="group" aria-label="' + esc(interpolate(gettext("%(hand)s: pick cards"), { hand: label })) + '" data-source="' + esc(src) + '">';
  cards.forEach((c, i) => {
    const on = isOn ? isOn(c, i) : S.picked.indexOf(i) >= 0;
    html += '<button type="button" class="pick" data-index="' + i + '" data-card="' + esc(c) + '" aria-pressed="' + on + '">' + W.cardHtml(c) + "</button>";
  });
  return html + "</div>";
}

export function button(id, label, event, cls) {
  return '<button type="button" class="btn act' + (cls ? " " + cls : "") + '"' + (id ? ' id="' + id + '"' : "") +
    " data-event='" + esc(JSON.stringify(event)) + "'>" + label + "</button>";
}

function renderControls() {
  const L = S.legal, handled = {};
  let html = "";
  const mark = (list) => list.forEach((a) => { handled[JSON.stringify(a)] = true; });
  if (L.status === "finished" || L.phase === "game_over") html += '<p class="over">' + esc(gettext("The game is over. An undo is still possible.")) + "</p>";
  const shuffles = actionsOf("shuffle");
  if (shuffles.length) {
    html += '<div class="group" id="shuffle-group"><h3>' + esc(gettext("New hand: who shuffles?")) + "</h3>";
    shuffles.forEach((a) => { html += button("shuffle-" + a.seat, esc(interpolate(gettext("%(name)s shuffles"), { name: name(a.seat) })), a); });
    html += "</div>";
    mark(shuffles);
  }
  const calls = actionsOf("tichu").concat(actionsOf("grand_tichu"));
  if (calls.length && L.phase === "deal") html += callsHtml(calls);  // a Grand Tichu comes before that seat's deal
  if (L.phase === "deal" && L.deal) html += dealHtml(mark);
  if (L.phase === "exchange" && L.pushes) html += pushHtml();
  if (L.phase === "play" && typeof L.turn === "number") { mark(actionsOf("play").filter((a) => a.seat === L.turn)); mark(actionsOf("pass")); }
  const gifts = actionsOf("dragon_gift");
  if (gifts.length) {
    html += '<div class="group" id="gift-group"><h3>' + esc(interpolate(gettext("%(name)s gives the Dragon trick to"), { name: name(gifts[0].seat) })) + "</h3>";
    gifts.forEach((a) => { html += button("gift-" + a.to, esc(name(a.to)), a); });
    html += "</div>";
    mark(gifts);
  }
  const bombSeats = Object.keys(L.bombs_out_of_turn || {});
  if (bombSeats.length) {
    html += '<div class="group" id="bomb-group"><h3>' + esc(gettext("Bombs out of turn")) + "</h3>";
    bombSeats.forEach((s) => {
      L.bombs_out_of_turn[s].forEach((a, i) => { html += button("bomb-" + s + "-" + i, interpolate(esc(gettext("%(name)s bombs %(cards)s")), { name: esc(name(a.seat)), cards: W.cardsHtml(a.cards) }), a, "bomb"); });
    });
    html += "</div>";
  }
  if (calls.length && L.phase !== "deal") html += callsHtml(calls);
  mark(calls);
  const others = (L.actions || []).filter((a) => !handled[JSON.stringify(a)]);
  if (others.length) {
    html += '<div class="group" id="other-group"><h3>' + esc(gettext("Other legal events")) + "</h3>";
    others.slice(0, 200).forEach((a, i) => { html += button("other-" + i, esc(W.describe(a)), a); });
    html += "</div>";
  }
  if (!html && !(L.phase === "play" || L.phase === "exchange")) html = '<p class="note">' + esc(L.phase === "between_hands" ? gettext("Nothing to enter here now.") : gettext("Nothing to enter here now: see the score sheet.")) + "</p>";
  $("controls").innerHTML = html;
  updatePlay();
  updateDeal();
}

function callsHtml(calls) {
  let html = '<div class="group" id="call-group"><h3>' + esc(gettext("Calls")) + "</h3>";
  calls.forEach((a) => { html += button(a.type + "-" + a.seat, esc(interpolate(gettext("%(name)s: %(call)s"), { name: name(a.seat), call: W.callName(a.type) })), a, "call"); });
  return html + "</div>";
}

export function selectTab(which, focus) {
  S.tab = which;
  const sheet = which === "sheet";
  $("tab-sheet").setAttribute("aria-selected", String(sheet));
  $("tab-cards").setAttribute("aria-selected", String(!sheet));
  $("sheet-entry").hidden = !sheet;
  $("card-entry").hidden = sheet;
  if (focus) $(sheet ? "tab-sheet" : "tab-cards").focus();
  if (!sheet) keepActingSeatInView();
}

// The acting seat's hand and its controls on one screen: scrolled into view under the sticky
// bar (its height is the scroll margin), only when they are not in view already.
function keepActingSeatInView() {
  if (S.tab !== "cards" || !S.legal || (S.legal.phase !== "play" && S.legal.phase !== "exchange")) return;
  const box = document.querySelector("#seats .seat-box.turn");
  if (!box) return;
  const bar = document.querySelector(".entry-bar");
  const top = bar ? bar.getBoundingClientRect().bottom : 0;
  const r = box.getBoundingClientRect();
  box.style.scrollMarginTop = (top + 4) + "px";
  if (r.top < top || r.bottom > window.innerHeight) box.scrollIntoView({ block: r.height + top > window.innerHeight ? "start" : "nearest" });
}

// Keyboard users keep their place: after an entry the page is redrawn, so focus goes back to
// the same control if it is still there, else to the first control of the card-by-card entry.
export function rememberFocus() {
  const a = document.activeElement;
  if (S.refocus || !a || a === document.body || !$("card-entry").contains(a)) return;
  S.refocus = a.id || "__controls";
}
export function restoreFocus() {
  const want = S.refocus;
  S.refocus = null;
  if (!want) return;
  let el = want !== "__controls" ? $(want) : null;
  if (!el || el.disabled || !el.getClientRects().length) el = document.querySelector("#seats .picker .pick, #controls button:not([disabled]), #controls select, #controls input");
  if (el) el.focus({ preventScroll: true });
}
