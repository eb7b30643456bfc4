/* Autoplay: one event per tick at the chosen speed, stopping at the end. */
import { gettext } from "../shared/i18n.js";
import { $, D, S } from "./state.js";
import { targets } from "./nav.js";
import { go } from "./step.js";

const speedSel = $("speed"), playBtn = $("nav-play");
const speed = () => parseInt(speedSel.value, 10) || 1000;

function tick() {
  if (!S.playing) return;
  if (S.at >= D.length) { setPlaying(false); return; }
  go(targets(S.at).next, "replace");
  S.timer = setTimeout(tick, speed());
}

export function setPlaying(on) {
  S.playing = on;
  clearTimeout(S.timer);
  playBtn.setAttribute("aria-pressed", on ? "true" : "false");
  playBtn.textContent = on ? gettext("pause ❚❚") : gettext("play ▶");
  if (on) {
    if (S.at >= D.length) go(0, "replace");
    S.timer = setTimeout(tick, speed());
  }
}
export const togglePlaying = () => setPlaying(!S.playing);

/** dir +1 faster, -1 slower (the selector lists the speeds slowest first). */
export function changeSpeed(dir) {
  const i = speedSel.selectedIndex + dir;
  if (i >= 0 && i < speedSel.options.length) speedSel.selectedIndex = i;
}

/** The play button and speed selector exist only with the script. */
export function wireAutoplay() {
  playBtn.hidden = false;
  speedSel.closest("label").hidden = false;
  playBtn.addEventListener("click", togglePlaying);
}
