/* The replay viewer (templates/replay/replay.html, docs/viewer.md): instant stepping through the
 * frames the server embedded. The page works without this script (every control is a link or a
 * form); the script only looks frames up and rewrites the same markup: no rule of the game is here.
 *
 *   frames.js      the compacted frames on the wire, expanded
 *   state.js       the payload, the reader's position and view, card faces (static/shared/cards.js)
 *   nav.js         where each control leads (hand and trick starts; corrections folded away)
 *   table.js       the seats and the centre (tzq.js: Tien Zi Que's table)
 *   panel.js       the panel and the score sheet
 *   render.js      drawing a frame, rewriting only what changed; the hand's event list
 *   url.js         the address following the position (history entries)
 *   step.js        moving to a position
 *   autoplay.js, viewpoint.js (view, table turn, corrections), controls.js, keys.js (keys, swipe)
 *   moments.js     the hand and trick pickers, the marks on the slider (moments.py's lists)
 *   deal.js        the current hand's deal at a glance (frames/deals.py's lists)
 *   live_update.js a game in play grows (live_replay.js brings the payload)
 *
 * window.tichuReplay is the page's handle for live_replay.js, the browser tests and bench/replay.py. */
import { D, S, root, start } from "./state.js";
import { targets } from "./nav.js";
import { render } from "./render.js";
import { go, goTarget } from "./step.js";
import { replaceNow } from "./url.js";
import { wireAutoplay } from "./autoplay.js";
import { wireControls } from "./controls.js";
import { wireKeys } from "./keys.js";
import { update, wireLiveNote } from "./live_update.js";
import { wireMoments } from "./moments.js";

if (root && document.getElementById("replay-data")) {
  start();
  wireMoments(go);
  wireControls();
  wireAutoplay();
  wireKeys();
  wireLiveNote();
  window.tichuReplay = {
    update, go, goTarget, targets,
    get frames() { return D.frames; },
    get lastRenderMs() { return S.lastRenderMs; },
    get at() { return S.at; },
  };
  replaceNow(S.at);
  render();  // the table is drawn here only (the page holds its empty mount); the rest is redrawn alike
  root.setAttribute("data-ready", "1");
}
