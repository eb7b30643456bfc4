"""`{% club_clock %}...{% endclub_clock %}`: the one home of "this page reads at the club's clock".

base.html wraps every page's content in it (and the projector, which has a page of its own), so a
club-scoped page cannot forget it: the club is found in the page's context (`club`, else the
`tournament`'s or the `game`'s club), which every club page has anyway for its title and
breadcrumbs. A middleware would have to resolve the club again from each URL's arguments (a
second query, and one more place a new URL shape could be forgotten); a mixin on each view could
be left off a new one. Inside, Django's current time zone is the club's (Club.time_zone), so every
`|date` of an instant prints the club's wall clock, as its evenings are counted
(games.ratings.evening); a page without a club keeps the site's zone (settings.TIME_ZONE).

Where the content shows a time of day (a `<time datetime="...T...">`, the site's markup for an
instant), one line at its end names the clock, so a reader in another country is not misled; once
a page: a tag inside another (a partial's own, for when a script fetches it alone) adds none, nor
does `{% club_clock quiet %}` (a partial swapped into a page that has its line already).
"""

from __future__ import annotations

import re

from django import template
from django.conf import settings
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import gettext

from games.ratings.evening import zone

register = template.Library()

#: An instant shown with its time of day (not a date alone: <time datetime="2026-01-15">).
TIME_OF_DAY = re.compile(r'<time [^>]*datetime="\d{4}-\d\d-\d\dT')
OUTER = "club_clock.outer"  # set in the context while a tag renders its content


def page_club(context: template.Context):
    """The club the page belongs to, or None."""
    for name, attr in (("club", None), ("tournament", "club"), ("game", "club")):
        obj = context.get(name)
        if obj is not None and attr:
            obj = getattr(obj, attr, None)
        if getattr(obj, "time_zone", None):
            return obj
    return None


def page_zone_name(context: template.Context) -> str:
    club = page_club(context)
    return club.time_zone if club is not None else settings.TIME_ZONE


class ClubClockNode(template.Node):
    def __init__(self, nodelist: template.NodeList, quiet: bool):
        self.nodelist, self.quiet = nodelist, quiet

    def render(self, context: template.Context) -> str:
        name = page_zone_name(context)
        inner = bool(context.get(OUTER))
        with timezone.override(zone(name)), context.push({OUTER: True}):  # the context: includes see it
            html = self.nodelist.render(context)
        if not (self.quiet or inner) and TIME_OF_DAY.search(html):
            html += format_html(
                '<p class="meta clock-note" id="clock-note">{}</p>',
                gettext("Times on this page are %(zone)s time.") % {"zone": name},
            )
        return html


@register.tag("club_clock")
def club_clock(parser: template.base.Parser, token: template.base.Token) -> ClubClockNode:
    bits = token.split_contents()
    if bits[1:] not in ([], ["quiet"]):
        raise template.TemplateSyntaxError("{% club_clock %} takes only 'quiet'")
    nodelist = parser.parse(("endclub_clock",))
    parser.delete_first_token()
    return ClubClockNode(nodelist, quiet=bits[1:] == ["quiet"])
