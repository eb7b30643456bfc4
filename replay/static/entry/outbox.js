/* The entry page's outbox (docs/entry.md, "Offline at the table"): writes that have not reached
   the server yet, in the order they were made, kept in this browser's localStorage so a dropped
   connection (or a closed tab) loses nothing. Each item is the very request to send: its body
   carries its own `expected_seq` and it keeps its `Idempotency-Key`, so sending it again after a
   lost answer cannot store it twice, and a game that moved on meanwhile refuses it (409) instead
   of being overwritten. An item the server refused is `held`: it is shown, never sent again by
   itself, until the scorer discards it.

   Outbox(storageKey) -> { items, add, addFirst, drop, hold, clear, size } */

function load(key) {
  try {
    const raw = window.localStorage.getItem(key);
    const list = raw ? JSON.parse(raw) : [];
    return Array.isArray(list) ? list : [];
  } catch (e) { return []; }  // storage off (private mode) or damaged: start empty
}

export function Outbox(storageKey) {
  let items = load(storageKey);

  function save() {
    try {
      if (items.length) window.localStorage.setItem(storageKey, JSON.stringify(items));
      else window.localStorage.removeItem(storageKey);
    } catch (e) { /* kept in memory for this page's life */ }
  }
  const has = (key) => items.some((it) => it.key === key);

  return {
    items: () => items.slice(),
    size: () => items.length,
    add(req) { if (!has(req.key)) { items.push(req); save(); } },
    // a request that failed in flight goes back in front: it was made before anything queued
    addFirst(req) { if (!has(req.key)) { items.unshift(req); save(); } },
    drop(key) { items = items.filter((it) => it.key !== key); save(); },
    hold(why) { items.forEach((it) => { it.held = why; }); save(); },
    clear() { items = []; save(); },
  };
}
