/* Tien Zi Que at an online table (docs/online.md): the seat page's table, hand and actions for a
 * game whose board is "rounds" (the engine's GameInfo.board; seat.js asks for this part then).
 * No rule lives here: the view's state is masked by the server (the other hand and the card it
 * drew are "?"), and the buttons are the engine's legal actions of this seat now, as the server
 * lists them: Draw (or the reshuffle of the discards when the stock is empty: the server orders
 * the cards), after a draw a card of the hand to discard, and every Pung or Chow the engine lists,
 * one row per combination with a button per card it may keep on the score pile.
 */
import { esc } from "../shared/cards.js";
import { gettext, interpolate, ngettext } from "../shared/i18n.js";

/** The Tien Zi Que part of a seat's page: `W` the engine's words, `button(text, onClick, cls)`
 * the page's buttons, `act(action)` sends one of the view's actions. */
export function tzqPart({ W, button, act }) {
  let picked = null; // the index in the hand of the card tapped to discard
  const term = (kind) => {
    const said = W.term("event:" + kind, kind);
    return said === kind ? kind.charAt(0).toUpperCase() + kind.slice(1) : said;
  };
  const hand = (view) => ((view.state.hands || [])[view.seat] || []);

  /** What the seat is waiting for, or its own move in words ("" to let the page say it). */
  function status(view) {
    const s = view.state;
    if (s.turn !== view.seat) return interpolate(gettext("Waiting for %(name)s."), { name: W.name(s.turn) });
    const words = s.phase === "drawn" ? gettext("Your turn: discard a card (tap it), or make a %(pung)s.")
      : gettext("Your turn: draw, or make a %(chow)s.");
    return interpolate(words, { pung: term("pung"), chow: term("chow") });
  }

  function seatHtml(view, seat) {
    const s = view.state;
    const pile = (s.score_piles || [])[seat] || [];
    const cls = `chip${s.turn === seat ? " turn" : ""}${seat === view.seat ? " me" : ""}`;
    const count = ((s.hands || [])[seat] || []).length;
    return `<li class="${cls}" data-seat="${seat}"><span class="who">${esc(W.name(seat))}</span> ` +
      `<span class="count">${esc(interpolate(ngettext("%(count)s card", "%(count)s cards", count), { count }))}</span> ` +
      `<span class="count">${esc(interpolate(gettext("%(points)s pts · pile %(count)s/5"), { points: (s.totals || [])[seat] ?? 0, count: pile.length }))}</span>` +
      ((view.bots || []).includes(seat) ? ` <span class="badge bot">${esc(gettext("bot"))}</span>` : "") +
      (pile.length ? `<span class="tzq-pile" aria-label="${esc(gettext("Score pile"))}">${W.cardsHtml(pile)}</span>` : "") + "</li>";
  }

  /** The table: both seats (cards in hand, points, score pile), the stock, the discards, the
   * cards open for a Chow, the last round's line. */
  function table(view) {
    const s = view.state;
    const discard = s.discard || [];
    const seats = (s.hands || []).map((h, seat) => seatHtml(view, seat)).join("");
    let center = "";
    if (s.phase === "action" || s.phase === "drawn" || s.phase === "reshuffle") {
      center = `<p class="tzq-center"><span class="stock" id="stock-count">${esc(gettext("Stock:"))} <b>${s.stock_size}</b></span> ` +
        `<span class="discard" id="discard-pile">${esc(interpolate(gettext("Discards (%(count)s):"), { count: discard.length }))} ${W.cardsHtml(discard.slice(-6))}</span>` +
        ((s.chowable || []).length ? ` <span class="chowable">${esc(interpolate(gettext("open for a %(chow)s:"), { chow: term("chow") }))} ${W.cardsHtml(s.chowable)}</span>` : "") + "</p>";
    }
    const sheet = s.score_sheet || [];
    const line = sheet[sheet.length - 1];
    const last = line ? `<p class="tzq-last" id="last-round">${esc(line.drawn
      ? interpolate(gettext("Round %(round)s: drawn, no points."), { round: line.round })
      : interpolate(gettext("Round %(round)s: %(name)s +%(points)s (Mah-jong by a %(by)s)."), { round: line.round, name: W.name(line.winner), points: line.points[line.winner], by: term(line.by) }))}</p>` : "";
    const round = s.round ? `<p class="meta">${esc(interpolate(gettext("Round %(round)s of %(rounds)s"), { round: s.round, rounds: (s.options || {}).rounds }))}</p>` : "";
    return `${round}<ul class="seats">${seats}</ul>${center}${last}`;
  }

  /** The seat's own hand, a button per card (the one just drawn marked); tapping picks it. */
  function handHtml(view) {
    const cards = hand(view);
    if (picked !== null && picked >= cards.length) picked = null;
    const drawn = view.state.turn === view.seat ? view.state.drawn : null;
    let markDrawn = Boolean(drawn);
    return cards.map((c, i) => {
      const isDrawn = markDrawn && c === drawn;
      if (isDrawn) markDrawn = false;
      const title = isDrawn ? interpolate(gettext("%(card)s (just drawn)"), { card: W.cardName(c) }) : W.cardName(c);
      return `<button type="button" class="hand-card${picked === i ? " selected" : ""}${isDrawn ? " drawn" : ""}" data-card="${esc(c)}" ` +
        `data-pick="${i}" aria-pressed="${picked === i}" title="${esc(title)}">${W.cardHtml(c)}</button>`;
    }).join("");
  }

  /** A tap on a card of the hand: picks it (or lets it go). */
  function pick(buttonEl) {
    const i = Number(buttonEl.dataset.pick);
    picked = picked === i ? null : i;
  }

  function combos(box, actions, title) {
    const groups = new Map();
    for (const a of actions) {
      const k = `${a.take || ""}|${a.cards.join(" ")}`;
      if (!groups.has(k)) groups.set(k, []);
      groups.get(k).push(a);
    }
    const wrap = document.createElement("div");
    wrap.className = "tzq-combos";
    wrap.setAttribute("role", "group");
    wrap.setAttribute("aria-label", title);
    wrap.innerHTML = `<p class="combo-title">${esc(title)}</p>`;
    for (const list of groups.values()) {
      const a = list[0];
      const row = document.createElement("div");
      row.className = "combo-row";
      row.dataset.type = a.type;
      row.innerHTML = `<span class="combo-cards">${W.cardsHtml(a.cards)}</span>` +
        (a.take ? ` <span class="hint">${esc(interpolate(gettext("takes the %(card)s"), { card: W.cardName(a.take) }))}</span>` : "") +
        ` <span class="keep-label">${esc(gettext("keep:"))}</span> `;
      for (const option of list) {
        const b = button("", () => act(option), "keep");
        b.innerHTML = W.cardHtml(option.keep);
        b.setAttribute("aria-label", interpolate(gettext("%(combo)s, keep the %(card)s"), { combo: term(option.type), card: W.cardName(option.keep) }));
        b.dataset.type = option.type;
        row.append(b);
      }
      wrap.append(row);
    }
    box.append(wrap);
  }

  /** The engine's actions of this seat now, as buttons in `box`. */
  function actions(view, box) {
    const of = (t) => view.actions.filter((a) => a.type === t);
    const draw = of("draw")[0], reshuffle = of("reshuffle")[0];
    if (draw) box.append(button(gettext("Draw from the stock"), () => act(draw), "primary"));
    if (reshuffle) {
      const n = reshuffle.stock.length;
      box.append(button(interpolate(ngettext("Shuffle the %(count)s discard into the stock", "Shuffle the %(count)s discards into the stock", n), { count: n }), () => act(reshuffle), "primary"));
    }
    const discards = of("discard");
    if (discards.length) {
      const card = picked !== null ? hand(view)[picked] : null;
      const discard = card ? discards.find((a) => a.card === card) : null;
      const b = discard ? button(interpolate(gettext("Discard the %(card)s"), { card: W.cardName(card) }), () => act(discard), "primary")
        : button(gettext("Discard: tap a card first"), () => {});
      b.disabled = !discard;
      b.dataset.type = "discard";
      box.append(b);
    }
    const pungs = of("pung"), chows = of("chow");
    if (pungs.length) combos(box, pungs, interpolate(gettext("%(pung)s (the fifth makes Mah-jong): tap the card to keep on the score pile"), { pung: term("pung") }));
    if (chows.length) combos(box, chows, interpolate(gettext("%(chow)s: tap the card to keep on the score pile"), { chow: term("chow") }));
  }

  const reset = () => { picked = null; };
  return { status, table, handHtml, pick, actions, reset };
}
