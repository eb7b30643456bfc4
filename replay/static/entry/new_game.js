/* New-game form: show the seats and the options of the chosen variant only. Hidden fields are
   disabled, so the form sends what is shown. No rule here: the counts come from the page. */
(function () {
  "use strict";
  // the script's words: Django's JavaScript catalogue (/jsi18n/, loaded before this script), else English
  var django = window.django || {};
  var gettext = django.gettext || function (text) { return text; };
  var ngettext = django.ngettext || function (one, many, n) { return n === 1 ? one : many; };
  var interpolate = function (text, params) { return text.replace(/%\((\w+)\)s/g, function (all, k) { return params[k] === undefined ? all : String(params[k]); }); };
  var variant = document.getElementById("variant");
  if (!variant) return;
  function update() {
    var opt = variant.options[variant.selectedIndex];
    var max = Number(opt.getAttribute("data-max")), min = Number(opt.getAttribute("data-min"));
    document.querySelectorAll(".seat-row").forEach(function (row) {
      var i = Number(row.getAttribute("data-seat"));
      var shown = i < max;
      row.hidden = !shown;
      row.classList.toggle("optional", i >= min);
      row.querySelectorAll("select, input").forEach(function (el) { el.disabled = !shown; });
    });
    document.querySelectorAll(".variant-options").forEach(function (fs) {
      var shown = fs.getAttribute("data-variant") === variant.value;
      fs.hidden = !shown;
      fs.disabled = !shown;
    });
    var hint = document.getElementById("seat-count");
    if (hint) hint.textContent = min === max ? interpolate(ngettext("%(count)s player", "%(count)s players", min), { count: min })
      : interpolate(gettext("%(min)s to %(max)s players"), { min: min, max: max });
  }
  variant.addEventListener("change", update);
  // a member picked in a seat clears the new-name field of that seat, and the other way round
  document.querySelectorAll(".seat-row").forEach(function (row) {
    var sel = row.querySelector("select"), input = row.querySelector("input");
    sel.addEventListener("change", function () { if (sel.value) input.value = ""; });
    input.addEventListener("input", function () { if (input.value) sel.value = ""; });
  });
  update();
})();
