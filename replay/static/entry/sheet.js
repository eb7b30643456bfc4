/* The score-sheet form (docs/entry.md, "Score sheet: one form per hand"): one `hand_result` per
 * hand, checked as it is typed, first by the fields' own bounds, then by the engine itself through
 * GET /api/games/{id}/legal/?check= (a dry run: nothing stored). */
import { $, C, S, W, esc, gettext, interpolate, name, nSeats, outbox, seatCount } from "./state.js";
import { button } from "./view.js";
import { getJson, send } from "./api.js";
import { changedElsewhere } from "./stale.js";

function sheetTeams() { return S.legal.state.teams || []; }

export function renderSheetForm() {
  var L = S.legal, open = L.phase === "between_hands";
  $("hand-blocked").hidden = open || L.phase === "game_over";
  // the next hand card by card from here: one tap shuffles and opens the card-by-card tab
  var shuffles = (L.actions || []).filter(function (a) { return a.type === "shuffle"; });
  $("sheet-shuffle").hidden = !shuffles.length;
  $("sheet-shuffle-buttons").innerHTML = shuffles.map(function (a) {
    return button("sheet-shuffle-" + a.seat, esc(interpolate(gettext("%(name)s shuffles"), { name: name(a.seat) })), a, "to-cards");
  }).join(" ");
  var teams = sheetTeams();
  [0, 1].forEach(function (i) {
    var label = $("points-label-" + i);
    if (!label) return;
    if (C.sheet.dealer) label.textContent = i === 0 ? gettext("Dealer & dummy") : gettext("Opponents");
    else if (teams[i]) label.textContent = teams[i].map(name).join(" & ");
  });
  $("hand-form").querySelectorAll("select, input").forEach(function (el) { el.disabled = !open; });
  if (open) syncDoubleVictory();
  checkHand();
}

export function dvChecked() { return !!($("double-victory") && $("double-victory").checked); }

// A double (Tichu) or triple (Tientsin) victory: the first out's team-mates follow in seat order.
export function syncDoubleVictory() {
  var dv = dvChecked();
  if ($("points-0")) $("points-0").disabled = $("points-1").disabled = dv || S.legal.phase !== "between_hands";
  if (!dv) return;
  var first = firstOut();
  if (first === "") return;
  var mates = teamMates(Number(first));
  for (var k = 0; k < mates.length && k + 1 < C.sheet.sweep; k++) if ($("out-" + (k + 1))) $("out-" + (k + 1)).value = String(mates[k]);
}
function teamMates(seat) {
  if (C.sheet.dealer && $("dealer")) {  // Threechu: the dealer plays with the dummy (seat 3)
    var d = Number($("dealer").value), dummy = seatCount - 1;
    var side = seat === d || seat === dummy ? [d, dummy] : [0, 1, 2].filter(function (s) { return s !== d; });
    return side.filter(function (s) { return s !== seat; });
  }
  var team = sheetTeams().filter(function (t) { return t.indexOf(seat) >= 0; })[0] || [];
  return team.filter(function (s) { return s !== seat; });
}

// The first out is a chip a player (one tap, issue 33 item 6): "" until one is picked.
export function firstOut() {
  var picked = document.querySelector(".first-out-pick:checked");
  return picked ? picked.value : "";
}
// The places out as picked, first to last: the first out's chip, then the later places' lists.
function outPicks() {
  var picks = [firstOut()];
  document.querySelectorAll(".out-select").forEach(function (sel) { picks.push(sel.value); });
  return picks;
}
// The form's first field, where the next hand starts (a call's toggle, else the first out's chip).
export function firstField() { return document.querySelector(".call-toggle") || document.querySelector(".first-out-pick"); }
// A player makes one call: a call's toggle turned on turns the player's other call off.
export function oneCallEach(toggle) {
  if (!toggle.checked) return;
  document.querySelectorAll(".call-toggle[data-seat='" + toggle.getAttribute("data-seat") + "']").forEach(function (other) {
    if (other !== toggle) other.checked = false;
  });
}

function handEvent() {
  var calls = {};
  document.querySelectorAll(".call-toggle:checked").forEach(function (c) { calls[c.getAttribute("data-seat")] = c.value; });
  var out = [];
  outPicks().forEach(function (v) { if (v !== "") out.push(Number(v)); });
  var dv = dvChecked();
  if (dv) out = out.slice(0, C.sheet.sweep);
  else if (out.length === seatCount - 1) {
    for (var t = 0; t < seatCount; t++) if (out.indexOf(t) < 0) { out.push(t); break; }
  }
  var event = { type: "hand_result", calls: calls, out: out };
  if (!dv && $("points-0")) {
    var p0 = $("points-0").value, p1 = $("points-1").value;
    if (p0 !== "" && p1 !== "") event.points = [Number(p0), Number(p1)];
  }
  if ($("dealer")) event.dealer = Number($("dealer").value);
  return event;
}

// What the browser itself can say at once (the field's declared bounds), before the engine's answer.
// Each problem names the field it is about ("out", "points"); checkHand says it only once that
// field was used or Save was tapped (no red "Who went out first?" before anything is typed).
function fieldProblem() {
  var p = fieldProblemOf();
  return p && (S.touched[p.field] || S.touched.save) ? p.text : p ? "" : null;
}
function fieldProblemOf() {
  if (firstOut() === "") return { field: "out", text: gettext("Who went out first?") };
  var seen = {};
  var dup = false;
  outPicks().forEach(function (v) { if (v !== "") { if (seen[v]) dup = true; seen[v] = true; } });
  if (dup) return { field: "out", text: gettext("A player goes out only once.") };
  if (finishingOrder()) {
    var empty = Array.prototype.filter.call(document.querySelectorAll(".out-select"), function (sel) { return sel.value === ""; });
    if (empty.length) return { field: "out", text: interpolate(gettext("The whole finishing order is needed: who was %(place)s?"), { place: empty[0].closest("label").firstChild.textContent.trim() }) };
    return null;
  }
  if (dvChecked() || !$("points-0")) return null;
  var p = [$("points-0"), $("points-1")];
  for (var i = 0; i < 2; i++) {
    if (p[i].value === "") return { field: "points", text: gettext("Card points: type one team's points.") };
    if (!p[i].checkValidity()) {
      if (p[i].validity.stepMismatch) return { field: "points", text: interpolate(gettext("Card points are a multiple of 5 (%(value)s is not)."), { value: p[i].value }) };
      if (p[i].validity.rangeUnderflow || p[i].validity.rangeOverflow) return { field: "points", text: interpolate(gettext("Card points lie between -25 and 125 (%(value)s does not)."), { value: p[i].value }) };
      return { field: "points", text: interpolate(gettext("Card points: %(problem)s"), { problem: p[i].validationMessage }) };
    }
  }
  return null;
}

export function setCheck(text, ok) {
  var line = $("hand-check");
  line.textContent = text;
  line.className = "check-line " + (ok === true ? "ok" : ok === false ? "bad" : "");
  // enabled while the engine is asked (Enter then saves once it agrees), disabled when it refused
  $("save-hand").disabled = ok === false || S.busy || !!S.stale || !S.legal || S.legal.phase !== "between_hands";
}

export function checkHand() {
  clearTimeout(S.checkTimer);
  if (!S.legal || S.legal.phase !== "between_hands") { S.checkKey = null; S.submitWhenChecked = false; setCheck("", null); return; }
  if (S.stale && S.stale.origin === "save-hand") {  // no "✓ accepted" on a form built on an old state
    S.checkKey = null; S.submitWhenChecked = false;
    setCheck(gettext("This form was filled before the game changed: compare it with the new state first."), false);
    return;
  }
  var problem = fieldProblem();
  if (problem === "") { S.checkKey = null; S.submitWhenChecked = false; setCheck("", null); return; }  // not used yet
  if (problem) { S.checkKey = null; S.submitWhenChecked = false; setCheck(problem, false); return; }
  if (offlineForm()) { S.checkKey = null; setCheck(gettext("Not checked yet: the rules check it when it is sent (entries are waiting to go out)."), null); return; }
  var event = handEvent(), k = JSON.stringify(event);
  if (k === S.checkKey) return;  // approved already at this seq
  S.checkKey = null;
  setCheck(gettext("Checking…"), null);
  S.checkTimer = setTimeout(function () {
    getJson(C.legal_url + "?check=" + encodeURIComponent(k)).then(function (res) {
      if (JSON.stringify(handEvent()) !== k) return;  // typed on meanwhile
      var check = res.body.check;
      if (res.status !== 200 || !check) { setCheck(res.body.message || gettext("Could not check."), false); return; }
      if (res.body.seq !== S.seq) { changedElsewhere(res.body.seq); return; }
      if (check.ok) {
        S.checkKey = k;
        setCheck(interpolate(gettext("✓ The rules accept this hand: %(summary)s"), { summary: summary(event) }), true);
        if (S.submitWhenChecked) { S.submitWhenChecked = false; submitHand(); }
      } else { S.submitWhenChecked = false; setCheck("✗ " + W.refusal(check.error), false); }
    });
  }, 150);
}

function summary(e) {
  var parts = [interpolate(gettext("out %(order)s"), { order: e.out.map(name).join(" › ") })];
  Object.keys(e.calls).forEach(function (s) { parts.push(interpolate(gettext("%(name)s: %(call)s"), { name: name(Number(s)), call: W.callName(e.calls[s]) })); });
  parts.push(e.points ? interpolate(gettext("card points %(points)s"), { points: e.points.join(" / ") }) : finishingOrder() ? gettext("finishing order") : victoryWord());
  return parts.join("; ");
}

export function finishingOrder() { return !C.sheet.points && !C.sheet.sweep; }
export function victoryWord() { return C.sheet.sweep === 3 ? gettext("triple victory") : gettext("double victory"); }

export function otherTeamPoints(ev) {
  var me = ev.target, other = $("points-" + (me.getAttribute("data-team") === "0" ? "1" : "0"));
  if (me.value === "") { other.value = ""; return; }
  var v = Number(me.value);
  if (isFinite(v)) other.value = String(100 - v);  // the two teams' card points make 100
}
export function submitHand() {
  S.touched.save = true;  // Save tapped: every problem of the form is said now
  var event = handEvent();
  if (S.busy) return;
  if (S.stale) { send([], ""); return; }
  if (offlineForm()) {  // no engine to ask: the field checks only; the engine judges it when sent
    if (fieldProblem() !== null) { checkHand(); return; }
    send([event], interpolate(gettext("hand %(number)s from the score sheet"), { number: (S.legal.state.hand_number || 0) + 1 + queuedHands() }), "save-hand").then(afterHandSaved);
    return;
  }
  if (S.checkKey !== JSON.stringify(event)) { S.submitWhenChecked = true; checkHand(); return; }
  send([event], interpolate(gettext("hand %(number)s from the score sheet"), { number: (S.legal.state.hand_number || 0) + 1 }), "save-hand").then(afterHandSaved);
}
function afterHandSaved(ok) {
  if (ok) { S.touched = {}; $("hand-form").reset(); syncDoubleVictory(); checkHand(); firstField().focus(); }
}
export function offlineForm() { return navigator.onLine === false || outbox.size() > 0; }
function queuedHands() {
  return outbox.items().filter(function (it) { return JSON.parse(it.body).events.some(function (e) { return e.type === "hand_result"; }); }).length;
}
