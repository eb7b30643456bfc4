// The player page's rating chart (games/ratings/charts.py draws it on the server): a tap, a click
// or the arrow keys pick the game nearest along the time axis and say its why line below the
// chart (#chart-point). A touch screen has no hover, so the points' tooltips alone said nothing
// there; the whole chart is the target, so a thumb need not hit a 2-pixel point.
(function () {
  "use strict";
  var figure = document.getElementById("rating-chart");
  var out = document.getElementById("chart-point");
  if (!figure || !out) return;
  var svg = figure.querySelector("svg.rating-chart");
  if (!svg) return;
  var points = Array.prototype.slice.call(svg.querySelectorAll("circle.game"));
  if (!points.length) return;
  var picked = -1;

  function pick(i) {
    if (i < 0 || i >= points.length) return;
    if (picked >= 0) points[picked].classList.remove("picked");
    picked = i;
    var p = points[i];
    p.classList.add("picked");
    var title = p.querySelector("title");
    out.textContent = title ? title.textContent : "";
    out.hidden = false;
  }

  function nearest(clientX) {
    var ctm = svg.getScreenCTM();
    if (!ctm) return -1;
    var pt = svg.createSVGPoint();
    pt.x = clientX;
    pt.y = 0;
    var x = pt.matrixTransform(ctm.inverse()).x;
    var best = -1, gap = Infinity;
    points.forEach(function (p, i) {
      var d = Math.abs(parseFloat(p.getAttribute("cx")) - x);
      if (d < gap) { gap = d; best = i; }
    });
    return best;
  }

  svg.addEventListener("click", function (e) { pick(nearest(e.clientX)); });
  svg.addEventListener("keydown", function (e) {
    if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
      e.preventDefault();
      var next = picked < 0 ? points.length - 1 : picked + (e.key === "ArrowRight" ? 1 : -1);
      pick(Math.max(0, Math.min(points.length - 1, next)));
    }
  });
  svg.setAttribute("tabindex", "0");
  svg.style.cursor = "pointer";
})();
