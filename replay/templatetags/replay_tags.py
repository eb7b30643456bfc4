"""`{% card code %}`: one card as HTML, the same markup the scripts write (`cardHtml` of
`static/shared/cards.js`; see frames.card_face), its name in the request's language (the engine's
card words, as the page's payload has them);
`{{ variant|game_label }}`: a game's name as its edition in the request's language says it
(engine.variant_name: "Tichu", "Tien Zi Que"; the identifier itself for a game the engine does not know)."""

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext

from games import engine
from replay import frames, present

register = template.Library()


@register.filter
def game_label(variant: str) -> str:
    return engine.variant_name(variant, get_language())


def card_html(code: str, extra_class: str = "") -> str:
    if code == frames.HIDDEN:
        return format_html(
            '<span class="card back{}" role="img" aria-label="{}" data-card="?"></span>',
            extra_class,
            gettext("hidden card"),
        )
    face = engine.words(get_language()).card_face(code)
    return format_html(
        '<span class="card {}{}" role="img" aria-label="{}" title="{}" data-card="{}">'
        '<span class="rk">{}</span><span class="su" aria-hidden="true">{}</span></span>',
        face["cls"],
        extra_class,
        face["name"],
        face["name"],
        code,
        face["rank"],
        face["suit"],
    )


@register.simple_tag
def card(code: str, last: str | None = None):
    return card_html(code, " last" if last and last == code else "")


@register.simple_tag
def cards(codes, last: str | None = None):
    return format_html_join("", "{}", ((card_html(c, " last" if last and c == last else ""),) for c in codes))


@register.simple_tag
def hand_log_items(log, view, bottom, show_undone=False):
    """The hand's event list (present.hand_log_html, the one drawing of it)."""
    return mark_safe(present.hand_log_html(log, view, bottom, show_undone))


@register.simple_tag
def hand_log_key(log, view, bottom, show_undone=False):
    return present.hand_log_key(log, view, bottom, show_undone)


@register.filter
def mine(player_ids, site_nav) -> bool:
    """`{% if side.ids|mine:site_nav %}`: one of these roster players is the reader ("you")."""
    return bool(site_nav) and any(site_nav.is_me(p) for p in player_ids or ())


@register.filter
def is_reader(site_nav, player_id) -> bool:
    """`{% if site_nav|is_reader:player.pk %}`: this roster player is the reader."""
    return bool(site_nav) and site_nav.is_me(player_id)


@register.filter
def signed(value) -> str:
    """A change as a whole number with its sign: +14, −3 (the minus sign the score sheet uses), 0."""
    n = round(float(value))
    return f"+{n}" if n > 0 else f"\u2212{-n}" if n < 0 else "0"


@register.filter
def grouped(value) -> str:
    """A count with the reader's language's thousands separator: 2,204 / 2 204 / 2.204."""
    from django.utils.formats import number_format

    return number_format(value, force_grouping=True)
