/* The play (docs/entry.md, "Play" and "Taps"): the seat to act picks cards from its hand; every
 * control is one of the engine's legal events for it now.
 *
 * Tap savers, none of them a rule: (1) "one tap plays": when the picked cards are part of exactly
 * one legal event of the seat (a single on a single, the only pair holding that card), it is
 * entered at once; (2) when a few legal plays hold the picked cards, or the same cards can be
 * played several ways (the Mahjong's wish, the Phoenix's reading, the Dog's receiver), each is a
 * button; (3) the passes round to the trick's winner are one button once the engine accepts them;
 * (4) after the scorer's own entry, an event the engine says is the only one possible (a pass with
 * nothing that beats, the last card) is entered by the page itself, with nobody's bomb possible. */
import { $, C, S, W, actionsOf, esc, gettext, handHidden, interpolate, key, name, outbox, setBusy } from "./state.js";
import { getJson, send } from "./api.js";
import { button, pickedCards } from "./view.js";

/** The most candidate plays shown as buttons (more: pick further cards, or Play). */
export const MAX_CANDIDATES = 12;
const QUICK_KEY = "tichu-entry:quick-play";
export function quickPlay() {
  try { return window.localStorage.getItem(QUICK_KEY) !== "off"; } catch (e) { return true; }
}
export function setQuickPlay(on) {
  try { window.localStorage.setItem(QUICK_KEY, on ? "on" : "off"); } catch (e) { /* this page only */ }
}

function seatPlays() { const seat = S.legal.turn; return actionsOf("play").filter((a) => a.seat === seat); }

/** The seat's hand is hidden from this page (handHidden): the picked cards are the play, each way
 *  the Mahjong's wish may go; the engine checks it when it is sent. */
function hiddenPlays() {
  const picked = pickedCards(), seat = S.legal.turn;
  if (!picked.length) return [];
  const play = { type: "play", seat, cards: picked };
  if (picked.indexOf("Mahjong") < 0) return [play];
  return [play].concat(WISH_RANKS.map((wish) => ({ ...play, wish })));
}
const WISH_RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"];

export function playHtml() {
  const L = S.legal, seat = L.turn, passes = actionsOf("pass");
  let html = '<div class="group" id="play-group">';
  html += '<p class="dock-head">' + interpolate(esc(gettext("%(name)s to play: tap the cards above")), { name: "<b>" + esc(name(seat)) + "</b>" }) + "</p>";
  html += '<div id="play-options" class="candidates"></div>';
  html += '<p class="dock-row"><button type="button" class="btn primary" id="play-btn" disabled>' + esc(gettext("Play")) + "</button> ";
  passes.forEach((a) => { html += button("pass-btn", esc(gettext("Pass")), a) + " "; });
  const rest = passes.length ? passesToTheWinner(passes[0]) : null;
  if (rest) {
    html += '<button type="button" class="btn" id="pass-all" disabled data-events=\'' + esc(JSON.stringify(rest)) + "'>" +
      esc(interpolate(gettext("%(names)s pass: %(winner)s wins the trick"), { names: rest.map((e) => name(e.seat)).join(", "), winner: name(S.legal.state.trick_winner) })) + "</button> ";
    confirmPassAll(rest);
  }
  html += '<button type="button" class="btn" id="pick-clear">' + esc(gettext("Clear")) + "</button></p>";
  html += '<p id="play-hint" class="hint" aria-live="polite"></p>';
  html += '<details class="typed"><summary>' + esc(gettext("Type cards · one-tap play")) + '</summary><label class="row">' + esc(gettext("Cards")) +
    ' <input id="card-codes" autocomplete="off" autocapitalize="off" spellcheck="false" placeholder="' + esc(gettext("e.g. 9r 9j, ph, ma")) + '"></label>' +
    '<label class="check"><input type="checkbox" id="quick-play"' + (quickPlay() ? " checked" : "") + "> " +
    esc(gettext("Quick entry: one tap plays when the cards allow only one play; the twelfth card of the exchange sends it")) + "</label></details>";
  return html + "</div>";
}

// "Everyone else passes" in one tap: the passes from the seat to act round to the trick's
// winner, offered only once the engine has accepted the whole list (?check=) at this position.
function passesToTheWinner(pass) {
  const st = S.legal.state, order = st.order || [], out = st.out || [], winner = st.trick_winner;
  if (typeof winner !== "number" || !(st.trick || []).length || order.indexOf(S.legal.turn) < 0) return null;
  const list = [];
  let seat = S.legal.turn;
  for (let guard = 0; seat !== winner && guard < order.length; guard++) {
    if (out.indexOf(seat) < 0) list.push({ ...pass, seat });
    seat = order[(order.indexOf(seat) + 1) % order.length];
  }
  return seat === winner && list.length >= 2 ? list : null;
}
function confirmPassAll(list) {
  const seq = S.seq;
  getJson(C.legal_url + "?check=" + encodeURIComponent(JSON.stringify(list))).then((res) => {
    const btn = $("pass-all"), check = res.body && res.body.check;
    if (!btn || S.seq !== seq || !check || !check.ok) return;
    btn.disabled = S.busy || !!S.stale || outbox.size() > 0;
    btn.setAttribute("data-checked", "1");
  }).catch(() => {});
}

/** The seat's legal plays holding every picked card (none offered for a hidden hand: each tap
 *  may be part of a larger play, so nothing is played at one tap). */
function candidates() {
  if (handHidden(S.legal.turn)) return [];
  const picked = pickedCards();
  return seatPlays().filter((a) => picked.every((c) => a.cards.indexOf(c) >= 0));
}
function exactPlays() {
  if (handHidden(S.legal.turn)) return hiddenPlays();
  const k = key(pickedCards());
  return seatPlays().filter((a) => key(a.cards) === k);
}

function choiceWords(a, sameCards) {
  const parts = [];
  if (a.wish !== undefined) parts.push(interpolate(gettext("wish for %(rank)s"), { rank: W.rankPhrase(a.wish) }));
  else if (sameCards && a.cards.indexOf("Mahjong") >= 0) parts.push(gettext("no wish"));
  if (a.phoenix !== undefined) parts.push(interpolate(gettext("Phoenix as %(rank)s"), { rank: W.rankName(a.phoenix) }));
  if (a.to !== undefined) parts.push(interpolate(gettext("lead to %(name)s"), { name: name(a.to) }));
  return parts.join(", ");
}

/** After each pick: one tap plays, or the candidates are offered, or Play is enabled. */
export function updatePlay() {
  const btn = $("play-btn");
  if (!btn) return;
  const picked = pickedCards(), exact = exactPlays(), cands = picked.length ? candidates() : [];
  const box = $("play-options");
  const blocked = S.busy || !!S.stale || outbox.size() > 0;
  if (picked.length && cands.length === 1 && quickPlay() && !blocked && S.justPicked) {
    S.justPicked = false;
    send([cands[0]], W.describe(cands[0]));
    return;
  }
  S.justPicked = false;
  let html = "";
  const shown = exact.length > 1 ? exact : cands.length > 1 && cands.length <= MAX_CANDIDATES ? cands : [];
  shown.forEach((a, i) => {
    const same = key(a.cards) === key(picked);
    const label = (same ? "" : W.cardsHtml(a.cards) + " ") + esc(choiceWords(a, exact.length > 1) || (same ? gettext("play") : ""));
    html += button("cand-" + i, label, a, "cand");
  });
  box.innerHTML = html;
  const play = exact.length === 1 ? exact[0] : null;
  btn.disabled = blocked || !play;
  btn.textContent = play ? interpolate(gettext("Play %(cards)s"), { cards: W.cardsText(play.cards) }) : exact.length > 1 ? gettext("Play: choose above") : gettext("Play");
  const hint = $("play-hint");
  const hidden = handHidden(S.legal.turn);
  if (hint) { hint.textContent = !picked.length || cands.length || hidden ? "" : interpolate(gettext("Not a legal play here: %(cards)s."), { cards: W.cardsText(picked) }); hint.removeAttribute("data-code"); }
  if (picked.length && !cands.length && !hidden) explainRefusal({ type: "play", seat: S.legal.turn, cards: picked });
}

// Why the engine refuses the picked cards: asked with ?check=, worded from the engine's code and
// parameters (static/shared/cards.js), shown next to the Play button; the latest question wins.
function explainRefusal(event) {
  const k = JSON.stringify(event), seq = S.seq;
  S.explaining = k;
  getJson(C.legal_url + "?check=" + encodeURIComponent(k)).then((res) => {
    const hint = $("play-hint"), check = res.body && res.body.check;
    if (S.explaining !== k || S.seq !== seq || !hint || !check || check.ok) return;
    hint.textContent = interpolate(gettext("Not a legal play here: %(cards)s: %(reason)s."), { cards: W.cardsText(event.cards), reason: W.refusal(check.error) });
    hint.setAttribute("data-code", check.error.code);
  });
}

/** After a refresh: once the scorer's own entry is stored, an event the engine says is the only
 *  one possible now (and no bomb anywhere) is entered by the page, one after the other. */
export function afterRefresh() {
  const L = S.legal;
  const acts = (L && L.actions) || [];
  // never for a page that may not see the hands: its list of events leaves out the plays
  const forced = S.chain && !L.redacted && !S.stale && !outbox.size() && acts.length === 1 && !Object.keys(L.bombs_out_of_turn || {}).length &&
    ["pass", "play", "dragon_gift"].indexOf(acts[0].type) >= 0 && (L.phase === "play" || L.phase === "dragon_gift");
  S.chain = false;
  if (!forced) { S.auto = false; setBusy(S.busy); return; }
  S.auto = true;
  setBusy(S.busy);
  send([acts[0]], interpolate(gettext("%(event)s (the only legal event)"), { event: W.describe(acts[0]) }), "auto").then((ok) => {
    if (!ok) { S.auto = false; setBusy(S.busy); }
  });
}

export function exactPlay() { const e = exactPlays(); return e.length === 1 ? e[0] : null; }
