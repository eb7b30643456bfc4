/* Following a game in play: the shared hook of the replay and entry pages (docs/viewer.md, "Live").
 *
 *   import { followGame } from "../shared/live.js";
 *   const stop = followGame({ game: 12, seq: 40, onChange(seq, body) { ... }, onStatus(s) { ... } });
 *
 * It long-polls GET /api/games/{game}/events/?after={seq}&wait=25 (games/live.py): the server
 * answers as soon as an event with a greater seq is stored, or after 25 s with none. Each answer
 * goes through the API's visibility rule like any read (cards a reader may not see are masked).
 * onChange(seq, body) is called with the new head seq and the API's answer (its masked events);
 * the page decides what to do with it (the replay reloads its frames, the entry page its state).
 * A lost connection is retried with a growing pause (0.5 s to 8 s) and catches up by seq: the next
 * request asks again for everything after the last seq seen. onStatus("live" | "reconnecting")
 * lets the page say so; onStatus("ended") once the game is finished: the answer's `status` is
 * "finished", and nothing more can come, so the polling stops (an undo on a finished game reopens
 * it, but that is a scorer's deliberate act on the entry page, which reloads). The returned function
 * stops following.
 */
export const FINISHED = "finished";
export const WAIT_SECONDS = 25;

export function followGame({ game, seq, onChange, onStatus = () => {}, fetchImpl = fetch.bind(window) }) {
  let after = seq;
  let stopped = false;
  let pause = 500;
  let controller = null;

  async function loop() {
    while (!stopped) {
      controller = new AbortController();
      try {
        const url = `/api/games/${game}/events/?after=${after}&wait=${WAIT_SECONDS}&limit=5000`;
        const response = await fetchImpl(url, {
          headers: { Accept: "application/json" }, credentials: "same-origin", signal: controller.signal,
        });
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        const body = await response.json();
        pause = 500;
        onStatus("live");
        if (body.seq > after) {
          await onChange(body.seq, body);
          after = body.seq;  // only once handled: a failure is retried from the same seq
        }
        if (body.status === FINISHED) {  // the game is over: no more events to wait for
          stopped = true;
          onStatus("ended");
          return;
        }
      } catch (err) {
        if (stopped) return;
        onStatus("reconnecting");
        await new Promise((resolve) => setTimeout(resolve, pause));
        pause = Math.min(pause * 2, 8000);
      }
    }
  }
  loop();
  return function stop() {
    stopped = true;
    if (controller) controller.abort();
  };
}
