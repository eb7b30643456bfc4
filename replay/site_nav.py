"""What the site's top bar offers the signed-in reader (templates/base.html): a player's own place
("My games") to whoever has a roster player linked to their account, "Enter games" only to a
club's scorers and admins (a viewer would end at "You score for no club"). Each answer is asked of
the database only when the template reads it, once per request."""

from __future__ import annotations

from functools import cached_property

from django.contrib.auth import get_user_model

from games import selectors


def _account(user) -> bool:
    """A signed-in account of the site (not a visitor, nor a table's code holder: a stand-in
    user of games.tournaments.table_codes with no account behind it)."""
    return user.is_authenticated and isinstance(user, get_user_model())


class SiteNav:
    def __init__(self, user):
        self.user = user

    @cached_property
    def scores(self) -> bool:
        """The reader scores for at least one club (the entry pages are theirs)."""
        return bool(_account(self.user) and selectors.scores_somewhere(self.user))

    @cached_property
    def player_ids(self) -> frozenset[int]:
        """The roster players linked to the reader (approved "This is me" claims): "you" on lists."""
        if not _account(self.user):
            return frozenset()
        return selectors.user_player_ids(self.user)

    @property
    def plays(self) -> bool:
        """The reader is linked to a roster player (the top bar's "My games")."""
        return bool(self.player_ids)

    def is_me(self, player_id) -> bool:
        return player_id in self.player_ids

    def names_in(self, club_id) -> frozenset[str]:
        """The reader's roster names in one club, trimmed and in lower case (a club's names are
        unique so: games.Player's constraint), for records that name players rather than point
        at them (a tournament's entries)."""
        if not self.player_ids:
            return frozenset()
        cache = self.__dict__.setdefault("_names_in", {})  # asked once per club and request
        if club_id not in cache:
            cache[club_id] = frozenset(n.strip().lower() for n in selectors.player_names(club_id, self.player_ids))
        return cache[club_id]


def site_nav(request) -> dict:
    """Context processor: `site_nav` for the top bar."""
    return {"site_nav": SiteNav(request.user)}
