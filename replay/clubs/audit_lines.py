"""The club history's lines in the reader's language (issue #21).

An audit entry keeps what happened as its action and details (games.clubs.services.audit); the
line is said here from those, when the page is read, in the reader's language. Its English
summary, written when it happened, is the line only for an entry whose details do not say
everything (one written before they did)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.core.exceptions import FieldDoesNotExist
from django.utils.dates import MONTHS
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import selectors
from games.ratings import league_rules
from replay.league.forms import LeagueSettingsForm

from .forms import ClubCreateForm

if TYPE_CHECKING:  # types only: the page reads through the selectors
    from games.clubs.models import AuditEntry

#: Memberships changed in the Django admin (games/admin.py)
ADMIN_LINES = {
    "admin_member_added": lambda: _("added %(user)s as %(role)s in the Django admin"),
    "admin_member_changed": lambda: _("set %(user)s's role to %(role)s in the Django admin"),
    "admin_member_removed": lambda: _("removed %(user)s (%(role)s) in the Django admin"),
}


def _role(value: str) -> str:
    return str(selectors.Role(value).label) if value in selectors.Role.values else value


def _rule(key: str) -> str:
    """A league rule's name on its model (games.ratings.models.LeagueRules) from its audit key,
    the name the column had on Club (games.ratings.league_rules.AUDIT_PREFIX)."""
    return key.removeprefix("league_")


def _setting(key: str) -> str:
    """A club setting by the label its form gives it."""
    for form, name in ((ClubCreateForm, key), (LeagueSettingsForm, key), (LeagueSettingsForm, _rule(key))):
        if name in form.base_fields and form.base_fields[name].label:
            return str(form.base_fields[name].label)
    return key


def _value(key: str, value) -> str:
    """A setting's value as its form offers it (a choice's label, a month's name)."""
    if key == "league_season_start_month":
        return str(MONTHS.get(value, value))
    try:
        return str(selectors.club_choice_words(key).get(value, value))
    except FieldDoesNotExist:
        pass
    try:
        return str(league_rules.choice_words(_rule(key)).get(value, value))
    except FieldDoesNotExist:
        return str(value)


def _said(entry: AuditEntry) -> str | None:
    d, action = entry.details, entry.action
    if action == "club_created" and "name" in d:
        return _("created the club “%(name)s”") % {"name": d["name"]}
    if action == "club_updated":
        changes = "; ".join(
            _("%(setting)s: %(old)s → %(new)s") % {"setting": _setting(k), "old": _value(k, old), "new": _value(k, new)}
            for k, (old, new) in d["changes"].items()
        )
        return _("changed the club's settings: %(changes)s") % {"changes": changes}
    if action in ADMIN_LINES:
        return ADMIN_LINES[action]() % {"user": d["user"], "role": _role(d["role"])}
    if action == "member_role":
        return _("changed %(user)s's role from %(old)s to %(new)s") % {
            "user": d["user"],
            "old": _role(d["old"]),
            "new": _role(d["new"]),
        }
    if action == "member_removed":
        if d["user"] == entry.actor_name:
            return _("left the club")
        return _("removed %(user)s (%(role)s) from the club") % {"user": d["user"], "role": _role(d["role"])}
    if action == "invitation_created" and "note" in d:
        words = {"note": d["note"], "role": _role(d["role"]), "days": d["days"]}
        if d["note"]:
            return (
                ngettext(
                    "invited %(note)s as %(role)s (link valid %(days)s day)",
                    "invited %(note)s as %(role)s (link valid %(days)s days)",
                    d["days"],
                )
                % words
            )
        return (
            ngettext(
                "invited someone as %(role)s (link valid %(days)s day)",
                "invited someone as %(role)s (link valid %(days)s days)",
                d["days"],
            )
            % words
        )
    if action == "invitation_revoked" and "role" in d:
        words = {"note": d.get("note", ""), "role": _role(d["role"])}
        if words["note"]:
            return _("revoked the invitation for %(note)s (%(role)s)") % words
        return _("revoked the invitation (%(role)s)") % words
    if action == "invitation_accepted":
        return _("joined the club as %(role)s by invitation") % {"role": _role(d["role"])}
    if action == "player_linked" and "name" in d:
        if "user" not in d:
            return _("is the player “%(player)s”") % {"player": d["name"]}
        if d["user"] == entry.actor_name:
            return _("said they are the player “%(player)s”") % {"player": d["name"]}
        return _("linked the player “%(player)s” to %(user)s") % {"player": d["name"], "user": d["user"]}
    if action == "player_unlinked" and "name" in d:
        return _("unlinked the player “%(player)s” from %(user)s") % {"player": d["name"], "user": d["user"]}
    if action == "claim_requested":
        if d.get("source") == "invitation":
            return _(
                "joined by an invitation for the player “%(player)s”, who is in a game in play: asked to be that player"
            ) % {"player": d["name"]}
        return _("asked to be the player “%(player)s”") % {"player": d["name"]}
    if action == "claim_withdrawn":
        return _("withdrew the request to be the player “%(player)s”") % {"player": d["name"]}
    if action == "claim_approved":
        return _("approved that %(user)s is the player “%(player)s”") % {"player": d["name"], "user": d["user"]}
    if action == "claim_refused":
        return _("refused that %(user)s is the player “%(player)s”") % {"player": d["name"], "user": d["user"]}
    if action == "players_added" and "names" in d:
        return _("added %(names)s to the roster") % {"names": ", ".join(d["names"])}
    if action == "player_renamed":
        return _("renamed the player “%(old)s” to “%(new)s”") % {"old": d["old"], "new": d["new"]}
    if action == "players_merged" and "target_name" in d:
        return ngettext(
            "merged the player “%(source)s” into “%(target)s” (%(count)s game moved)",
            "merged the player “%(source)s” into “%(target)s” (%(count)s games moved)",
            len(d["games"]),
        ) % {"source": d["source_name"], "target": d["target_name"], "count": len(d["games"])}
    if action == "webhook_added" and "url" in d:
        return _("added a webhook to %(url)s") % {"url": d["url"]}
    if action == "webhook_removed" and "url" in d:
        return _("removed the webhook to %(url)s") % {"url": d["url"]}
    return None


def line(entry: AuditEntry) -> str:
    """What the entry's actor did, in the active language (its stored summary when its details
    cannot say it)."""
    try:
        return _said(entry) or entry.summary
    except (KeyError, TypeError, ValueError, AttributeError):  # details of another shape than this module reads
        return entry.summary
