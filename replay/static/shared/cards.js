/* Card faces and the engine's words, for every page script (entry, replay): one module, so a page
 * and another page's script cannot show a card or word an event differently.
 *
 *   import { readWords, makeWords } from "../shared/cards.js";
 *   const W = makeWords(readWords(), (seat) => players[seat]);
 *   W.cardHtml("Ts"); W.describe({ type: "pass", seat: 1 }); W.refusal(error);
 *
 * The words are the engine's (games/engine/wording.py `page_words()`), embedded by the server as
 * JSON (`<script type="application/json" id="tichu-words">`), in the page's language (the
 * engine's catalogue: en, fr, de, uk): the card faces of `engine.card_table()`, the rank names
 * and phrases ("an 8"), the templates of events and refusals, "{name:seat} plays {cards:cards}",
 * and the terms (`terms`: combinations, calls, phases, a push's `gift`, a nameless `seat`). The templates are filled here exactly as the
 * engine's `event_words` / `refusal_words` fill them in Python (tests compare the two). A refusal
 * is worded from its stable code and its params; one whose template needs a parameter the error
 * lacks (or has no template) falls back to the engine's message, seat numbers given as names.
 */

import { gettext } from "./i18n.js";

export function esc(s) {
  return String(s === null || s === undefined ? "" : s).replace(/[&<>"']/g, (c) => (
    { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

/** The words embedded in the page (json_script id "tichu-words" unless told). */
export function readWords(id = "tichu-words") {
  const el = document.getElementById(id);
  return el ? JSON.parse(el.textContent) : { cards: {}, rank_names: {}, rank_phrases: {}, events: {}, refusals: {}, play_suffixes: [], terms: {} };
}

const SLOT = /\{(\w+):(\w+)\}/g;
const asList = (v) => (Array.isArray(v) ? v : [v]);

/**
 * @param {object} W  the engine's words (readWords())
 * @param {(seat:number)=>string} nameOf  a seat's name on this page (players, Threechu's dummy)
 * @param {object} [extraCards]  faces of a game's own cards (Tien Zi Que), beyond the Tichu deck
 */
export function makeWords(W, nameOf, extraCards = {}) {
  const faces = { ...(W.cards || {}), ...extraCards };
  const T = W.terms || {};
  const name = (seat) => {
    const n = typeof seat === "number" ? nameOf(seat) : undefined;
    return n === undefined || n === null ? (T.seat || "seat {number:seat}").replace(SLOT, () => String(seat)) : n;
  };
  const face = (code) => faces[code] || { cls: "unknown", rank: code, suit: "", name: code };
  const cardName = (code) => face(code).name;
  const cardsText = (codes) => (codes || []).map(cardName).join(", ");
  const rankName = (r) => (W.rank_names || {})[r] || String(r);
  const rankPhrase = (r) => (W.rank_phrases || {})[r] || rankName(r);
  /** One of the engine's terms ("phase:play", "combination:pair", "call:tichu"), else `dflt`. */
  const term = (k, dflt) => (T[k] !== undefined ? T[k] : dflt === undefined ? k : dflt);
  /** A call's name as a badge or button says it: the engine's term, English's lower-case term
   * ("grand tichu") capitalised as the replay's labels have it ("Grand Tichu"). */
  const callName = (code) => {
    const plain = String(code).replace(/_/g, " "), said = term(`call:${code}`, plain);
    return said === plain ? plain.replace(/\b\w/g, (c) => c.toUpperCase()) : said;
  };

  /** A card as the viewer draws it (templatetags/replay_tags.py): `extra` adds CSS classes. */
  function cardHtml(code, extra = "") {
    if (code === "?") return `<span class="card back" role="img" aria-label="${esc(gettext("hidden card"))}" data-card="?"></span>`;
    const f = face(code);
    return `<span class="card ${f.cls}${extra ? " " + extra : ""}" role="img" aria-label="${esc(f.name)}" title="${esc(f.name)}" ` +
      `data-card="${esc(code)}"><span class="rk">${esc(f.rank)}</span><span class="su" aria-hidden="true">${esc(f.suit)}</span></span>`;
  }
  const cardsHtml = (codes) => (codes || []).map((c) => cardHtml(c)).join("");

  const kinds = {
    name,
    cards: (v) => asList(v).map(cardName).join(", "),
    card: (v) => cardName(String(v)),
    count: (v) => String(asList(v).length),
    rank: (v) => rankName(String(v)),
    phrase: (v) => rankPhrase(String(v)),
    words: (v, key) => T[`${key}:${v}`] || String(v).replace(/_/g, " "),
    number: (v) => String(v),
    gifts: (v) => Object.keys(v || {}).map((t) => fill(T.gift || "{cards:cards} to {name:to}", { cards: v[t], to: Number(t) })).join("; "),
  };

  /** The template with its slots filled from params; null when a slot's parameter is missing. */
  function fill(template, params) {
    let missing = false;
    const text = template.replace(SLOT, (all, kind, key) => {
      if (!params || params[key] === undefined || params[key] === null || !kinds[kind]) { missing = true; return ""; }
      return kinds[kind](params[key], key);
    });
    return missing ? null : text;
  }

  const given = (v) => v !== undefined && v !== null;
  /** The template of `key` filled (a play with its suffixes), or null (games/engine/wording.py _filled). */
  function filled(key, params) {
    const E = W.events || {};
    let template = E[key];
    if (params.type === "play") {
      const said = (W.play_suffixes || []).filter((k) => given(params[k]));
      const c = said.indexOf("combination"), p = said.indexOf("phoenix");
      if (c >= 0 && p >= 0) said.splice(c, p - c + 1, "combination+phoenix");
      template += said.map((k) => E[`play+${k}`]).join("");
    }
    return fill(template, params);
  }

  /** An event in the engine's words ("Dee plays Mahjong (1) and wishes for an 8"), exactly as
   * `engine.event_words(event, names, context, lang)`: `context` the facts of the position after
   * it (hand_number, round, combination, ...) chooses its `@frame` template; a masked card
   * ("?") is never named. */
  function describe(e, context) {
    const E = W.events || {};
    const kind = String(e.type);
    const bare = T[`event:${kind}`] || kind.replace(/_/g, " ");
    const params = { ...e, ...(context || {}) };
    if (JSON.stringify([e.cards, e.card, e.keep, e.take]).includes("?")) {
      return (E[`${kind}:hidden`] !== undefined && filled(`${kind}:hidden`, params)) || bare;
    }
    if (context && Object.keys(context).length) {
      for (const k of [`${kind}:${params.reason}@frame`, `${kind}@frame`]) {
        if (E[k] === undefined) continue;
        const text = filled(k, params);
        if (text !== null) return text;
      }
    }
    const plain = [`${kind}:${e.reason}`, kind].find((k) => E[k] !== undefined);
    return (plain && filled(plain, params)) || bare;
  }

  /** The engine's message with seat numbers given as names (the fallback of `refusal`). */
  function messageWords(err) {
    return String((err && err.message) || "").replace(/\bseats? (\d+)((?:, \d+)*)/g, (all, first, more) =>
      [first].concat(more ? more.split(", ").filter(Boolean) : []).map((x) => name(Number(x))).join(", "));
  }

  /** A refusal ({code, message, params}) in words, from its code and params. */
  function refusal(err) {
    if (!err) return "";
    const params = err.params || {}, R = W.refusals || {};
    const template = (params.rule && R[`${err.code}:${params.rule}`]) || R[err.code];
    return (template && fill(template, params)) || messageWords(err);
  }

  return { esc, name, term, callName, face, cardName, cardsText, cardHtml, cardsHtml, rankName, rankPhrase, fill, describe, refusal, messageWords };
}
