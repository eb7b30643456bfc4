/* What a key or a swipe does (docs/viewer.md, "Keyboard" and "Phones"). Keys are ignored while
 * typing in a field or with Ctrl/Alt/Meta held; the slider keeps its own arrow keys. */
import { $ } from "./state.js";
import { goTarget } from "./step.js";
import { changeSpeed, togglePlaying } from "./autoplay.js";
import { cycleView, rotate } from "./viewpoint.js";

const SLIDER_KEYS = ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End", "PageUp", "PageDown"];

function toggleHelp() { const d = $("help"); d.open = !d.open; }

/** The action of key k (shift: Shift held), or null when the key is not ours. */
function action(k, shift) {
  if (k === "ArrowLeft" || k === "k") return () => goTarget(shift && k === "ArrowLeft" ? "prev_trick" : "prev");
  if (k === "ArrowRight" || k === "j") return () => goTarget(shift && k === "ArrowRight" ? "next_trick" : "next");
  if (k === "ArrowUp") return () => goTarget("prev_trick");
  if (k === "ArrowDown") return () => goTarget("next_trick");
  if (k === "PageUp" || k === "p") return () => goTarget("prev_hand");
  if (k === "PageDown" || k === "n") return () => goTarget("next_hand");
  if (k === "Home" || k === "0") return () => goTarget("first");
  if (k === "End" || k === "$") return () => goTarget("last");
  if (k === " " || k === "Spacebar") return togglePlaying;
  if (k === "+" || k === "=") return () => changeSpeed(1);
  if (k === "-" || k === "_") return () => changeSpeed(-1);
  if (k === "v") return cycleView;
  if (k === "f") return rotate;
  if (k === "?") return toggleHelp;
  return null;
}

function onKey(e) {
  if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
  const t = e.target, tag = t && t.tagName, k = e.key;
  if (tag === "TEXTAREA" || tag === "SELECT" || (t && t.isContentEditable)) return;
  if (tag === "INPUT" && t.type !== "range" && t.type !== "checkbox") return;
  if (tag === "INPUT" && t.type === "checkbox" && (k === " " || k === "Spacebar")) return;  // it toggles the box
  if (tag === "INPUT" && t.type === "range" && SLIDER_KEYS.indexOf(k) >= 0) return;
  const act = action(k, e.shiftKey);
  if (!act) return;
  act();
  e.preventDefault();
}

// Swipe on the table to step (phones): left = next event, right = previous (a long swipe: a
// trick); a mostly vertical
// move is a scroll and left alone (the table has touch-action: pan-y on phones).
function wireSwipe(table) {
  let touch = null;
  table.addEventListener("touchstart", (e) => {
    if (e.touches.length === 1) touch = { x: e.touches[0].clientX, y: e.touches[0].clientY };
  }, { passive: true });
  table.addEventListener("touchend", (e) => {
    if (!touch || !e.changedTouches.length) return;
    const dx = e.changedTouches[0].clientX - touch.x, dy = e.changedTouches[0].clientY - touch.y;
    touch = null;
    if (Math.abs(dx) < 40 || Math.abs(dx) <= 1.5 * Math.abs(dy)) return;
    // a long swipe (over half the table's width) moves a trick, a short one a step (said on the page)
    const long = Math.abs(dx) > table.clientWidth / 2;
    goTarget(dx < 0 ? (long ? "next_trick" : "next") : (long ? "prev_trick" : "prev"));
  });
}

export function wireKeys() {
  document.addEventListener("keydown", onKey);
  wireSwipe($("table"));
}

