/* Talking to the API (docs/entry.md, "Writes", "Offline at the table"): the state, the writes
 * (each with expected_seq, the CSRF token and its own Idempotency-Key) and the outbox of entries
 * kept in this browser while the connection is down. */
import { $, C, S, W, alertBox, esc, gettext, interpolate, newKey, ngettext, outbox, root, say, setBusy } from "./state.js";
import { getJson as readJson, postEvents } from "../shared/writes.js";
import { handOver, markStale } from "./stale.js";
import { render, restoreFocus, rememberFocus } from "./view.js";
import { afterRefresh } from "./play.js";
import { setCheck } from "./sheet.js";

export function sessionEnded() {
  alertBox(interpolate(gettext("Your session has ended: log in again (%(url)s), then Refresh. Nothing typed here is lost."), { url: C.login_url }));
}

/** The table card this page was opened with was replaced or withdrawn (games.tournaments.middleware):
 *  the server's words say what to do (scan the new card); nothing typed is lost. */
function cardEnded(res) {
  const code = String((res.body && res.body.code) || "");
  if (res.status !== 403 || code.indexOf("table_code_") !== 0) return false;
  alertBox(res.body.message, false, code);
  return true;
}

export function getJson(url) {
  return readJson(url).then((r) => {
    if (r.redirected && r.url.indexOf("login") >= 0) { sessionEnded(); throw new Error("logged out"); }
    return r;
  });
}

/** Load the latest state and panels; `note` is said in the status line once drawn (a function:
 * given the panels' answer, e.g. to say saved events as the replay says them). */
export function refresh(note, kind) {
  return Promise.all([getJson(C.legal_url), getJson(C.panels_url)]).then(([legal, panels]) => {
    if (typeof note === "function") note = note(panels.status === 200 ? panels.body : null);
    if (legal.status === 401 || (legal.status === 403 && legal.body.code === "not_authenticated")) { sessionEnded(); return; }
    if (cardEnded(legal)) return;
    if (legal.status !== 200) { alertBox(interpolate(gettext("Could not load the game: %(reason)s"), { reason: legal.body.message || legal.status })); return; }
    const moved = legal.body.seq !== S.seq;
    const handsBefore = S.legal ? (S.legal.state.score_sheet || []).length : null;
    S.legal = legal.body;
    const sheetNow = legal.body.state.score_sheet || [];
    if (handsBefore !== null && sheetNow.length > handsBefore) note = (note ? note + " " : "") + handOver(sheetNow.length, sheetNow[sheetNow.length - 1]);
    S.seq = legal.body.seq;
    if (moved) { S.picked = []; S.pickFrom = null; S.checkKey = null; S.penaltyPick = null; $("penalty-box").open = false; }
    if (panels.status === 200) {
      $("sheet-panel").innerHTML = panels.body.sheet;
      $("history-panel").innerHTML = panels.body.history;
      const u = panels.body.undo_target;
      $("undo-what").textContent = u ? interpolate(gettext("retracts #%(seq)s: %(what)s"), { seq: u.seq, what: u.text }) : "";
      $("undo").title = u ? interpolate(gettext("Undo #%(seq)s (%(what)s) — key u"), { seq: u.seq, what: u.text }) : gettext("Nothing to undo");
    }
    render();
    restoreFocus();
    if (note) say(note, kind);
    root.setAttribute("data-seq", String(S.seq));
    root.setAttribute("data-status", String(legal.body.status || ""));
    const over = $("game-over");  // a tournament table's game: the last hand leads on to its result
    if (over && legal.body.status === "finished" && over.hidden) { over.hidden = false; over.scrollIntoView({ block: "start" }); }
    root.setAttribute("data-ready", "1");
    afterRefresh();
  }).catch((err) => {
    setBusy(S.busy);
    if (!err || err.message !== "logged out") alertBox(gettext("The server cannot be reached. Your entry is kept; try Refresh."), false);
  });
}

/** Send events as one entry. `origin`: "save-hand" (the score sheet), "cards", or "auto" (a
 *  forced event the page enters after the scorer's own entry: a 409 on it is not the scorer's). */
export function send(events, what, origin) {
  if (S.busy) return Promise.resolve(false);
  if (S.stale) {  // a tap after a refusal: nothing is sent, the message is pointed out again
    say(gettext("Not sent: the game changed meanwhile. Check the new state, then press “Enter again”."), "bad");
    return Promise.resolve(false);
  }
  const active = document.activeElement;
  rememberFocus();
  origin = origin || (active && $("hand-form").contains(active) ? "save-hand" : "cards");
  if (outbox.size() && origin !== "save-hand") {
    // a card entry needs the server's answer to know what comes next: it waits for the queue
    say(gettext("Not sent: the card controls come back once the entries kept in this browser are sent."), "bad");
    return Promise.resolve(false);
  }
  // queued entries come first: this one is built on the position after them
  const queued = outbox.items().reduce((n, it) => n + JSON.parse(it.body).events.length, 0);
  const req = { body: JSON.stringify({ expected_seq: S.seq + queued, events }), key: newKey(), what, origin };
  if (origin !== "auto" && (outbox.size() || navigator.onLine === false)) {
    outbox.add(req);
    say(interpolate(gettext("Kept in this browser, not yet sent: %(what)s."), { what }), "bad");
    renderOutbox();
    render();
    scheduleFlush();
    return Promise.resolve("queued");
  }
  return post(req);
}

// --- offline at the table: the outbox (static/entry/outbox.js) -------------------------------------
// Entries made without a connection wait in order, shown as "not yet sent", and go out one by one
// (each with its own key and expected_seq) when the connection returns. A refusal then (409: the
// game moved on; 422: the rules) stops the flush: what is left is held and shown, never re-sent by
// itself and never overwriting anything, until the scorer discards it.
export function renderOutbox() {
  const list = outbox.items(), box = $("outbox");
  box.hidden = !list.length;
  root.setAttribute("data-outbox", String(list.length));
  $("bar-outbox").hidden = !list.length;
  if (!list.length) return;
  const held = list.some((it) => it.held);
  const n = list.length;
  $("outbox-head").textContent = held
    ? interpolate(ngettext("%(count)s not sent: refused when sent (%(why)s); kept here, check the state, then discard",
      "%(count)s not sent: refused when sent (%(why)s); kept here, check the state, then discard", n), { count: n, why: list[0].held })
    : navigator.onLine === false
      ? interpolate(ngettext("%(count)s not yet sent: offline; it goes out when the connection returns",
        "%(count)s not yet sent: offline; they go out in order when the connection returns", n), { count: n })
      : interpolate(ngettext("%(count)s not yet sent: sending…", "%(count)s not yet sent: sending…", n), { count: n });
  $("outbox-list").innerHTML = list.map((it) => '<li data-key="' + esc(it.key) + '"' + (it.held ? ' class="held"' : "") + ">" + esc(it.what) +
    ' <span class="hint">' + esc(interpolate(gettext("(at #%(seq)s)"), { seq: JSON.parse(it.body).expected_seq })) + "</span></li>").join("");
  $("outbox-discard").hidden = !held;
  $("bar-outbox").textContent = interpolate(held ? ngettext("%(count)s held", "%(count)s held", n) : ngettext("%(count)s not yet sent", "%(count)s not yet sent", n), { count: n });
}
export function scheduleFlush() {
  clearTimeout(S.flushTimer);
  if (outbox.size()) S.flushTimer = setTimeout(flush, navigator.onLine === false ? 4000 : 800);
}
export function flush() {
  const head = outbox.items()[0];
  if (!head || head.held || S.busy) { if (head && !head.held) scheduleFlush(); return; }
  if (navigator.onLine === false) { scheduleFlush(); return; }
  post(head).then((ok) => { if (ok === true && outbox.size()) flush(); });
}

// A queued entry the server refused: it and everything after it (built on it) stay, held.
function holdOutbox(req, why) {
  if (!outbox.items().some((it) => it.key === req.key)) return;
  outbox.hold(why);
  renderOutbox();
}

export function setDisabled(on) {
  root.querySelectorAll("#controls button, #seats button.act, #seats .controls-dock button, #penalty-box button, #undo, #save-hand").forEach((b) => {
    if (on) { b.setAttribute("data-was-disabled", b.disabled ? "1" : "0"); b.disabled = true; }
    else if (b.hasAttribute("data-was-disabled")) { b.disabled = b.getAttribute("data-was-disabled") === "1"; b.removeAttribute("data-was-disabled"); }
  });
}

/** Events first..last as the replay says them (the engine's sentences with the position after
 * each: "Ann shuffles: hand 2 begins"), from the panels' `said`; else the page's own words. */
function savedWords(panels, first, last, fallback) {
  const said = (panels && panels.said) || {};
  const texts = [];
  for (let n = first; n <= last; n++) { if (said[n] === undefined) return fallback; texts.push(said[n]); }
  return texts.length ? texts.join("; ") : fallback;
}

function post(req) {
  setBusy(true);
  S.pending = req;
  setDisabled(true);
  say(interpolate(gettext("Saving: %(what)s…"), { what: req.what }));
  return postEvents(C.events_url, { body: req.body, key: req.key, token: C.csrf }).then((res) => {
    if (res.status === 0) throw new Error("network");
    S.pending = null;
    if (res.status === 201) {
      // the page stays marked busy (data-busy) until the new state is drawn: S.busy is off so a
      // forced event can follow (play.js afterRefresh), which marks it again
      S.busy = false;
      outbox.drop(req.key);
      renderOutbox();
      alertBox("");
      S.lastOwn = res.body.seq;  // the live follow does not take our own entry for another scorer's
      S.chain = req.origin !== "save-hand";  // forced events after a card entry are entered by the page
      const count = JSON.parse(req.body).events.length, last = res.body.seq;
      return refresh((p) => interpolate(gettext("Saved: %(what)s (#%(seq)s)."), { what: savedWords(p, last - count + 1, last, req.what), seq: last })).then(() => true);
    }
    setBusy(false);
    if (res.status === 409 && req.origin === "auto") {  // another page entered it (or more) first
      return refresh().then(() => false);
    }
    if (res.status === 409 || res.status === 422) holdOutbox(req, res.status === 409 ? gettext("the game changed meanwhile") : gettext("refused by the rules"));
    if (res.status === 409) {
      markStale(res.body.current_seq, req.what, req.origin, true);
      root.setAttribute("data-conflict", String(res.body.current_seq));
      return refresh(interpolate(gettext("Not saved: %(what)s."), { what: req.what }), "bad").then(() => false);
    }
    if (cardEnded(res)) {
      say(interpolate(gettext("Not saved: %(what)s."), { what: req.what }), "bad");
    } else if (res.status === 401 || res.body.code === "not_authenticated") {
      say(interpolate(gettext("Not saved: %(what)s."), { what: req.what }), "bad");
      sessionEnded();
    } else if (res.status === 422) {
      const err = res.body.error || res.body;
      say(interpolate(gettext("Not saved: %(what)s."), { what: req.what }), "bad");
      const words = interpolate(gettext("Refused by the rules: %(reason)s"), { reason: W.refusal(err) || res.body.message || "" });
      alertBox(words, false, err.code || "invalid");
      if (req.origin === "save-hand") setCheck("✗ " + W.refusal(err), false);
      else if ($("play-hint")) { $("play-hint").textContent = words; $("play-hint").setAttribute("data-code", err.code || ""); }
    } else {
      say(interpolate(gettext("Not saved: %(what)s."), { what: req.what }), "bad");
      alertBox(interpolate(gettext("Not saved (%(status)s): %(reason)s"), { status: res.status, reason: res.body.message || gettext("unexpected answer") }));
    }
    setDisabled(false);
    render();
    return false;
  }).catch(() => {
    setBusy(false);
    if (req.origin === "auto") { S.auto = false; setBusy(false); return false; }  // the next refresh offers it again
    outbox.addFirst(req);
    say(interpolate(gettext("Kept in this browser, not yet sent: %(what)s."), { what: req.what }), "bad");
    alertBox(interpolate(gettext("Network error: %(what)s may not be saved. It is kept in this browser and sent again (with the same key: it cannot be stored twice) when the connection returns; Retry sends it now."), { what: req.what }), true);
    setDisabled(false);
    renderOutbox();
    render();
    scheduleFlush();
    return false;
  });
}
