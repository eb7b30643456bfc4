// The language switcher (templates/_language_switcher.html): choosing a language submits the form
// at once, and the page comes back where it was. `next` carries the address as the browser has it
// now, so a replay's step (?at=N, which its script keeps in the address) and a #fragment survive.
(function () {
  "use strict";
  var form = document.getElementById("language-switcher");
  if (!form) return;
  var select = form.querySelector("select");
  var next = form.querySelector("input[name=next]");
  var button = form.querySelector("button");
  if (button) button.hidden = true; // with the script, the choice itself submits
  form.addEventListener("submit", function () {
    next.value = window.location.pathname + window.location.search + window.location.hash;
  });
  select.addEventListener("change", function () {
    if (form.requestSubmit) form.requestSubmit(); else { next.value = window.location.pathname + window.location.search + window.location.hash; form.submit(); }
  });
})();
