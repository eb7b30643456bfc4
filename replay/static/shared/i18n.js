/* The page scripts' own words in the page's language: Django's JavaScript catalogue (/jsi18n/,
 * locale/<lang>/LC_MESSAGES/djangojs.po, loaded by every page that has a script, before its
 * modules). The game's words (cards, calls, combinations, phases, event sentences) are the
 * engine's (static/shared/cards.js), never these.
 *
 *   gettext("Clear")
 *   interpolate(gettext("Saved: %(what)s (#%(seq)s)."), { what, seq })
 *   interpolate(ngettext("%(count)s card", "%(count)s cards", n), { count: n })
 *
 * Whole sentences with named placeholders, so that each language orders its own words. Without
 * the catalogue (a page that forgot the tag), English: the tests catch such a page. */

const catalogue = () => window.django || {};

export function gettext(text) {
  const c = catalogue();
  return typeof c.gettext === "function" ? c.gettext(text) : text;
}

export function ngettext(singular, plural, count) {
  const c = catalogue();
  return typeof c.ngettext === "function" ? c.ngettext(singular, plural, count) : count === 1 ? singular : plural;
}

/** %(name)s placeholders filled from `params` (a missing one is left as it is). */
export function interpolate(text, params) {
  return String(text).replace(/%\((\w+)\)s/g, (all, k) => (params[k] === undefined ? all : String(params[k])));
}

/** A short word whose sense its context gives ("S": the seat that shuffled). */
export function pgettext(context, text) {
  const c = catalogue();
  return typeof c.pgettext === "function" ? c.pgettext(context, text) : text;
}
