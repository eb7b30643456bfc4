/* Drawing a frame: the table, the panel, the score sheet, the controls' links and the hand's event
 * list, each rewritten only when its markup changed (a step mostly changes one seat and the trick). */
import { esc } from "../shared/cards.js";
import { gettext, interpolate } from "../shared/i18n.js";
import { $, D, S, name, root } from "./state.js";
import { NAV, targets } from "./nav.js";
import { panelFrame, panelParts, sheetHtml } from "./panel.js";
import { tablePieces } from "./table.js";
import { query } from "./url.js";
import { renderMoments } from "./moments.js";
import { renderDeal } from "./deal.js";

const table = $("table"), slider = $("slider"), logEl = $("hand-log");

/** A count with the page's thousands separator (the server's `grouped` filter). */
const grouped = (n) => n.toLocaleString(document.documentElement.lang || undefined);

function setHtml(el, html) {
  if (el._html !== html) { el.innerHTML = html; el._html = html; }
}

let tableCache = null;
function renderTable(f) {
  const pieces = tablePieces(f, S.view, S.bottom);
  if (!tableCache || tableCache.length !== pieces.length || table.children.length !== pieces.length) {
    table.innerHTML = pieces.join("");
    tableCache = pieces;
    return;
  }
  for (let i = 0; i < pieces.length; i++) {
    if (tableCache[i] !== pieces[i]) {
      table.children[i].outerHTML = pieces[i];
      tableCache[i] = pieces[i];
    }
  }
}

// The panel's places are drawn on the first step, after the live note (live_update.js) if any
function mountPanel() {
  if ($("event-text")) return;
  const panel = $("panel"), live = $("live-note");
  panel.insertAdjacentHTML("afterbegin", panelFrame());
  if (live) $("event-text").after(live);
}

function renderPanel(f) {
  mountPanel();
  $("event-text").textContent = f.text || "";
  $("pos-at").textContent = grouped(S.at);
  $("pos-len").textContent = grouped(D.length);
  $("hand-no").textContent = f.hand_number || "–";
  $("trick-no").textContent = f.trick_no || "–";
  $("phase").textContent = f.phase ? D.words.term("phase:" + f.phase, f.phase.replace(/_/g, " ")) : "";
  $("turn").textContent = typeof f.turn === "number" ? name(f.turn) : "–";
  const parts = panelParts(f, S.view);
  setHtml($("totals"), parts.totals);
  setHtml($("calls"), parts.calls);
  setHtml($("out-order"), parts.out);
  setHtml($("bombs"), parts.bombs);
  setHtml($("gifts"), parts.gifts);
  setHtml($("exchange"), parts.exchange);
  let over = $("game-over");
  if (parts.over) {
    if (!over) {
      over = document.createElement("p"); over.id = "game-over"; over.className = "over";
      $("totals").insertAdjacentElement("afterend", over);
    }
    over.textContent = parts.over;
  } else if (over) {
    over.remove();
  }
}

let lastSheetFrame = null;
function renderSheet(f) {
  if (f.score_sheet === lastSheetFrame) return;
  lastSheetFrame = f.score_sheet;
  $("sheet-wrap").innerHTML = sheetHtml(f);
}

function renderControls() {
  const tg = targets(S.at);
  for (const id in NAV) {
    const a = $(id);
    a.setAttribute("href", query(tg[NAV[id]]));
    if (tg[NAV[id]] === S.at) a.setAttribute("aria-disabled", "true"); else a.removeAttribute("aria-disabled");
  }
  slider.value = S.at;
  slider.setAttribute("aria-valuetext", interpolate(gettext("move %(at)s of %(length)s"), { at: grouped(S.at), length: grouped(D.length) }));
}

// The events of the hand around the position. The server draws the list (present.hand_log_html,
// its one drawing): the page comes with the first hand's, and another hand's is asked for when the
// reader moves there (`?part=hand-log`); here only the marks move.
let logKey = logEl.getAttribute("data-key"), logCurrent = null, logWanted = null;

function handRange() {
  const h = D.P.marks.hands || [0];
  let i = h.length - 1;
  while (i > 0 && h[i] > S.at) i--;
  return [h[i] || 0, i + 1 < h.length ? h[i + 1] - 1 : D.length];
}

function fetchLog(start, end, key) {
  logWanted = key;
  const params = new URLSearchParams({ part: "hand-log", at: start, upto: end, view: S.view, bottom: S.bottom });
  if (S.showUndone) params.set("undone", "1");
  logEl.setAttribute("aria-busy", "true");
  fetch(location.pathname + "?" + params.toString(), { credentials: "same-origin" })
    .then((r) => (r.ok ? r.text() : Promise.reject(r.status)))
    .then((html) => {
      if (logWanted !== key) return;  // the reader has moved on to another hand meanwhile
      logEl.innerHTML = html;
      logEl.setAttribute("data-key", key);
      logKey = key;
      logCurrent = null;
      markLog();
    })
    .catch(() => { if (logWanted === key) logWanted = null; })  // asked again on the next move
    .finally(() => { if (logWanted === key || logWanted === null) logEl.removeAttribute("aria-busy"); });
}

function markLog() {
  const start = parseInt(logKey, 10), items = logEl.children, cur = S.at - start;
  if (logCurrent !== null && items[logCurrent]) items[logCurrent].removeAttribute("aria-current");
  logCurrent = null;
  for (let j = 0; j < items.length; j++) {
    const cls = ((j === cur ? "current" : (j > cur ? "future" : "")) + (D.undone[start + j] ? " undone" : "")).trim();
    if (items[j].className !== cls) items[j].className = cls;
  }
  if (items[cur]) {
    items[cur].setAttribute("aria-current", "step");
    logCurrent = cur;
    const box = logEl.getBoundingClientRect(), r = items[cur].getBoundingClientRect();
    if (r.top < box.top || r.bottom > box.bottom) logEl.scrollTop += r.top - box.top - box.height / 2;
  }
}

export function renderLog() {
  const [start, end] = handRange();
  const key = start + ":" + end + ":" + S.view + ":" + S.bottom + ":" + (S.showUndone ? 1 : 0);
  if (key !== logKey) {
    if (key !== logWanted) fetchLog(start, end, key);
    return;  // the list in view is another hand's until its own comes
  }
  markLog();
}

/** The event list and score sheet are drawn afresh next time (their links or frames changed). */
export function forgetLog() { logKey = null; logWanted = null; }
export function forgetSheet() { lastSheetFrame = null; }

/** Draws the frame at the reader's position. */
export function render() {
  const f = D.frames[S.at];
  renderTable(f);
  table.setAttribute("data-at", S.at);
  table.setAttribute("data-phase", f.phase || "");
  root.setAttribute("data-at", S.at);
  root.setAttribute("data-view", S.view);
  root.setAttribute("data-bottom", S.bottom);
  renderPanel(f);
  renderSheet(f);
  renderControls();
  renderMoments();
  renderDeal();
  document.title = document.title.replace(/\d+\/\d+(?!.*\d+\/\d+)/, S.at + "/" + D.length);  // "… at 12/200 · replay" in any language
  renderLog();  // last: it reads the layout to keep the current event in view
}
