"""Tests' shortcut to a club's league rules (games.ratings.models.LeagueRules), set straight in
the database as a fixture would: the rules' own write, league_settings_update, is tested in
tests/ratings/test_league_pages.py and test_league_rules_vp.py."""

from __future__ import annotations

from games.models import Club
from games.ratings.models import LeagueRules


def set_league_rules(club: Club, **rules) -> LeagueRules:
    row, _ = LeagueRules.objects.update_or_create(club_id=club.pk, defaults=rules)
    club._state.fields_cache.pop("league_rules", None)  # the instance reads them anew
    return row
