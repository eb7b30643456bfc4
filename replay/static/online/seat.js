/* A seat's page at an online table (docs/online.md): the seat's own hand, the table (plays,
 * calls, card counts, the trick, whose turn), and only the actions the engine offers this seat
 * now (the server's view: games/online/selectors.py). Tap cards to select them, then an action.
 * Each action is sent with the seq the page showed and an Idempotency-Key: a stale page is told
 * so (409) and shown the table as it is; a retried request is stored once. The page follows the
 * table by long-polling its view (games/live.py); a reload starts from the server's view again.
 * A watcher (config.watching) gets the same page without a hand or an action, and is taken to the
 * replay when the game ends.
 */
import { esc, makeWords, readWords } from "../shared/cards.js";
import { gettext, interpolate, ngettext } from "../shared/i18n.js";
import { tzqPart } from "./tzq.js";

const config = JSON.parse(document.getElementById("online-config").textContent);
// a seat is named by who plays it now (view.names: a member may take a seat over), the dummy by its name
const W = makeWords(readWords(), (seat) => view.names?.[seat] ?? config.seat_names[seat] ?? config.players[seat] ?? String(seat));
const $ = (id) => document.getElementById(id);
let view = config.view;
let selected = new Set();
let gifts = {}; // the exchange being chosen: target seat -> its cards (one in Tichu, several in Grand Seigneur's tribute)
let sending = false;
let forcedAt = null; // the position whose forced tribute was offered (Grand Seigneur)
// A game whose board is "rounds" (the engine's declared GameInfo.board: Tien Zi Que's draw, claim
// and discard) draws its own table, hand and actions (tzq.js); the rest of the page is shared.
const part = config.board === "rounds" ? tzqPart({ W, button: (...a) => button(...a), act: (a) => act(a) }) : null;
let clockRead = performance.now(); // when the view's clock ("left" seconds) was read

const sameCards = (a, b) => a.length === b.length && [...a].sort().join() === [...b].sort().join();
const mine = () => (view.state.hands || [])[view.hand_seat] || [];

function csrf() {
  const m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return m ? decodeURIComponent(m[1]) : "";
}

function say(text) {
  const el = $("refusal");
  el.textContent = text || "";
  el.hidden = !text;
}

function status() {
  const s = view.state;
  if (!view.ready) return gettext("Waiting for every player to open their seat link.");
  if (view.status !== "active") return gettext("The game is over.");
  if (config.watching && s.phase === "exchange") return gettext("The exchange.");
  if ((view.bots || []).includes(view.seat)) return gettext("The bot plays this seat now.");
  if (view.grand_tichu_wait.length) {
    const names = view.grand_tichu_wait.map((t) => W.name(t)).join(", ");
    return interpolate(gettext("Grand Tichu? Waiting for %(names)s."), { names });
  }
  if (Object.keys(view.push_forced || {}).length) return gettext("The tribute: the rules name the cards you give. Send them.");
  if (Object.values(view.push_due).some((k) => k > 1)) return gettext("The exchange: choose the cards you give back.");
  if (Object.keys(view.push_due).length) return gettext("The exchange: choose a card for each player.");
  if (s.phase === "exchange") return gettext("Waiting for the others' exchange.");
  if (part) return part.status(view);
  if (s.gift_from !== null && s.gift_from !== undefined) return interpolate(gettext("%(name)s gives the Dragon's trick away."), { name: W.name(s.gift_from) });
  if (s.turn === view.seat) return gettext("Your turn.");
  if (s.turn !== null && s.turn !== undefined) return interpolate(gettext("Waiting for %(name)s."), { name: W.name(s.turn) });
  return "";
}

const secondsLeft = () => Math.max(0, Math.ceil(view.clock.left - (performance.now() - clockRead) / 1000));
const minutesSeconds = (left) => `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;

/* The turn clock (games/online/turn_clock.py): whom the table waits for, the time left, and what
 * happens when it runs out, said before it does. The server plays it: the page only counts. */
function renderClock() {
  const el = $("clock");
  const c = view.clock;
  if (!c || view.status !== "active" || !c.seats.length) { el.hidden = true; return; }
  const left = secondsLeft();
  const time = minutesSeconds(left);
  let text;
  if (c.seats.includes(view.seat)) {
    text = view.grand_tichu_wait.includes(view.seat)
      ? interpolate(gettext("%(time)s left to decide: when it runs out, it is no Grand Tichu."), { time })
      : interpolate(gettext("%(time)s left: when it runs out, the bot plays this one action for you."), { time });
  } else {
    const names = c.seats.map((t) => W.name(t)).join(", ");
    text = interpolate(gettext("Waiting for %(names)s: %(time)s left, then the bot plays that one action for them."), { names, time });
  }
  el.textContent = text;
  el.hidden = false;
  el.classList.toggle("urgent", left <= 10);
}

function setView(fresh) {
  view = fresh;
  clockRead = performance.now();
}

// The replay's link once the game is over and open to this reader; a duplicate board's game stays
// held until its round closes (the server decides: view.replay_open).
function showReplay() {
  $("replay-link").hidden = !view.replay_open;
  $("replay-held").hidden = view.status === "active" || view.replay_open;
}

function renderTable() {
  const s = view.state;
  if (part) {
    $("table").innerHTML = part.table(view);
    $("status").textContent = status();
    $("table").dataset.seq = String(view.seq);
    showReplay();
    return;
  }
  const calls = s.calls || {};
  const seats = (s.counts || []).map((n, seat) => {
    const call = calls[seat] || calls[String(seat)];
    const turn = s.turn === seat ? " turn" : "";
    const me = seat === view.seat ? " me" : "";
    return `<li class="chip${turn}${me}" data-seat="${seat}"><span class="who">${esc(W.name(seat))}</span> ` +
      `<span class="count">${esc(interpolate(ngettext("%(count)s card", "%(count)s cards", n), { count: n }))}</span>` +
      (call ? ` <span class="badge call">${esc(W.callName(call))}</span>` : "") +
      ((view.bots || []).includes(seat) ? ` <span class="badge bot">${esc(gettext("bot"))}</span>` : "") + "</li>";
  }).join("");
  const trick = (s.trick || []).slice(-4).map((p) =>
    `<li data-seat="${p.seat}"><span class="who">${esc(W.name(p.seat))}</span> ${W.cardsHtml(p.cards)}</li>`).join("");
  const wish = s.wish ? `<p class="wish">${esc(interpolate(gettext("Wish: %(rank)s"), { rank: W.rankName(s.wish) }))}</p>` : "";
  const totals = (s.totals || []).join(" : ");
  $("table").innerHTML = `<ul class="seats">${seats}</ul>` +
    `<ol class="trick" aria-label="${esc(gettext("The trick"))}">${trick}</ol>${wish}` +
    (totals ? `<p class="totals">${esc(interpolate(gettext("Score: %(totals)s"), { totals }))}</p>` : "");
  $("status").textContent = status();
  renderClock();
  $("table").dataset.seq = String(view.seq); // the position shown (tests wait for it)
  showReplay();
}

function renderHand() {
  if (part) { $("hand").innerHTML = part.handHtml(view); return; }
  const hand = mine();
  const given = new Set(Object.values(gifts).flat());
  selected = new Set([...selected].filter((c) => hand.includes(c) && !given.has(c)));
  $("hand").innerHTML = hand.map((c) => {
    const cls = selected.has(c) ? " selected" : given.has(c) ? " given" : "";
    return `<button type="button" class="hand-card${cls}" data-card="${esc(c)}" aria-pressed="${selected.has(c)}"` +
      `${given.has(c) ? " disabled" : ""}>${W.cardHtml(c)}</button>`;
  }).join("");
}

function label(action, matches) {
  switch (action.type) {
    case "pass": return gettext("Pass");
    case "no_grand_tichu": return gettext("No Grand Tichu");
    case "grand_tichu": case "tichu": return W.callName(action.type);
    case "dragon_gift": return interpolate(gettext("Give the trick to %(name)s"), { name: W.name(action.to) });
    default: return matches > 1 ? W.describe(action) : gettext("Play");
  }
}

function button(text, onClick, cls = "") {
  const b = document.createElement("button");
  b.type = "button";
  b.className = `button${cls ? " " + cls : ""}`;
  b.textContent = text;
  b.addEventListener("click", onClick);
  return b;
}

function renderActions() {
  const box = $("actions");
  box.replaceChildren();
  box.dataset.busy = sending ? "1" : "0"; // an action on its way (tests wait for its answer)
  if (sending) return;
  if (part) { part.actions(view, box); return; }
  const due = view.push_due || {};
  if (Object.keys(due).length) {
    for (const [target, count] of Object.entries(due)) {
      const who = W.name(Number(target));
      const cards = (gifts[target] || []).map((c) => W.cardName(c)).join(", ");
      const text = gifts[target] ? interpolate(gettext("To %(name)s: %(cards)s"), { name: who, cards })
        : count > 1 ? interpolate(ngettext("Give %(count)s card to %(name)s", "Give %(count)s cards to %(name)s", count), { count, name: who })
        : interpolate(gettext("Give to %(name)s"), { name: who });
      const b = button(text, () => { gifts[target] = [...selected]; selected.clear(); render(); });
      b.disabled = Boolean(gifts[target]) || selected.size !== count;
      box.append(b);
    }
    if (Object.keys(gifts).length) box.append(button(gettext("Clear"), () => { gifts = {}; render(); }));
    if (Object.keys(due).every((t) => gifts[t])) {
      // one card to a seat is written as the card, several as their list (the record's push)
      const cards = Object.fromEntries(Object.entries(gifts).map(([t, cs]) => [t, due[t] === 1 ? cs[0] : cs]));
      box.append(button(gettext("Send the exchange"), () => act({ type: "push", seat: view.push_seat, cards }), "primary"));
    }
    return;
  }
  const plays = view.actions.filter((a) => a.type === "play");
  const matching = plays.filter((a) => sameCards(a.cards, [...selected]));
  for (const a of matching) box.append(button(label(a, matching.length), () => act(a), "primary"));
  for (const a of view.actions.filter((x) => x.type !== "play")) {
    box.append(button(label(a, 1), () => act(a), a.type === "pass" ? "" : "secondary"));
  }
}

// A tribute the rules decide (Grand Seigneur's best cards) is offered as it is, ready to send;
// once per position: after "Clear" the seat may pick other cards of the same ranks.
function offerForced() {
  if (forcedAt === view.seq || !Object.keys(view.push_forced || {}).length) return;
  gifts = structuredClone(view.push_forced);
  forcedAt = view.seq;
}

function render() {
  offerForced();
  renderTable();
  renderHand();
  renderActions();
}

async function act(action) {
  sending = true;
  say("");
  renderActions();
  try {
    const response = await fetch(config.act_url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf(), "Idempotency-Key": crypto.randomUUID() },
      body: JSON.stringify({ action, expected_seq: view.seq }),
    });
    const body = await response.json();
    if (!response.ok) say(body.detail || gettext("The action was refused."));
    if (body.view) { setView(body.view); gifts = {}; selected.clear(); if (part) part.reset(); }
  } catch (err) {
    say(gettext("The connection was lost: the table is shown again as soon as it is back."));
  } finally {
    sending = false;
    render();
  }
}

$("hand").addEventListener("click", (e) => {
  const b = e.target.closest("button.hand-card");
  if (!b || b.disabled) return;
  if (part) { part.pick(b); renderHand(); renderActions(); return; }
  const c = b.dataset.card;
  if (selected.has(c)) selected.delete(c); else selected.add(c);
  renderHand();
  renderActions();
});

async function follow() {
  let pause = 500;
  for (;;) {
    try {
      const response = await fetch(`${config.view_url}?after=${view.seq}&wait=25`, { credentials: "same-origin" });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const fresh = await response.json();
      pause = 500;
      if (!sending && (fresh.seq !== view.seq || JSON.stringify(fresh) !== JSON.stringify(view))) {
        if (fresh.seq !== view.seq) { gifts = {}; if (part) part.reset(); }
        setView(fresh);
        render();
      }
      if (view.status !== "active") {
        if (config.watching && view.replay_open) window.location.assign(config.replay_url); // the replay opens at the end
        return;
      }
    } catch (err) {
      $("status").textContent = gettext("Reconnecting…");
      await new Promise((resolve) => setTimeout(resolve, pause));
      pause = Math.min(pause * 2, 8000);
    }
  }
}

render();
setInterval(renderClock, 1000);
follow();
