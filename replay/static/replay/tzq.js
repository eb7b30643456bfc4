/* Tien Zi Que's table in the middle (drawn here only; docs/tien-zi-que.md): stock,
 * discard pile, score piles, combinations and totals, as the frame (the engine's state_json) has them. */
import { esc } from "../shared/cards.js";
import { gettext, interpolate, ngettext } from "../shared/i18n.js";
import { D, cardsHtml } from "./state.js";

const DISCARD_SHOWN = 6;
const dflt = (v, d) => (v === null || v === undefined ? d : v);

export function tzqHtml(f) {
  const stock = f.stock_size, discard = f.discard || [], chow = f.chowable || [], res = f.reshuffles || 0;
  const piles = f.score_piles || [], combos = f.combinations || [], totals = f.totals || [];
  const under = Math.max(0, discard.length - DISCARD_SHOWN);
  const inStock = esc(gettext("%(count)s in stock")).replace("%(count)s", '<b class="n">' + esc(dflt(stock, "–")) + "</b>");
  const discardLabel = esc(gettext("Discard pile %(count)s")).replace("%(count)s", '<b class="n">' + discard.length + "</b>");
  let html = '<div id="tzq" class="tzq" data-round="' + esc(dflt(f.round, "")) + '"><div class="tzq-row">' +
    '<div id="tzq-stock" class="stock" data-count="' + esc(dflt(stock, "")) + '" aria-label="' +
    esc(interpolate(ngettext("Stock: %(count)s card face down", "Stock: %(count)s cards face down", dflt(stock, 0)), { count: dflt(stock, 0) })) + '"><span class="card back" aria-hidden="true"></span> ' +
    inStock + (res ? ' <span class="reshuffles">(' + esc(interpolate(ngettext("%(count)s reshuffle", "%(count)s reshuffles", res), { count: res })) + ")</span>" : "") +
    '</div><div id="tzq-discard" class="discard" data-count="' + discard.length + '" data-cards="' + esc(discard.join(" ")) +
    '" aria-label="' + esc(interpolate(ngettext("Discard pile: %(count)s card, top card last", "Discard pile: %(count)s cards, top card last", discard.length), { count: discard.length })) + '"><span class="lbl">' +
    discardLabel + "</span>" + (under ? ' <span class="under" title="' + esc(gettext("cards under these")) + '">+' + under + "</span>" : "") +
    ' <span class="top">' + cardsHtml(discard.slice(-DISCARD_SHOWN)) + "</span>" +
    (chow.length ? ' <span class="chowable" data-cards="' + esc(chow.join(" ")) + '">' + esc(interpolate(gettext("open for a %(chow)s:"), { chow: D.words.term("event:chow", "Chow") })) + " " + cardsHtml(chow) + "</span>" : "") +
    "</div></div>";
  for (let s = 0; s < D.nSeats; s++) {
    const pile = piles[s] || [], cs = combos[s] || [], total = dflt(totals[s], null), who = esc(D.players[s]);
    html += '<div class="tzq-player" data-seat="' + s + '"><div class="tzq-head"><span class="who">' + who +
      '</span> <span class="total" data-total="' + esc(dflt(total, "")) + '">' + esc(interpolate(gettext("%(points)s pts"), { points: dflt(total, "–") })) + "</span></div>" +
      '<div class="pile" data-count="' + pile.length + '" aria-label="' +
      esc(interpolate(ngettext("%(name)s's score pile: %(count)s card", "%(name)s's score pile: %(count)s cards", pile.length), { name: D.players[s], count: pile.length })) +
      '"><span class="lbl">' + esc(gettext("Score pile")) + "</span> " + cardsHtml(pile) + "</div>" +
      '<ul class="combos" data-count="' + cs.length + '" aria-label="' +
      esc(interpolate(gettext("%(name)s's combinations: %(count)s"), { name: D.players[s], count: cs.length })) + '">';
    cs.forEach((c) => {
      html += '<li class="combo" data-action="' + esc(c.action || "") + '" data-kind="' + esc(c.kind || "") + '" data-keep="' +
        esc(dflt(c.keep, "")) + '">' + cardsHtml(c.cards || [], c.keep) + ' <span class="kind">' + esc(c.action ? D.words.term("event:" + c.action, c.action) : "") +
        " · " + esc(c.kind ? D.words.term("tzq_combination:" + c.kind, c.kind) : "") + "</span></li>";
    });
    html += "</ul></div>";
  }
  return html + "</div>";
}
