// The new-tournament form shows what applies to the chosen entrants, system and scoring
// (issue 33, finding 5). Progressive enhancement: without this script every field is shown and
// the server's refusal says what to choose (replay/tournaments/views.py, HEADER_ADVICE).
// Which systems fit which entrants comes from the core (games.tournament.record.SYSTEMS), passed
// in the page as JSON; the scoring rule (matchpoints <-> duplicate) is the core's too.
(function () {
  "use strict";
  var form = document.getElementById("tournament-form");
  var data = document.getElementById("tournament-form-rules");
  if (!form || !data) return;
  var rules = JSON.parse(data.textContent);
  // by name attribute: form.elements["length"] would be the number of the form's controls
  var el = function (name) { return form.querySelector("[name='" + name + "']"); };
  var status = document.getElementById("form-status");

  function say(text) { if (status) status.textContent = text; }

  function fitOptions(select, allowed, fallback) {
    var moved = false;
    Array.prototype.forEach.call(select.options, function (option) {
      var fits = allowed.indexOf(option.value) >= 0;
      option.disabled = !fits;
      option.hidden = !fits;
    });
    if (allowed.indexOf(select.value) < 0) {
      select.value = allowed.indexOf(fallback) >= 0 ? fallback : allowed[0];
      moved = true;
    }
    return moved;
  }

  function show(name, applies) {
    var wrapper = form.querySelector("[data-field='" + name + "']");
    if (wrapper) wrapper.hidden = !applies;
  }

  function hint(name, applies) {
    var line = form.querySelector("[data-field='" + name + "'] .hint");
    if (line) line.hidden = !applies;
  }

  function update(event) {
    // a line about an earlier move would read as about this one; only the choices that move
    // others clear it (not the name's change on blur: the line's collapse moved the button
    // under a click in progress)
    if (event && ["entrants", "system", "scoring"].indexOf(event.target.name) >= 0) say("");
    var entrants = el("entrants").value;
    var system = el("system");
    if (fitOptions(system, rules.systems[entrants], rules.systems[entrants][0]) && event) {
      say(rules.words.system_moved.replace("%(system)s", system.options[system.selectedIndex].text));
    }
    var duplicate = system.value === "duplicate";
    var scoring = el("scoring");
    var scorings = rules.scorings.filter(function (s) { return (s === "matchpoints") === duplicate; });
    if (fitOptions(scoring, scorings, "round_vp") && event) {
      say(rules.words.scoring_moved.replace("%(scoring)s", scoring.options[scoring.selectedIndex].text));
    }
    var perHand = scoring.value === "dtm";
    var fixedLength = duplicate || perHand;  // a duplicate round is boards, a DTM round hands
    if (fixedLength) el("length").value = "hands";
    var byTarget = el("length").value === "target";
    show("length", !fixedLength);
    show("hands_per_round", !byTarget);
    show("target", byTarget);
    show("grand_tichu", duplicate);
    hint("hands_per_round", duplicate);  // "duplicate: the boards per round"
    hint("rounds", system.value === "round_robin");  // "a round robin may leave it empty"
    show("bye_result", !duplicate);  // a duplicate sit-out scores nothing
    show("bye_points", !duplicate);
    // a 2nd tie-break applies once there is a 1st (the preset's list otherwise), a 3rd after a 2nd
    if (el("tiebreak_1").value === "") el("tiebreak_2").value = "";
    if (el("tiebreak_2").value === "") el("tiebreak_3").value = "";
    show("tiebreak_2", el("tiebreak_1").value !== "");
    show("tiebreak_3", el("tiebreak_2").value !== "");
  }

  form.addEventListener("change", update);
  update(null);
  form.setAttribute("data-fitted", "1");
})();
