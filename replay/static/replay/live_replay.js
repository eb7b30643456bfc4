/* The replay of a game in play follows new events (docs/viewer.md, "Live"): the shared hook
 * (static/shared/live.js) reports a new seq; the page then fetches its frames again, masked for
 * this reader by the server (/games/{id}/replay/data/), and hands them to the viewer (main.js: window.tichuReplay.update). */
import { followGame } from "../shared/live.js";

const root = document.getElementById("replay");
const gameId = root && root.getAttribute("data-live");
if (gameId && window.tichuReplay) {
  let latest = 0;  // the newest payload wins when answers cross
  followGame({
    game: gameId,
    seq: parseInt(root.getAttribute("data-seq"), 10) || 0,
    async onChange(seq) {
      const ask = ++latest;
      const response = await fetch(`/games/${gameId}/replay/data/`, { credentials: "same-origin" });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const payload = await response.json();
      if (ask === latest) window.tichuReplay.update(payload);
      root.setAttribute("data-seq", seq);
    },
    onStatus(status) { root.setAttribute("data-live-status", status); },
  });
}
