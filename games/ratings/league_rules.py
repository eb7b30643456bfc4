"""A club's league rules (models.LeagueRules): read with their defaults, changed by the club's
admins (docs/ratings.md "League rules").

A club has no row until an admin first saves its rules: `rules_of` answers the defaults for it,
so that reading a league never writes. `league_settings_update` is the one write, for the
settings page and the API: the admin role checked (by the club's own service, which also takes
the club's time zone), the change audited in the club's history, and when a rule that changes
what the league rates changed (`RERATING`), the club's ratings recomputed from refolded outcomes
after the commit."""

from __future__ import annotations

import logging
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from games.clubs import services as club_services
from games.models import Club
from games.services import InvalidInput

from .models import LeagueRules

logger = logging.getLogger(__name__)

#: the rules a club sets, in the order its settings form shows them
RULE_FIELDS = (
    "leads_with",
    "min_games",
    "inactive_days",
    "season_start_month",
    "rates_bot_games",
    "follows_tournament_vp",
)
#: the rules that change what the league rates (which games, and who won them): a change
#: recomputes the club's ratings from refolded outcomes; the others only change what is shown
RERATING = ("rates_bot_games", "follows_tournament_vp")
#: the audit's key of a rule: the name the column had on Club, so that the club's history says
#: old and new entries alike (replay/clubs/audit_lines.py)
AUDIT_PREFIX = "league_"


#: a rule's value that leads the league page with the predictive table
LEADS_WITH_PREDICTIVE = LeagueRules.LeadsWith.PREDICTIVE


def rule_form_fields() -> dict[str, Any]:
    """The rules as form fields, with the types, choices and bounds their model declares (the
    settings page words them: replay/league/forms.py)."""
    from django.forms import fields_for_model

    fields = dict(fields_for_model(LeagueRules, fields=list(RULE_FIELDS)))
    for name, field in fields.items():  # the model's bounds refuse a value at the field, in words
        field.validators = [*field.validators, *LeagueRules._meta.get_field(name).validators]
    return fields


def rule_values(rules: LeagueRules) -> dict[str, Any]:
    """A club's rules as the settings form's initial values."""
    return {f: getattr(rules, f) for f in RULE_FIELDS}


def choice_words(field: str) -> dict[Any, str]:
    """A league rule's choices in words (value -> label), as the model declares them
    (FieldDoesNotExist for a name that is not a rule): the club's history says old changes so."""
    return {k: str(v) for k, v in LeagueRules._meta.get_field(field).flatchoices}


def rules_of(club: Club) -> LeagueRules:
    """The club's rules; the defaults (an unsaved row) for a club that never changed them. Read
    once per club instance (Django keeps the row on it)."""
    try:
        return club.league_rules
    except LeagueRules.DoesNotExist:
        return LeagueRules(club_id=club.pk)


def rules_of_club_id(club_id: int) -> LeagueRules:
    """As `rules_of`, by the club's id (the rating task, which holds a game, not its club)."""
    return LeagueRules.objects.filter(club_id=club_id).first() or LeagueRules(club_id=club_id)


def league_settings_update(*, club: Club, actor, time_zone: str | None = None, **changes: Any) -> LeagueRules:
    """Change the club's league rules (and its time zone, which its evenings are counted in): the
    club's admins only (WriteForbidden), values checked by the model's validators (InvalidInput,
    in words)."""
    unknown = sorted(set(changes) - set(RULE_FIELDS))
    if unknown:
        raise InvalidInput(
            _("no such league rule: %(given)s (the rules: %(rules)s)")
            % {"given": ", ".join(unknown), "rules": ", ".join(RULE_FIELDS)},
            code="invalid",
        )
    with transaction.atomic():
        # the club's service checks the admin role (the memberships locked) and takes the time zone
        club_services.club_update(club=club, actor=actor, **({} if time_zone is None else {"time_zone": time_zone}))
        rules, _created = LeagueRules.objects.select_for_update().get_or_create(club=club)
        before = {k: getattr(rules, k) for k in changes}
        for name, value in changes.items():
            setattr(rules, name, value)
        try:
            rules.full_clean(exclude=["club"])
        except ValidationError as err:
            raise InvalidInput(" ".join(err.messages), code="invalid") from None
        rules.save()
        changed = {k: [before[k], v] for k, v in changes.items() if before[k] != v}
        if changed:
            club_services.audit(
                club,
                actor,
                "club_updated",
                "changed the club's "
                + ", ".join(f"{AUDIT_PREFIX}{k} from {a!r} to {b!r}" for k, (a, b) in changed.items()),
                changes={AUDIT_PREFIX + k: pair for k, pair in changed.items()},
            )
        if set(changed) & set(RERATING):  # what the league rates changed: its ratings again
            club_id = club.pk
            transaction.on_commit(lambda: _rerate(club_id))
    club.league_rules = rules  # the instance reads the rules just saved
    return rules


def _rerate(club_id: int) -> None:
    """Queue the club's recompute from refolded outcomes; the rules stand even if the broker is
    down (logged with the command that catches up)."""
    from .tasks import recompute_ratings

    try:
        recompute_ratings.delay(club_id, refold=True)
    except Exception:  # noqa: BLE001 - the rules are committed; never turn it into a 500
        logger.exception(
            "club %s: ratings recompute not queued after a league rule changed; run "
            "manage.py recompute_ratings --club %s --refold",
            club_id,
            club_id,
        )
