/* The viewer's state: the payload the server embedded (or the live hook brought), its frames
 * expanded, the card faces, and where the reader is (position, view, table turn, autoplay).
 * Nothing here knows a rule of the game: the frames are the engine's state_json per event. */
import { makeWords, readWords } from "../shared/cards.js";
import { expandFrames } from "./frames.js";

export const $ = (id) => document.getElementById(id);
export const root = $("replay");

/** The game as the payload has it; replaced as a whole by `load` (a game in play grows). */
export const D = {
  P: null, L: null, frames: [], length: 0, players: [], nSeats: 0,
  undone: {},  // positions of corrections (an undo and the event it took back)
  words: null,  // the shared card faces (static/shared/cards.js): the Tichu deck + a variant's own
  extraCards: {},
};

/** Where the reader is. */
export const S = { at: 0, view: "all", bottom: 0, playing: false, timer: null, showUndone: false, lastRenderMs: 0 };

/** A seat's name; "?" for anything that is not a seat of this game. */
export function name(seat) {
  return (typeof seat === "number" && seat >= 0 && seat < D.nSeats) ? D.players[seat] : "?";
}

export function parseView(raw, dflt) {
  if (raw === null || raw === undefined || raw === "") return dflt;
  if (raw === "all") return "all";
  const s = parseInt(raw, 10);
  return (s >= 0 && s < D.nSeats) ? s : dflt;
}
export function parseSeat(raw, dflt) {
  const s = parseInt(raw, 10);
  return (s >= 0 && s < D.nSeats) ? s : dflt;
}

/** The engine's card faces and words in the page's language (json_script "tichu-words",
 * engine.page_words(): the same JSON as the entry pages'). */
let pageWords = null;

/** Takes a payload (replay/frames/ payload): frames expanded, corrections marked, faces known. */
export function load(payload) {
  if (pageWords === null) pageWords = readWords();
  D.P = payload;
  D.L = payload.labels;
  D.players = payload.players;
  D.nSeats = payload.players.length;
  D.length = payload.length;
  D.frames = expandFrames(payload);
  D.undone = {};
  (payload.marks.undone || []).forEach((k) => { D.undone[k] = true; });
  if (payload.cards) D.extraCards = Object.assign({}, D.extraCards, payload.cards);  // Tien Zi Que's cards
  D.words = makeWords(pageWords, name, D.extraCards);
}

/** The first payload (embedded in the page) and the position the server rendered. */
export function start() {
  load(JSON.parse($("replay-data").textContent));
  S.at = parseInt(root.getAttribute("data-at"), 10) || 0;
  S.view = parseView(root.getAttribute("data-view"), "all");
  S.bottom = parseSeat(root.getAttribute("data-bottom"), 0);
  S.showUndone = root.classList.contains("show-undone");
}

/** Cards as the viewer draws them (templatetags/replay_tags.py `cards`): `last` outlined. */
export function cardsHtml(codes, last) {
  let out = "";
  for (let i = 0; i < codes.length; i++) out += D.words.cardHtml(codes[i], last && codes[i] === last ? "last" : "");
  return out;
}
