/* The table (templates/replay/replay.html #table, an empty mount: this is the one drawing of the
 * board): one piece per seat, then the centre (the trick, the hand just finished, the wish; Tien Zi
 * Que's table), so that a step rewrites only what changed. */
import { esc } from "../shared/cards.js";
import { gettext, interpolate, ngettext, pgettext } from "../shared/i18n.js";
import { D, cardsHtml, name } from "./state.js";
import { tzqHtml } from "./tzq.js";

/** Seats around the table in the order of play, `bottom` nearest (present.py seat geometry). */
function positions(order, bottom) {
  const n = order.length, out = {};
  let start = order.indexOf(bottom); if (start < 0) start = 0;
  const sign = (D.P.options.direction === "clockwise") ? -1 : 1;
  for (let k = 0; k < n; k++) {
    const seat = order[(start + k) % n];
    const angle = Math.PI / 2 - sign * 2 * Math.PI * k / n;
    out[seat] = { left: Math.round((50 + 38 * Math.cos(angle)) * 100) / 100,
                  top: Math.round((50 + 38 * Math.sin(angle)) * 100) / 100 };
  }
  return out;
}

function seatHtml(f, s, view, p, teamOf) {
  const L = D.L, hand = (f.hands || [])[s] || [], won = (f.tricks_won || [])[s], received = (f.received || [])[s];
  const shown = view === "all" || view === s;  // cards the reader may not see come masked ("?") anyway
  const cards = shown ? hand : hand.map(() => "?");
  const call = (f.calls || {})[String(s)];
  const outRank = (f.out || []).indexOf(s) + 1;
  const isTurn = f.turn === s;
  const ev = f.e || {};
  const last = (ev.type === "draw" && ev.seat === s && shown) ? ev.card : null;
  let html = '<div class="seat' + (p.left < 25 || p.left > 75 ? " side" : "") + (isTurn ? " turn" : "") + (outRank ? " is-out" : "") +
    (teamOf[s] !== undefined ? " team-" + teamOf[s] : "") + '" data-seat="' + s + '" style="left:' + p.left +
    "%;top:" + p.top + '%"><div class="seat-head"><span class="seat-name">' + esc(D.players[s]) + "</span>";
  if (call) html += ' <span class="badge call call-' + call + '" data-call="' + call + '" title="' +
    esc(L.calls[call] || call) + '">' + esc(call === "grand_tichu" ? pgettext("badge: called Grand Tichu", "GT") : call === "tichu" ? pgettext("badge: called Tichu", "T") : call) + "</span>";
  if (outRank) html += ' <span class="badge out" data-out="' + outRank + '" title="' + esc(interpolate(gettext("out %(rank)s"), { rank: outRank })) + '">' +
    esc(interpolate(gettext("out #%(rank)s"), { rank: outRank })) + "</span>";
  if (f.shuffler === s) html += ' <span class="badge shuffler" title="' + esc(gettext("shuffled this hand")) + '">' + esc(pgettext("badge of the seat that shuffled", "S")) + "</span>";
  if (isTurn) html += ' <span class="badge to-act">' + esc(gettext("to play")) + "</span>";
  if (f.gift_from === s) html += ' <span class="badge gift">' + esc(gettext("gives the Dragon trick")) + "</span>";
  html += '</div><div class="hand" data-count="' + hand.length + '" aria-label="' +
    esc(interpolate(ngettext("%(name)s's hand: %(count)s card", "%(name)s's hand: %(count)s cards", hand.length), { name: D.players[s], count: hand.length })) +
    '">' + cardsHtml(cards, last) + '</div><div class="seat-foot">';
  if (won) html += '<span class="won" data-cards="' + won.cards + '" data-points="' + won.points + '">' +
    esc(interpolate(ngettext("tricks: %(count)s card, %(points)s pts", "tricks: %(count)s cards, %(points)s pts", won.cards), { count: won.cards, points: won.points })) + "</span>";
  if (f.phase === "deal" && received !== undefined) html += ' · <span class="received">' + esc(interpolate(gettext("%(count)s taken"), { count: received })) + "</span>";
  return html + "</div></div>";
}

function centreHtml(f) {
  const L = D.L, log = f.trick_log || [];
  let html = '<div class="center">' + (D.P.variant === "tien-zi-que" ? tzqHtml(f) : "") +
    '<div id="trick" aria-label="' + esc(gettext("Current trick")) + '"' + (f.trick_closed ? ' class="closed"' : "") + ">";
  if (log.length) html += '<div class="trick-head">' + esc(f.trick_closed && typeof f.trick_winner === "number"
    ? interpolate(gettext("Trick %(number)s · won by %(name)s"), { number: f.trick_no, name: name(f.trick_winner) })
    : interpolate(gettext("Trick %(number)s"), { number: f.trick_no })) + "</div>";
  log.forEach((entry) => {
    html += '<div class="play' + (entry.combination === "bomb" ? " bomb" : "") + '" data-seat="' + entry.seat + '" data-kind="' +
      (entry.pass ? "pass" : "play") + '"><span class="who">' + esc(name(entry.seat)) + "</span> ";
    if (entry.pass) html += '<span class="pass">' + esc(D.words.term("event:pass", "pass")) + "</span>";
    else html += cardsHtml(entry.cards || []) + ' <span class="combo">' + esc(L.combinations[entry.combination] || entry.combination || "") + "</span>";
    html += "</div>";
  });
  html += "</div>";
  const sheet = f.score_sheet || [];
  if (sheet.length && f.shuffler === undefined) {  // between hands: the hand just finished
    const line = sheet[sheet.length - 1];
    html += '<div id="hand-summary" class="summary" data-hand="' + sheet.length + '"><b>' + esc(interpolate(gettext("Hand %(number)s"), { number: sheet.length })) + "</b>: " +
      esc(interpolate(line.double_victory ? gettext("out %(order)s (double victory)") : gettext("out %(order)s"), { order: (line.out || []).map(name).join(" › ") }));
    Object.keys(line.calls || {}).map(Number).sort((a, b) => a - b).forEach((s) => {
      html += "; " + esc(name(s)) + ": " + esc(L.calls[line.calls[String(s)]] || line.calls[String(s)]);
    });
    html += "; " + esc(interpolate(gettext("points %(points)s"), { points: (line.points || []).join(" / ") })) + "</div>";
  }
  return html + '<div id="wish" class="wish"' + (f.wish ? "" : " hidden") + ">" + esc(gettext("Wish:")) + ' <b data-wish="' + esc(f.wish || "") + '">' +
    esc(f.wish ? (L.ranks[f.wish] || f.wish) : "") + "</b></div></div>";
}

/** The table's pieces for frame f seen from `view`, turned so that `bottom` is nearest. */
export function tablePieces(f, view, bottom) {
  const order = f.order || D.players.map((_, i) => i);
  const pos = positions(order, bottom);
  const teamOf = {};
  (f.teams || []).forEach((t, i) => { t.forEach((s) => { teamOf[s] = i; }); });
  const pieces = [];
  for (let s = 0; s < D.nSeats; s++) pieces.push(seatHtml(f, s, view, pos[s] || { left: 50, top: 50 }, teamOf));
  pieces.push(centreHtml(f));
  return pieces;
}
