/* What a tap, a key or a typed word does on the entry page (docs/entry.md, "Keyboard and phone"):
 * one click handler for every button of the page, the fields' input, and the shortcuts. */
import { $, C, S, W, actionsOf, alertBox, gettext, interpolate, name, root, say } from "./state.js";
import { flush, refresh, renderOutbox, send } from "./api.js";
import { acknowledgeStale } from "./stale.js";
import { pickCards, pickedCards, render, selectTab } from "./view.js";
import { chooseDealSeat, clearDeal, dealEvents, dealTap, dealTyped, undeal, updateDeal } from "./deal.js";
import { choosePusher, exchangeComplete, exchangeTap, pushEvents, slotTap } from "./exchange.js";
import { exactPlay, quickPlay, setQuickPlay, updatePlay } from "./play.js";
import { cancelPenalty, choosePenalty, confirmPenalty } from "./penalty.js";
import { checkHand, oneCallEach, otherTeamPoints, submitHand, syncDoubleVictory } from "./sheet.js";
import { outbox } from "./state.js";

// The words a scorer may type for a card are the engine's (games/engine/faces.py CARD_WORDS,
// lower-cased): the API reads the same words, so the page and the API cannot differ.
function codeOf(word) {
  const w = word.trim();
  if (!w) return null;
  return C.card_words[w.toLowerCase()] || w;
}
function codesOf(text) { return text.split(/[\s,]+/).map(codeOf).filter(Boolean); }
function pickTyped(text) {
  const cards = pickCards(), picked = [], missing = [];
  text.split(/[\s,]+/).forEach((w) => {
    const code = codeOf(w);
    if (!code) return;
    for (let i = 0; i < cards.length; i++) {
      if (cards[i] === code && picked.indexOf(i) < 0) { picked.push(i); return; }
    }
    missing.push(w);
  });
  S.picked = picked;
  return missing;
}

function rerenderPicks() {
  document.querySelectorAll("#seats .picker .pick[data-index]").forEach((b) => {
    b.setAttribute("aria-pressed", String(S.picked.indexOf(Number(b.getAttribute("data-index"))) >= 0));
  });
  updatePlay();
}

function onClick(ev) {
  const t = ev.target.closest ? ev.target.closest("button") : null;
  if (!t || !root.contains(t) || S.busy) return;
  if (t.classList.contains("stale-ack")) { acknowledgeStale(); return; }
  if (S.stale && t.id !== "refresh" && !t.closest(".tabs") && !t.classList.contains("pick")) { send([], ""); return; }
  const phase = S.legal && S.legal.phase;
  if (t.classList.contains("pick") && t.hasAttribute("data-index")) {
    const card = t.getAttribute("data-card");
    if (phase === "deal" && S.dealMode === "hand") { dealTap(card); S.refocus = null; render(); return; }
    if (phase === "exchange") {
      exchangeTap(card);
      render();
      focusCard(card);
      if (quickPlay() && exchangeComplete()) sendExchange();  // the twelfth card sends the exchange
      return;
    }
    const i = Number(t.getAttribute("data-index")), at = S.picked.indexOf(i);
    if (at >= 0) S.picked.splice(at, 1); else S.picked.push(i);
    S.justPicked = at < 0;  // a card added: one tap may play (play.js)
    rerenderPicks();
    return;
  }
  if (t.classList.contains("undeal")) { undeal(Number(t.getAttribute("data-seat")), t.getAttribute("data-card")); render(); return; }
  if (t.classList.contains("deal-seat")) { chooseDealSeat(Number(t.getAttribute("data-seat"))); render(); return; }
  if (t.classList.contains("push-seat")) { choosePusher(Number(t.getAttribute("data-seat"))); render(); return; }
  if (t.classList.contains("push-slot")) { slotTap(t.getAttribute("data-slot")); render(); return; }
  if (t.hasAttribute("data-event")) {
    const e = JSON.parse(t.getAttribute("data-event"));
    if (t.classList.contains("to-cards")) selectTab("cards");  // a shuffle from the score-sheet tab
    send([e], W.describe(e));
    return;
  }
  if (t.classList.contains("penalty-seat")) { choosePenalty(Number(t.getAttribute("data-index"))); return; }
  if (t.id === "penalty-no") { cancelPenalty(true); return; }
  if (t.id === "penalty-yes") { confirmPenalty(); return; }
  if (t.id === "pass-all") { send(JSON.parse(t.getAttribute("data-events")), t.textContent); return; }
  if (t.id === "play-btn") { const play = exactPlay(); if (play) send([play], W.describe(play)); return; }
  if (t.id === "pick-clear") { S.picked = []; rerenderPicks(); return; }
  if (t.id === "deal-clear") { clearDeal(); render(); return; }
  if (t.id === "deal-btn") {
    const deals = dealEvents();
    if (deals.length) send(deals, interpolate(gettext("the deal: %(hands)s"), { hands: deals.map((d) => name(d.seat) + " " + d.cards.length).join(", ") })).then((ok) => { if (ok) clearDeal(); });
    return;
  }
  if (t.id === "push-btn") sendExchange();
}

function sendExchange() {
  const list = pushEvents();
  if (list.length) send(list, interpolate(gettext("the exchange: %(pushes)s"), { pushes: list.map((e) => W.describe(e)).join("; ") }));
}

function focusCard(card) {
  const b = document.querySelector('#seats .picker .pick[data-card="' + card + '"]');
  if (b) b.focus({ preventScroll: true });
}

export function wire() {
  const tabs = document.querySelector(".tabs");
  tabs.addEventListener("keydown", (ev) => {
    if (ev.key !== "ArrowLeft" && ev.key !== "ArrowRight") return;
    ev.preventDefault();
    if (!$("tab-sheet").hidden) selectTab(S.tab === "sheet" ? "cards" : "sheet", true);
  });
  $("tab-sheet").addEventListener("click", () => selectTab("sheet"));
  $("tab-cards").addEventListener("click", () => selectTab("cards"));
  root.addEventListener("click", onClick);

  root.addEventListener("change", (ev) => {
    const t = ev.target;
    if (t.name === "deal-mode") { S.dealMode = t.value; S.picked = []; render(); return; }
    if (t.id === "quick-play") { setQuickPlay(t.checked); return; }
    if (t.closest && t.closest("#hand-form")) {
      if (t.classList.contains("call-toggle")) oneCallEach(t);
      S.touched[t.classList.contains("out-select") || t.name === "out-0" ? "out" : /^points-/.test(t.id) ? "points" : t.id] = true;
      if (t.id === "double-victory" || t.name === "out-0" || t.id === "dealer") syncDoubleVictory();
      checkHand();
    }
  });
  root.addEventListener("input", (ev) => {
    const t = ev.target;
    if (t.id === "points-0" || t.id === "points-1") { S.touched.points = true; otherTeamPoints(ev); checkHand(); return; }
    if (t.id === "card-codes" && S.legal && S.legal.phase === "play") {
      const missing = pickTyped(t.value);
      rerenderPicks();
      const hint = $("play-hint");
      if (missing.length && hint) hint.textContent = interpolate(gettext("Not among the cards: %(words)s"), { words: missing.join(", ") });
    }
  });
  root.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && S.penaltyPick) { ev.preventDefault(); cancelPenalty(true); return; }
    if (ev.target.id === "draw-code" && ev.key === "Enter") {
      ev.preventDefault();
      const code = codeOf(ev.target.value || "");
      const draw = actionsOf("draw").filter((a) => a.card === code)[0];
      if (draw) { S.refocus = "draw-code"; send([draw], W.describe(draw)); }
      else say(interpolate(gettext("Not in the pile: %(words)s"), { words: ev.target.value }));
      return;
    }
    if (ev.target.id === "card-codes" && ev.key === "Enter") {
      ev.preventDefault();
      if (S.legal.phase === "deal") {  // typed cards: the hand of the seat being dealt to
        const missing = dealTyped(codesOf(ev.target.value));
        S.refocus = "card-codes";
        render();
        if (missing.length) say(interpolate(gettext("Not in the pile: %(words)s"), { words: missing.join(", ") }), "bad");
        else $("card-codes").focus();
        updateDeal();
        return;
      }
      S.refocus = "card-codes";
      const b = $("play-btn");
      if (b && !b.disabled) b.click();
    }
  });

  $("penalty-box").addEventListener("toggle", () => { if (!$("penalty-box").open && S.penaltyPick) cancelPenalty(false); });
  $("hand-form").addEventListener("submit", (ev) => { ev.preventDefault(); submitHand(); });
  $("hand-form").addEventListener("reset", () => { S.touched = {}; setTimeout(() => { syncDoubleVictory(); checkHand(); }, 0); });
  $("undo").addEventListener("click", () => { if (!S.busy) send([{ type: "undo" }], W.term("event:undo", "undo")); });
  $("refresh").addEventListener("click", () => { alertBox(""); refresh(gettext("Latest state loaded.")); });
  $("retry").addEventListener("click", () => { if (!S.busy) flush(); });
  $("outbox-discard").addEventListener("click", () => {
    outbox.clear();
    renderOutbox();
    say(gettext("The held entries were discarded; nothing of them was stored."));
    refresh();
  });

  document.addEventListener("keydown", (ev) => {
    const tag = (ev.target.tagName || "").toLowerCase();
    if (ev.ctrlKey || ev.altKey || ev.metaKey || tag === "input" || tag === "select" || tag === "textarea") return;
    if (ev.key === "u") { ev.preventDefault(); $("undo").click(); }
    else if (ev.key === "r") { ev.preventDefault(); $("refresh").click(); }
    else if (ev.key === "s") { ev.preventDefault(); selectTab("sheet", true); }
    else if (ev.key === "c") { ev.preventDefault(); selectTab("cards", true); }
  });
}

export { pickedCards };
