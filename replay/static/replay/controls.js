/* The page's controls, taken over from their links and forms (which work without the script):
 * the navigation links, the slider, the view selector, the corrections box, the hand's event list,
 * "copy link", and the browser's back and forward. */
import { gettext } from "../shared/i18n.js";
import { $, D, S, parseSeat, parseView, root } from "./state.js";
import { NAV } from "./nav.js";
import { forgetLog } from "./render.js";
import { go, goTarget } from "./step.js";
import { historyMoved, replaceNow } from "./url.js";
import { setShowUndone, setView } from "./viewpoint.js";

// a click with a modifier or another button opens a new tab and the like: left to the browser
const plainClick = (e) => !(e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey);

function wireCopyLink() {
  const copyBtn = $("copy-link");
  if (!navigator.clipboard) return;
  copyBtn.hidden = false;
  copyBtn.addEventListener("click", () => {
    navigator.clipboard.writeText(location.href).then(() => {
      const label = copyBtn.textContent;
      copyBtn.textContent = gettext("link copied");
      setTimeout(() => { copyBtn.textContent = label; }, 1500);
    });
  });
}

export function wireControls() {
  Object.keys(NAV).forEach((id) => {
    $(id).addEventListener("click", (e) => {
      if (!plainClick(e)) return;
      e.preventDefault();
      goTarget(NAV[id]);
    });
  });
  $("jump-go").hidden = true;
  wireCopyLink();

  const slider = $("slider"), viewSel = $("view"), undoneBox = $("show-undone");
  slider.addEventListener("input", () => { go(parseInt(slider.value, 10), "none"); });  // scrubbing
  slider.addEventListener("change", () => { go(parseInt(slider.value, 10), "push"); });  // released
  $("jump").addEventListener("submit", (e) => { e.preventDefault(); go(parseInt(slider.value, 10), "push"); });
  viewSel.addEventListener("change", () => { setView(parseView(viewSel.value, "all")); });
  if (undoneBox) undoneBox.addEventListener("change", () => {
    setShowUndone(undoneBox.checked);
    go(S.at, "none");
    replaceNow(S.at);
  });

  $("hand-log").addEventListener("click", (e) => {
    const li = e.target.closest && e.target.closest("li[data-at]");
    if (!li || !plainClick(e)) return;
    e.preventDefault();
    go(parseInt(li.getAttribute("data-at"), 10), "push");
  });

  window.addEventListener("popstate", () => {
    const params = new URLSearchParams(location.search);
    const at = params.get("at");
    historyMoved(S.at);  // the entry is another one now: a pending update is not for it
    S.view = parseView(params.get("view"), S.view);
    S.bottom = parseSeat(params.get("bottom"), S.bottom);
    S.showUndone = params.get("undone") === "1";
    root.classList.toggle("show-undone", S.showUndone);
    if (undoneBox) undoneBox.checked = S.showUndone;
    forgetLog();
    viewSel.value = String(S.view);
    go(at === null ? D.length : parseInt(at, 10), "none");
    historyMoved(S.at);
  });
}
