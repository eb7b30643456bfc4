"""The players of a club (clubs and memberships: games.clubs.services)."""
from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from games import selectors
from games.models import Club, Player

from .checks import _check_name
from .errors import InvalidInput


def player_create(*, club: Club, name: str) -> Player:
    name = _check_name(name).strip()
    existing = selectors.player_named(club, name)
    if existing is not None:
        raise InvalidInput(_("%(club)s already has a player named “%(name)s”") % {"club": club, "name": existing.name},
                           code="duplicate")
    try:
        with transaction.atomic():
            return Player.objects.create(club=club, name=name)
    except IntegrityError:
        raise InvalidInput(_("%(club)s already has a player named “%(name)s”") % {"club": club, "name": name},
                           code="duplicate") from None


def players_for_names(*, club: Club, names: list[str]) -> list[Player]:
    """The club's Player rows for these display names, in order, creating the new ones. A name
    names the roster's player whatever its case and surrounding spaces ("anna " is "Anna")."""
    players = []
    for name in names:
        name = _check_name(name).strip()
        player = selectors.player_named(club, name)
        if player is None:
            try:
                with transaction.atomic():
                    player = Player.objects.create(club=club, name=name)
            except IntegrityError:  # created by a concurrent request meanwhile
                player = selectors.player_named(club, name)
        players.append(player)
    return players
