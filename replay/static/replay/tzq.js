/* Tien Zi Que's table in the middle (templates/replay/_tzq_table.html, present.tzq_table): stock,
 * discard pile, score piles, combinations and totals, as the frame (the engine's state_json) has them. */
import { esc } from "../shared/cards.js";
import { D, cardsHtml } from "./state.js";

const DISCARD_SHOWN = 6;
const dflt = (v, d) => (v === null || v === undefined ? d : v);
export const plural = (n) => (n === 1 ? "" : "s");

export function tzqHtml(f) {
  const stock = f.stock_size, discard = f.discard || [], chow = f.chowable || [], res = f.reshuffles || 0;
  const piles = f.score_piles || [], combos = f.combinations || [], totals = f.totals || [];
  const under = Math.max(0, discard.length - DISCARD_SHOWN);
  let html = '<div id="tzq" class="tzq" data-round="' + esc(dflt(f.round, "")) + '"><div class="tzq-row">' +
    '<div id="tzq-stock" class="stock" data-count="' + esc(dflt(stock, "")) + '" aria-label="Stock: ' + dflt(stock, 0) +
    " card" + plural(dflt(stock, 0)) + ' face down"><span class="card back" aria-hidden="true"></span> <b class="n">' +
    esc(dflt(stock, "–")) + "</b> in stock" + (res ? ' <span class="reshuffles">(' + res + " reshuffle" + plural(res) + ")</span>" : "") +
    '</div><div id="tzq-discard" class="discard" data-count="' + discard.length + '" data-cards="' + esc(discard.join(" ")) +
    '" aria-label="Discard pile: ' + discard.length + " card" + plural(discard.length) + ', top card last"><span class="lbl">Discard pile <b class="n">' +
    discard.length + "</b></span>" + (under ? ' <span class="under" title="cards under these">+' + under + "</span>" : "") +
    ' <span class="top">' + cardsHtml(discard.slice(-DISCARD_SHOWN)) + "</span>" +
    (chow.length ? ' <span class="chowable" data-cards="' + esc(chow.join(" ")) + '">open for a Chow: ' + cardsHtml(chow) + "</span>" : "") +
    "</div></div>";
  for (let s = 0; s < D.nSeats; s++) {
    const pile = piles[s] || [], cs = combos[s] || [], total = dflt(totals[s], null), who = esc(D.players[s]);
    html += '<div class="tzq-player" data-seat="' + s + '"><div class="tzq-head"><span class="who">' + who +
      '</span> <span class="total" data-total="' + esc(dflt(total, "")) + '">' + esc(dflt(total, "–")) + " pts</span></div>" +
      '<div class="pile" data-count="' + pile.length + '" aria-label="' + who + "'s score pile: " + pile.length +
      " card" + plural(pile.length) + '"><span class="lbl">Score pile</span> ' + cardsHtml(pile) + "</div>" +
      '<ul class="combos" data-count="' + cs.length + '" aria-label="' + who + "'s combinations: " + cs.length + '">';
    cs.forEach((c) => {
      html += '<li class="combo" data-action="' + esc(c.action || "") + '" data-kind="' + esc(c.kind || "") + '" data-keep="' +
        esc(dflt(c.keep, "")) + '">' + cardsHtml(c.cards || [], c.keep) + ' <span class="kind">' + esc(c.action || "") +
        " · " + esc(c.kind || "") + "</span></li>";
    });
    html += "</ul></div>";
  }
  return html + "</div>";
}
