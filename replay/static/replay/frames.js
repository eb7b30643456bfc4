/* The frames on the wire (replay/frames/, docs/viewer.md "Frames on the wire"): frame 0 whole,
 * then per event only the keys that changed; "key+" = items appended; per-seat lists as
 * {seat: value}; "-" lists the keys that went away. Expanded once, when the payload arrives. */

function applyDelta(prev, d, perSeat) {
  const f = Object.assign({}, prev);
  for (const k in d) {
    if (k === "-") continue;
    const v = d[k];
    if (k.charAt(k.length - 1) === "+") {
      const base = k.slice(0, -1);
      f[base] = (prev[base] || []).concat(v);
    } else if (perSeat[k] && v && !Array.isArray(v) && typeof v === "object") {
      const arr = (prev[k] || []).slice();
      for (const i in v) arr[+i] = v[i];
      f[k] = arr;
    } else {
      f[k] = v;
    }
  }
  (d["-"] || []).forEach((key) => { delete f[key]; });
  return f;
}

/** Every frame whole, each with its position `n` and its event in words `text`. */
export function expandFrames(payload) {
  const perSeat = {};
  payload.per_seat.forEach((k) => { perSeat[k] = true; });
  const out = new Array(payload.frames.length);
  let acc = {};
  for (let i = 0; i < payload.frames.length; i++) {
    acc = applyDelta(acc, payload.frames[i], perSeat);
    acc.n = i;
    acc.text = payload.texts[i];
    out[i] = acc;
  }
  return out;
}
