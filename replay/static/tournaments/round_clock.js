// A round's clock counting down (templates/tournaments/_round_clock.html; issue 33, item 4).
// The page gives the end and the server's instant it was drawn at: the countdown runs from that
// instant, so a phone whose own clock is wrong still ends with the projector. Without script the
// page shows what was left when it was drawn and the end's time of day.
(function () {
  "use strict";
  var box = document.getElementById("round-clock");
  if (!box) return;
  var left = document.getElementById("clock-left");
  var end = Date.parse(box.dataset.endsAt);
  var skew = Date.parse(box.dataset.now) - Date.now(); // server minus this device
  if (isNaN(end) || isNaN(skew)) return;
  function pad(n) { return (n < 10 ? "0" : "") + n; }
  function tick() {
    var seconds = Math.max(0, Math.floor((end - (Date.now() + skew)) / 1000));
    if (seconds === 0) {
      left.textContent = box.dataset.up;
      box.classList.add("clock-up");
      return;
    }
    var h = Math.floor(seconds / 3600), m = Math.floor((seconds % 3600) / 60), s = seconds % 60;
    left.textContent = h ? h + ":" + pad(m) + ":" + pad(s) : m + ":" + pad(s);
    box.classList.toggle("clock-last", seconds <= 300);
    window.setTimeout(tick, 1000 - ((Date.now() + skew) % 1000));
  }
  tick();
})();
