/* The one way the site's pages talk to the game API (docs/entry.md, "Writes"): a read of JSON and
   a POST of events, each write with its `expected_seq`, the CSRF token and its own
   Idempotency-Key (a retried request with the same key cannot be stored twice). The pages (the
   Tichu family's entry, Tien Zi Que's entry) decide what to do with the answer; no page builds
   its own request.

   getJson(url) -> Promise<{status, body, redirected, url}>
   postEvents(url, {expectedSeq, events, key}) -> Promise<{status, body}>; status 0: no answer
   (the network), never a throw
   csrf(fallback), newKey() */

export function csrf(fallback) {
  const m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return m ? decodeURIComponent(m[1]) : fallback;
}

export function newKey() {
  if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
  return "k" + Date.now().toString(36) + Math.random().toString(36).slice(2);
}

export function getJson(url) {
  return fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } }).then((r) =>
    r.json().catch(() => ({})).then((body) => ({ status: r.status, body, redirected: r.redirected, url: r.url })));
}

/** POST `{expected_seq, events}` (or a body already made: `body`, as the entry's outbox keeps it). */
export function postEvents(url, { expectedSeq, events, key, body, token }) {
  return fetch(url, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrf(token), "Idempotency-Key": key || newKey() },
    body: body !== undefined ? body : JSON.stringify({ expected_seq: expectedSeq, events }),
  }).then((r) => r.json().catch(() => ({})).then((answer) => ({ status: r.status, body: answer })),
    () => ({ status: 0, body: {} }));
}
