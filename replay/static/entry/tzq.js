/* Tien Zi Que, action by action (templates/entry/tien_zi_que.html, docs/entry.md).

   No rule of the game lives here. The page asks GET /api/games/{id}/legal/ what the engine accepts
   now and offers exactly that, as taps: Draw; after a draw, a card of the hand to discard or one of
   the Pungs the engine lists (with the card to keep on the score pile); instead of a draw, one of
   the Chows it lists; the reshuffle when the engine asks for one; a new round's deal. The shuffles
   (the deal, a reshuffle) are the page's: it orders the cards the engine names with the browser's
   random numbers and records the order in the event, as the engine requires.

   Every write is POSTed to /api/games/{id}/events/ with the page's `expected_seq`, the CSRF token
   and an Idempotency-Key, through the site's one API client (static/shared/writes.js), as the
   Tichu family's entry writes. A 409 (another scorer entered first) stores nothing: the controls are
   disabled and the message stands next to them until the scorer presses "Enter again" on the new
   state. A refusal (422) shows the engine's code in words next to the controls. The end of a
   round is announced with its score line. New events stored elsewhere arrive by long poll
   (static/shared/live.js). */
import { followGame } from "../shared/live.js";
import { esc, makeWords, readWords } from "../shared/cards.js";
import { gettext, interpolate, ngettext, pgettext } from "../shared/i18n.js";
import { getJson, postEvents } from "../shared/writes.js";

const root = document.getElementById("tzq-entry");
const C = JSON.parse(document.getElementById("tzq-config").textContent);
const $ = (id) => document.getElementById(id);
const S = { seq: C.seq, legal: null, busy: false, stale: null, picked: null, starter: null };
// A score line refused by a 409 (the server drew its page stale): no write from this page, Undo
// included, until the scorer presses the form's "Enter again".
if (root.dataset.stale === "1") S.stale = { seq: Number($("bar-stale-seq").textContent), what: gettext("the round as typed") };

// --- words and cards: the engine's, as every page script shows them (static/shared/cards.js) ---

const WORDS = readWords();
const name = (seat) => (typeof seat === "number" && C.players[seat] !== undefined ? C.players[seat]
  : ((WORDS.terms || {}).seat || "seat {number:seat}").replace("{number:seat}", String(seat)));
const W = makeWords(WORDS, name, C.cards);
// The game's own words: Chow, Pung (the engine's event names), written with a capital as the
// books write them where the language's term is the bare name ("chow" in English and French).
const term = (kind) => {
  const said = W.term("event:" + kind, kind);
  return said === kind ? kind.charAt(0).toUpperCase() + kind.slice(1) : said;
};
const { cardName, cardHtml } = W;
const cardsHtml = (codes, keep) => (codes || []).map((c) => cardHtml(c, c === keep ? "last" : "")).join("");
// The engine's refusal: its code as the engine's heading (engine.refusal_heading, the term
// code:<code>), then the engine's reason (from its code and params, else its message with seats
// named by their players). The code itself goes to data-code.
function refusalWords(err) {
  const code = (err && err.code) || "invalid";
  const heading = (WORDS.terms || {})[`code:${code}`] || code.replace(/_/g, " ");
  return interpolate(gettext("%(code)s: %(reason)s"), { code: heading, reason: W.refusal(err) });
}
function say(text, kind) {
  $("status").textContent = text;
  $("status").className = "status" + (kind ? " " + kind : "");
}
// An event in the engine's words (engine.event_words, as the replay says it): a new round with
// its number, the round the engine's state says comes next.
function describe(e) {
  const context = e.type === "round_start" ? { round: (S.legal.state.round || 0) + 1 } : undefined;
  return W.describe(e, context);
}
// "Round 2 is over: Bob +9 (Mah-jong by a Chow); totals Ann 10, Bob 9." (the engine's score line)
function roundOver(state) {
  const sheet = state.score_sheet || [];
  const line = sheet[sheet.length - 1];
  const totals = (state.totals || []).map((t, i) => `${name(i)} ${t}`).join(", ");
  let text = line.drawn ? interpolate(gettext("Round %(round)s is over: drawn, no points; totals %(totals)s."), { round: line.round, totals })
    : interpolate(gettext("Round %(round)s is over: %(name)s +%(points)s (Mah-jong by a %(by)s); totals %(totals)s."),
      { round: line.round, name: name(line.winner), points: line.points[line.winner], by: term(line.by), totals });
  if (state.complete) text += " " + (typeof state.winner === "number" ? interpolate(gettext("Game over: %(name)s wins."), { name: name(state.winner) }) : gettext("Game over: a tie."));
  return text;
}

// The page's shuffle (the engine has no randomness of its own): Fisher-Yates with crypto numbers.
function shuffled(cards) {
  const out = cards.slice();
  const rnd = new Uint32Array(out.length);
  crypto.getRandomValues(rnd);
  for (let i = out.length - 1; i > 0; i--) {
    const j = rnd[i] % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

// --- the API -------------------------------------------------------------------------------------

async function refresh(note, kind) {
  const r = await getJson(C.legal_url);
  if (r.redirected || r.status === 401 || r.status === 403) { say(interpolate(gettext("Your session has ended: log in again (%(url)s)."), { url: C.login_url }), "bad"); return; }
  const body = r.body;
  const before = S.legal ? (S.legal.state.score_sheet || []).length : null;
  S.legal = body;
  if (body.seq !== S.seq) S.picked = null;
  S.seq = body.seq;
  const sheet = body.state.score_sheet || [];
  if (before !== null && sheet.length > before) note = `${note ? note + " " : ""}${roundOver(body.state)}`;
  render();
  if (note) say(note, kind);
  root.dataset.seq = String(S.seq);
  root.dataset.ready = "1";
}

async function send(events, what) {
  if (S.busy) return false;
  if (S.stale) { say(gettext("Not sent: the game changed meanwhile. Check the new state, then press “Enter again”."), "bad"); return false; }
  S.busy = true;
  root.dataset.busy = "1";
  setDisabled(true);
  $("action-error").textContent = "";
  say(interpolate(gettext("Saving: %(what)s…"), { what }));
  const res = await postEvents(C.events_url, { expectedSeq: S.seq, events, token: C.csrf });
  S.busy = false;
  root.dataset.busy = "0";
  if (res.status === 201) {
    await refresh(interpolate(gettext("Saved: %(what)s (#%(seq)s)."), { what, seq: res.body.seq }));
    return true;
  }
  if (res.status === 409) {
    markStale(res.body.current_seq, what);
    await refresh(interpolate(gettext("Not saved: %(what)s."), { what }), "bad");
    return false;
  }
  const err = res.body.error || res.body;
  say(interpolate(gettext("Not saved: %(what)s."), { what }), "bad");
  $("action-error").textContent = res.status === 0 ? gettext("The server cannot be reached: nothing was saved; try again.")
    : res.status === 422 || err.code ? refusalWords(err) : interpolate(gettext("Not saved (%(status)s)."), { status: res.status });
  $("action-error").setAttribute("data-code", (res.status === 422 || err.code) ? (err.code || "invalid") : "");
  setDisabled(false);
  render();
  return false;
}

// --- a refused write is never re-sent by accident -----------------------------------------------------

function markStale(seq, what) {
  S.stale = { seq, what };
  const box = $("actions-stale");
  box.hidden = false;
  box.querySelector(".stale-text").textContent = interpolate(gettext("Not saved: %(what)s. The game changed meanwhile (another scorer entered up to #%(seq)s); the latest state is shown. Check it, then press “Enter again” if the entry is still needed."), { what, seq });
  $("bar-stale").hidden = false;
  $("bar-stale-seq").textContent = String(seq);
  root.dataset.stale = "1";
}
function acknowledgeStale() {
  S.stale = null;
  $("actions-stale").hidden = true;
  $("bar-stale").hidden = true;
  root.dataset.stale = "0";
  say("");
  render();
  const first = document.querySelector("#tzq-controls button:not([disabled])");
  if (first) first.focus();
}
function setDisabled(on) {
  root.querySelectorAll("#tzq-controls button, #undo").forEach((b) => { b.disabled = on || b.dataset.off === "1"; });
}

// --- rendering -------------------------------------------------------------------------------------

function render() {
  const L = S.legal;
  if (!L) return;
  const st = L.state;
  $("seq").textContent = String(L.seq);
  $("phase-text").textContent = phaseText(L);
  const undo = $("undo");
  undo.dataset.off = L.can_undo && !S.stale ? "0" : "1";
  undo.disabled = undo.dataset.off === "1";
  syncLineForm(L);
  if ($("pile-picker") && $("pile-picker").hidden) renderPilePicker();
  renderSheet(st);
  $("tzq-table").innerHTML = tableHtml(st, L);
  $("tzq-controls").innerHTML = controlsHtml(L);
  if (S.stale) root.querySelectorAll("#tzq-controls button").forEach((b) => { b.disabled = true; });
}

// The score line's form (server-rendered) follows the game: shown between rounds only, with the
// round's number and the engine's starters. Its expected_seq moves on with the page only while
// nothing is typed in it: a line typed before another scorer's entry gets the 409 and its
// "Enter again" (replay/entry/tien_zi_que.py), never a silent save on a changed game.
function syncLineForm(L) {
  const form = $("round-form");
  if (!form) return;
  const open = L.phase === "between_rounds";
  form.hidden = !open;
  $("line-closed").hidden = open || L.phase === "game_over";
  if (!open || !L.round_sheet) return;
  const typed = form.querySelector('input[name="winner"]:checked') || form.points.value || form.score_pile.value;
  if (typed || form.classList.contains("stale")) return;
  form.expected_seq.value = String(L.seq);
  form.querySelectorAll(".line-round").forEach((el) => { el.textContent = String(L.round_sheet.round); });
  form.querySelectorAll('input[name="seat"]').forEach((r) => {
    r.disabled = !L.round_sheet.starters.includes(Number(r.value));
    r.checked = L.round_sheet.starters.length === 1 && L.round_sheet.starters[0] === Number(r.value);
  });
}

// The running score, round by round, is drawn by the server only (templates/entry/_tzq_sheet.html):
// when a round ends or is undone here, the page asks for it again (entry:panels) and swaps it in.
function renderSheet(st) {
  const sheet = st.score_sheet || [];
  const body = document.querySelector("#score-sheet tbody");
  if (!body || body.dataset.rounds === String(sheet.length) || S.sheetFor === S.seq) return;
  S.sheetFor = S.seq;
  getJson(C.panels_url).then((r) => {
    if (r.status === 200 && r.body.sheet) $("sheet-box").innerHTML = r.body.sheet;
  });
}

function phaseText(L) {
  const st = L.state;
  if (L.phase === "game_over") return W.term("phase:game_over", "game over");
  if (L.phase === "between_rounds") return interpolate(gettext("round %(round)s of %(rounds)s to enter"), { round: (st.score_sheet || []).length + 1, rounds: st.options.rounds });
  const who = { name: name(L.turn), chow: term("chow"), pung: term("pung") };
  const what = { action: gettext("%(name)s to draw or %(chow)s"), drawn: gettext("%(name)s to discard or %(pung)s"), reshuffle: gettext("%(name)s to reshuffle the discards") }[L.phase];
  return [interpolate(pgettext("Tien Zi Que", "round %(round)s"), { round: st.round }), what ? interpolate(what, who) : `${name(L.turn)} ${W.term("phase:" + L.phase, L.phase)}`,
    interpolate(gettext("%(count)s in stock"), { count: st.stock_size })].join(" · ");
}

function tableHtml(st, L) {
  if (L.phase === "between_rounds" || L.phase === "game_over") return "";
  const discard = st.discard || [];
  let html = `<div class="tzq-center"><span class="stock" id="stock-count">${esc(gettext("Stock:"))} <b>${st.stock_size}</b></span> ` +
    `<span class="discard" id="discard-pile">${esc(interpolate(gettext("Discards (%(count)s):"), { count: discard.length }))} ${cardsHtml(discard.slice(-6))}</span>`;
  if ((st.chowable || []).length) html += ` <span class="chowable">${esc(interpolate(gettext("open for a %(chow)s:"), { chow: term("chow") }))} ${cardsHtml(st.chowable)}</span>`;
  html += "</div>";
  [0, 1].forEach((s) => {
    const acting = L.turn === s;
    html += `<div class="seat-box${acting ? " turn" : ""}" data-seat="${s}"${acting ? ' aria-current="true"' : ""}>` +
      `<div class="seat-head"><span class="seat-name">${esc(name(s))}</span>${acting ? ` <span class="badge to-act">${esc(gettext("to act"))}</span>` : ""}` +
      ` <span class="count">${esc(interpolate(gettext("%(points)s pts · pile %(count)s/5"), { points: (st.totals || [])[s] ?? 0, count: (st.score_piles[s] || []).length }))}</span></div>`;
    if (acting && L.phase === "drawn") html += pickerHtml(st.hands[s], st.drawn);
    else html += `<div class="hand" aria-label="${esc(interpolate(gettext("%(name)s's hand"), { name: name(s) }))}">${cardsHtml(st.hands[s])}</div>`;
    if ((st.score_piles[s] || []).length) html += `<div class="pile">${esc(gettext("Score pile"))} ${cardsHtml(st.score_piles[s])}</div>`;
    html += "</div>";
  });
  return html;
}

// After a draw: the hand as buttons (tap one to discard it); the card just drawn is marked.
function pickerHtml(hand, drawn) {
  let markDrawn = true;
  return `<div class="hand picker" role="group" aria-label="${esc(gettext("Tap the card to discard"))}">` + hand.map((c, i) => {
    const isDrawn = markDrawn && c === drawn;
    if (isDrawn) markDrawn = false;
    return `<button type="button" class="pick${isDrawn ? " drawn" : ""}" data-pick="${i}" data-card="${esc(c)}" aria-pressed="${S.picked === i}"` +
      ` title="${esc(isDrawn ? interpolate(gettext("%(card)s (just drawn)"), { card: cardName(c) }) : cardName(c))}">${cardHtml(c)}</button>`;
  }).join("") + "</div>";
}

function button(id, label, data, extra = "") {
  return `<button type="button" class="btn${extra}" id="${id}" data-act="${esc(JSON.stringify(data))}">${label}</button>`;
}

// Combinations the engine lists, grouped by their cards: one row each, a button per card to keep.
function combosHtml(actions, title) {
  const groups = new Map();
  actions.forEach((a) => {
    const k = `${a.take || ""}|${a.cards.join(" ")}`;
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k).push(a);
  });
  let html = `<div class="combos" role="group" aria-label="${esc(title)}"><p class="combo-title">${esc(title)}</p>`;
  let n = 0;
  groups.forEach((list) => {
    const a = list[0];
    html += `<div class="combo-row" data-cards="${esc(a.cards.join(" "))}"><span class="combo-cards">${cardsHtml(a.cards)}</span>` +
      (a.take ? ` <span class="hint">${esc(interpolate(gettext("takes the %(card)s"), { card: cardName(a.take) }))}</span>` : "") + ` <span class="keep-label">${esc(gettext("keep:"))}</span> `;
    list.forEach((act) => {
      html += button(`${act.type}-${n++}`, cardHtml(act.keep), act, " keep") ;
    });
    html += "</div>";
  });
  return html + "</div>";
}

function controlsHtml(L) {
  const acts = L.actions || [];
  const of = (t) => acts.filter((a) => a.type === t);
  if (L.phase === "game_over") return `<p class="note" id="game-over">${esc(gettext("The game is over."))}</p>`;
  if (L.phase === "between_rounds") {
    const deals = of("round_start");
    if (!deals.length) {
      return `<p class="note" id="no-deck">${esc(gettext("The colours of this game's cards are not known yet (the option “Card colours” is unset and no round has been dealt here): enter rounds by their score line, or start a game with the edition's colours."))}</p>`;
    }
    const seats = deals.map((d) => d.seat);
    if (!seats.includes(S.starter)) S.starter = seats[0];
    let html = `<p class="prompt">${esc(interpolate(gettext("Round %(round)s: who plays first?"), { round: (L.state.score_sheet || []).length + 1 }))}</p>` +
      `<div class="chips" role="group" aria-label="${esc(gettext("First player"))}">`;
    seats.forEach((s) => { html += `<button type="button" class="btn chip-btn" id="starter-${s}" data-starter="${s}" aria-pressed="${S.starter === s}">${esc(name(s))}</button>`; });
    html += "</div>";
    html += `<p>${button("deal", esc(gettext("Deal round (shuffled here)")), { type: "deal" }, " primary")}</p>` +
      `<p class="hint">${esc(gettext("The page shuffles the deck, deals five cards to each player and records the order of the stock."))}</p>`;
    return html;
  }
  const seat = L.turn;
  const prompt = L.phase === "drawn" ? gettext("%(name)s has drawn: tap a card to discard it, or make a %(pung)s")
    : L.phase === "reshuffle" ? gettext("%(name)s must refill from a reshuffled stock") : gettext("%(name)s draws, or makes a %(chow)s");
  let html = `<p class="prompt">${interpolate(esc(prompt), { name: `<b>${esc(name(seat))}</b>`, pung: esc(term("pung")), chow: esc(term("chow")) })}</p>`;
  const draw = of("draw")[0], reshuffle = of("reshuffle")[0];
  if (draw) html += `<p>${button("draw", esc(gettext("Draw from the stock")), draw, " primary")}</p>`;
  if (reshuffle) html += `<p>${button("reshuffle", esc(interpolate(ngettext("Shuffle the %(count)s discard into the stock", "Shuffle the %(count)s discards into the stock", reshuffle.stock.length), { count: reshuffle.stock.length })), reshuffle, " primary")}</p>`;
  if (L.phase === "drawn") {
    const hand = L.state.hands[seat];
    const card = S.picked !== null ? hand[S.picked] : null;
    const discard = card ? of("discard").find((a) => a.card === card) : null;
    html += `<p>${discard ? button("discard", esc(interpolate(gettext("Discard the %(card)s"), { card: cardName(card) })), discard, " primary")
      : `<button type="button" class="btn" id="discard" disabled data-off="1">${esc(gettext("Discard: tap a card first"))}</button>`}</p>`;
    const pungs = of("pung");
    if (pungs.length) html += combosHtml(pungs, interpolate(gettext("%(pung)s (the fifth makes Mah-jong): tap the card to keep on the score pile"), { pung: term("pung") }));
  }
  const chows = of("chow");
  if (chows.length) html += combosHtml(chows, interpolate(gettext("%(chow)s: tap the card to keep on the score pile"), { chow: term("chow") }));
  return html;
}

// --- taps ------------------------------------------------------------------------------------------

root.addEventListener("click", (ev) => {
  const pick = ev.target.closest("[data-pick]");
  if (pick && !S.stale) {
    const i = Number(pick.dataset.pick);
    S.picked = S.picked === i ? null : i;
    render();
    const again = document.querySelector(`[data-pick="${i}"]`);
    if (again) again.focus();
    return;
  }
  const starter = ev.target.closest("[data-starter]");
  if (starter) { S.starter = Number(starter.dataset.starter); render(); return; }
  const btn = ev.target.closest("[data-act]");
  if (!btn || btn.disabled) return;
  let event = JSON.parse(btn.dataset.act);
  if (event.type === "deal") {
    const rep = S.legal.actions.find((a) => a.type === "round_start" && a.seat === S.starter);
    const deck = shuffled(rep.hands[0].concat(rep.hands[1], rep.stock));
    event = { type: "round_start", seat: S.starter, hands: [deck.slice(0, 5), deck.slice(5, 10)], stock: deck.slice(10) };
  } else if (event.type === "reshuffle") {
    event = { ...event, stock: shuffled(event.stock) };
  }
  send([event], describe(event));
});
$("stale-ack-actions").addEventListener("click", acknowledgeStale);

// The score pile by taps: every card of the game's deck (the edition's, once known; else every
// code of the game) as a button that adds it to the text field, which stays the form's value
// (the form works without this script); "remove the last" takes one back. The engine checks the
// five cards when the line is saved.
function renderPilePicker() {
  const box = $("pile-picker"), field = $("score-pile");
  if (!box || !field) return;
  const deck = (S.legal && S.legal.state.deck) || Object.keys(C.cards);
  const codes = [...new Set(deck)];
  box.innerHTML = `<p class="hint">${esc(gettext("Tap the five cards:"))}</p><div class="picker pile-cards">` +
    codes.map((c) => `<button type="button" class="pick" data-pile-card="${esc(c)}" title="${esc(cardName(c))}">${cardHtml(c)}</button>`).join("") +
    `</div><button type="button" class="btn" id="pile-back">${esc(gettext("Remove the last card"))}</button>`;
  box.hidden = false;
}
document.addEventListener("click", (ev) => {
  const add = ev.target.closest("[data-pile-card]");
  const field = $("score-pile");
  if (add && field) {
    const cards = field.value.split(/[\s,;]+/).filter(Boolean);
    if (cards.length < 5) field.value = cards.concat(add.dataset.pileCard).join(" ");
    return;
  }
  if (ev.target.closest("#pile-back") && field) field.value = field.value.split(/[\s,;]+/).filter(Boolean).slice(0, -1).join(" ");
});
$("undo").addEventListener("click", () => send([{ type: "undo" }], gettext("undo of the latest event")));

// The two modes as tabs once the script runs (without it both sections stay open, one after the other).
const tabs = [["tab-line", "score-line"], ["tab-actions", "actions"]];
function selectTab(id) {
  tabs.forEach(([tab, panel]) => {
    $(tab).setAttribute("aria-selected", String(tab === id));
    $(panel).hidden = tab !== id;
  });
}
tabs.forEach(([tab]) => $(tab).addEventListener("click", (ev) => { ev.preventDefault(); selectTab(tab); }));
selectTab(location.hash === "#actions" || $("tab-actions").getAttribute("aria-selected") === "true" ? "tab-actions" : "tab-line");

// Live: another scorer's entries arrive without a reload.
followGame({
  game: C.game, seq: C.seq,
  onChange: async (seq) => {
    if (seq === S.seq || S.busy) return;
    await refresh(interpolate(gettext("Another scorer entered up to #%(seq)s: the latest state is shown."), { seq }));
  },
});
refresh();
