"""The players of a club (clubs and memberships: games.clubs.services)."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from games import selectors, sql
from games.models import Club, Player

from .checks import _check_name
from .errors import InvalidInput


def player_create(*, club: Club, name: str) -> Player:
    name = _check_name(name).strip()
    existing = selectors.player_named(club, name)
    if existing is not None:
        raise InvalidInput(
            _("%(club)s already has a player named “%(name)s”") % {"club": club, "name": existing.name},
            code="duplicate",
        )
    try:
        with transaction.atomic():
            return Player.objects.create(club=club, name=name)
    except IntegrityError:
        raise InvalidInput(
            _("%(club)s already has a player named “%(name)s”") % {"club": club, "name": name}, code="duplicate"
        ) from None


def players_for_names(*, club: Club, names: list[str]) -> list[Player]:
    """The club's Player rows for these display names, in order, creating the new ones. A name
    names the roster's player whatever its case and surrounding spaces ("anna " is "Anna").

    In a few statements whatever the number of names (the bulk import asks for every player of
    a file): one query for the rows the names already have, one INSERT of the missing ones that
    leaves any the club got meanwhile to the unique constraint, one query for those. A row is
    matched to a name by its exact (trimmed) text; a name no row matches exactly (another case or
    spacing of a stored name) is looked up the database's way, LOWER(TRIM()), on its own."""
    wanted = [_check_name(name).strip() for name in names]
    found = _players_named(club, set(wanted))
    missing = list(dict.fromkeys(name for name in wanted if name not in found))  # first spelling first
    if missing:
        Player.objects.bulk_create([Player(club=club, name=name) for name in missing], ignore_conflicts=True)
        found.update(_players_named(club, set(missing)))
    players = []
    for name in wanted:
        player = found.get(name)
        if player is None:  # the name of a stored player with another case or spacing
            stored = selectors.player_named(club, name)
            if stored is None:  # the insert above left a row of this name, unless a concurrent write renamed it
                raise RuntimeError(f"player {name!r} of club {club.pk} was renamed or removed during the write")
            player = found[name] = stored
        players.append(player)
    return players


def _players_named(club: Club, names: set[str]) -> dict[str, Player]:
    """The club's players whose names are among `names`, by name; the query goes by the unique
    index on LOWER(TRIM(name)), and the rows are kept only where the text is the same."""
    return {p.name: p for p in sql.players_named(club.pk, sorted(names)) if p.name in names}
