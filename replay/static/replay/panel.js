/* The panel beside the table (#panel: the event, where we are, score, calls, order out, bombs,
 * Dragon gifts, exchange) and the score sheet so far: drawn here only, as the table is (the page
 * holds empty mounts; the game page's own sheet, templates/replay/_sheet.html, is another view). */
import { esc } from "../shared/cards.js";
import { gettext, interpolate, pgettext } from "../shared/i18n.js";
import { D, cardsHtml, name } from "./state.js";

const bySeat = (obj) => Object.keys(obj || {}).map(Number).sort((a, b) => a - b);
const listOr = (items, sep) => (items.length ? items.join(sep === undefined ? ", " : sep) : "–");

// The score columns as the engine keeps them: per team, or per player where every player has a
// total of their own (Threechu, Grand Seigneur). Mirrors replay/present.py column_labels.
function columnLabels(f) {
  const totals = f.totals || [];
  if (totals.length && totals.length !== (f.teams || []).length) return totals.map((_, i) => name(i));
  return (f.teams || []).map((t) => t.map(name).join(" & "));
}

/** The panel's frame, drawn once: its places (#event-text ... #exchange) are filled on every step. */
export function panelFrame() {
  const row = (label, id) => "<dt>" + esc(label) + '</dt><dd id="' + id + '"></dd>';
  const pos = interpolate(esc(gettext("move %(at)s of %(length)s")), { at: '<span id="pos-at"></span>', length: '<span id="pos-len"></span>' });
  return '<p id="event-text" class="event" aria-live="polite"></p>' +
    '<dl class="status"><dt>' + esc(gettext("Event")) + '</dt><dd id="pos">' + pos + "</dd>" +
    row(gettext("Hand"), "hand-no") + row(gettext("Trick"), "trick-no") + row(gettext("Phase"), "phase") + row(gettext("To play"), "turn") + "</dl>" +
    "<h2>" + esc(gettext("Score")) + '</h2><ul id="totals" class="totals"></ul>' +
    "<h2>" + esc(gettext("This hand")) + '</h2><dl class="hand-info">' + row(gettext("Calls"), "calls") +
    row(pgettext("order in which players went out", "Out"), "out-order") + row(gettext("Bombs"), "bombs") +
    row(gettext("Dragon"), "gifts") + row(gettext("Exchange"), "exchange") + "</dl>";
}

/** The panel's pieces for frame f; the exchange limited to what `view` may see of it. */
export function panelParts(f, view) {
  const L = D.L, teams = columnLabels(f), totals = f.totals || [];
  const calls = bySeat(f.calls).map((s) => {
    const c = f.calls[String(s)];
    return '<span class="call" data-seat="' + s + '">' + esc(name(s)) + ": " + esc(L.calls[c] || c) + "</span>";
  });
  const out = (f.out || []).map((s, i) => '<span data-seat="' + s + '">' + (i + 1) + ". " + esc(name(s)) + "</span>");
  const bombs = (f.bombs || []).map((b) => '<span class="bomb">' + esc(name(b.seat)) + ": " + cardsHtml(b.cards) + "</span>");
  const gifts = (f.gifts || []).map((g) => '<span class="gift">' +
    esc(interpolate(gettext("%(giver)s gave the Dragon trick to %(receiver)s"), { giver: name(g.from), receiver: name(g.to) })) + "</span>");
  if (typeof f.gift_from === "number") gifts.unshift('<span class="pending">' + esc(interpolate(gettext("%(name)s must give the trick away"), { name: name(f.gift_from) })) + "</span>");
  const pushes = [];
  bySeat(f.pushes).forEach((s) => {
    const to = f.pushes[String(s)];
    let row = "";
    bySeat(to).forEach((t) => {
      if (view !== "all" && view !== s && view !== t) return;
      row += ' <span class="push" data-from="' + s + '" data-to="' + t + '">' + esc(name(t)) + " " + cardsHtml(to[String(t)]) + "</span>";
    });
    if (row) pushes.push('<span class="push-from" data-from="' + s + '">' + esc(name(s)) + " →" + row + "</span>");
  });
  const totalsHtml = teams.map((label, i) => '<li class="team-' + i + '" data-team="' + i + '"><span class="label">' + esc(label) +
    '</span> <b class="total">' + esc(totals[i] === undefined ? "" : totals[i]) + "</b></li>").join("");
  const winner = (typeof f.winner === "number" && f.winner < teams.length) ? teams[f.winner] : null;
  return {
    calls: listOr(calls), out: listOr(out), bombs: listOr(bombs, ""),
    gifts: gifts.length ? gifts.join("") : "–", exchange: listOr(pushes, ""), totals: totalsHtml,
    // plain text (set with textContent, never as HTML): escaping it here showed "Anna &amp; Clara"
    over: f.complete ? (winner ? interpolate(gettext("Game over: %(winner)s win."), { winner }) : gettext("Game over.")) : "",
  };
}

/** The score sheet so far, hand by hand, with links into the replay at each hand's start and end. */
export function sheetHtml(f) {
  const L = D.L, teams = columnLabels(f), sheet = f.score_sheet || [], path = location.pathname;
  let head = '<table class="sheet" id="replay-sheet"><caption>' + esc(gettext("Hand by hand")) + "</caption><thead><tr>" +
    '<th scope="col" rowspan="2">' + esc(gettext("Hand")) + '</th><th scope="col" rowspan="2">' + esc(gettext("Calls")) + '</th><th scope="col" rowspan="2">' + esc(gettext("Order out")) + "</th>" +
    '<th scope="colgroup" colspan="' + teams.length + '">' + esc(gettext("Card points")) + '</th><th scope="colgroup" colspan="' + teams.length +
    '">' + esc(gettext("Points")) + '</th><th scope="colgroup" colspan="' + teams.length + '">' + esc(gettext("Running total")) + "</th></tr><tr>";
  for (let r = 0; r < 3; r++) teams.forEach((t, i) => { head += '<th scope="col" class="team-' + i + '">' + esc(t) + "</th>"; });
  let body = "";
  sheet.forEach((line, k) => {
    const number = k + 1;
    const calls = bySeat(line.calls).map((s) => {
      const c = line.calls[String(s)];
      return '<span class="call call-' + c + '" data-seat="' + s + '" data-call="' + c + '">' + esc(name(s)) + ": " + esc(L.calls[c] || c) + "</span>";
    });
    const out = (line.out || []).map((s) => '<span data-seat="' + s + '">' + esc(name(s)) + "</span>");
    const link = line.at !== undefined && line.at !== null;
    body += '<tr class="hand-line" data-hand="' + number + '"><th scope="row">' +
      (link ? '<a href="' + path + "?at=" + line.from + '" title="' + esc(interpolate(gettext("Replay hand %(hand)s from its start"), { hand: number })) + '">' + number + "</a>" : number) +
      '</th><td class="calls">' + (calls.length ? calls.join(", ") : "–") + '</td><td class="out">' + out.join(" › ") +
      (line.double_victory ? ' <strong class="dv">' + esc(gettext("double victory")) + "</strong>" : "") +
      (line.kind === "result" ? ' <span class="kind">' + esc(gettext("(score sheet)")) + "</span>" : "") +
      (line.corrected ? ' <span class="kind corrected" data-corrected="1">' + esc(interpolate(gettext("(corrected by the tournament director: %(reason)s; was %(was_ns)s:%(was_ew)s)"), {
        reason: line.corrected.reason || "", was_ns: (line.corrected.was || [])[0], was_ew: (line.corrected.was || [])[1] })) + "</span>" : "") +
      (line.penalty ? ' <span class="kind penalty" data-seat="' + line.penalty.seat + '">' + esc(interpolate(gettext("(penalty: %(reason)s by %(name)s)"), {
        reason: D.words.term("reason:" + line.penalty.reason, String(line.penalty.reason || "").replace(/_/g, " ")), name: name(line.penalty.seat) })) + "</span>" : "") + "</td>";
    const cp = line.card_points || [];
    if (cp.length) cp.forEach((p) => { body += '<td class="num card-points">' + esc(p) + "</td>"; });
    else teams.forEach(() => { body += "<td></td>"; });
    (line.points || []).forEach((p) => { body += '<td class="num points">' + esc(p) + "</td>"; });
    (line.totals || []).forEach((p) => {
      body += '<td class="num total">' + (link ? '<a href="' + path + "?at=" + line.at + '" title="' + esc(interpolate(gettext("Replay the end of hand %(hand)s"), { hand: number })) + '">' + esc(p) + "</a>" : esc(p)) + "</td>";
    });
    body += "</tr>";
  });
  if (!sheet.length) body = '<tr><td colspan="' + (3 + teams.length) + '">' + esc(gettext("No hand finished yet.")) + "</td></tr>";
  return head + "</tr></thead><tbody>" + body + "</tbody></table>";
}
