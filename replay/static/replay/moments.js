/* The ways to a moment (replay/moments.py, which draws the same markup for a page without the
 * script): the hand picker, the current hand's trick picker and the marks on the slider (hand
 * starts, calls, bombs, the reader's own plays), read off the payload's marks and each frame's
 * event. Rebuilt when a game in play grows; the pickers follow the position. No rule of the game. */
import { $, D, S } from "./state.js";
import { query } from "./url.js";

const CALLS = { tichu: true, grand_tichu: true };
let M = null;  // { hands: [{number, at, tricks}], calls, bombs, mine }
const mySeats = {};

/** The moments of the loaded payload (moments.py `moments`). */
export function readMoments() {
  const marks = D.P.marks, handMarks = marks.hands || [0];
  const tricks = (marks.tricks || []).filter((t) => !D.undone[t]);
  const hands = [];
  handMarks.forEach((at, k) => {
    const number = D.frames[at] && D.frames[at].hand_number;
    if (!number) return;
    const end = k + 1 < handMarks.length ? handMarks[k + 1] : D.length + 1;
    hands.push({ number, at, tricks: tricks.filter((t) => t >= at && t < end) });
  });
  const calls = [], bombs = [], mine = [];
  for (let n = 1; n <= D.length && n < D.P.frames.length; n++) {
    if (D.undone[n]) continue;
    const delta = D.P.frames[n], e = D.frames[n].e || {};
    if (CALLS[e.type]) calls.push({ at: n, seat: e.seat });
    if (delta["bombs+"]) bombs.push(n);
    if (e.type === "play" && mySeats[e.seat]) mine.push(n);
  }
  M = { hands, calls, bombs, mine };
}

function handIndex(n) {
  let i = -1;
  M.hands.forEach((h, k) => { if (h.at <= n) i = k; });
  return i;
}

function chip(at, label, current) {
  return '<a class="chip' + (current ? " current" : "") + '" data-at="' + at + '" href="' + query(at) + '"' +
    (current ? ' aria-current="true"' : "") + ">" + label + "</a>";
}

let drawnHand = null, drawnAt = null;
/** The pickers at the reader's position: the hand's chip marked, the tricks of that hand. */
export function renderMoments() {
  const handsEl = $("hand-chips"), tricksEl = $("trick-chips");
  if (!handsEl || !M) return;
  const i = handIndex(S.at);
  if (drawnAt === S.at && drawnHand === i) return;
  drawnAt = S.at;
  drawnHand = i;
  handsEl.innerHTML = M.hands.map((h, k) => chip(h.at, h.number, k === i)).join("");
  const tricks = i >= 0 ? M.hands[i].tricks : [];
  let t = -1;
  tricks.forEach((at, k) => { if (at <= S.at) t = k; });
  tricksEl.innerHTML = tricks.map((at, k) => chip(at, k + 1, k === t)).join("");
  $("trick-pick").hidden = !tricks.length;
}

/** The marks under the slider (views.py `_slider_marks`). */
export function renderSliderMarks() {
  const box = $("slider-marks");
  if (!box || !M || !D.length) return;
  const pct = (n) => Math.round(10000 * n / D.length) / 100;
  const marks = M.hands.map((h) => ["hand", h.at]).concat(M.calls.map((c) => ["call", c.at]),
    M.bombs.map((n) => ["bomb", n]), M.mine.map((n) => ["mine", n]));
  box.innerHTML = marks.map(([kind, n]) => '<span class="mark mark-' + kind + '" style="left:' + pct(n) + '%"></span>').join("");
}

/** Reads the reader's seats, draws the pickers and marks, and takes their clicks. */
export function wireMoments(go) {
  const data = $("replay-moments");
  if (data) JSON.parse(data.textContent).my_seats.forEach((s) => { mySeats[s] = true; });
  readMoments();
  renderSliderMarks();
  const box = $("moments");
  if (!box) return;
  box.addEventListener("click", (e) => {
    const a = e.target.closest && e.target.closest("a[data-at]");
    if (!a || e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    go(parseInt(a.getAttribute("data-at"), 10), "push");
  });
}

/** A game in play grew: the moments are read again. */
export function refreshMoments() {
  readMoments();
  drawnAt = drawnHand = null;
  renderSliderMarks();
  renderMoments();
}
