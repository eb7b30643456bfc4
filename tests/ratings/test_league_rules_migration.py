"""ratings/0002-0003 and games/0029 move each club's league rules from Club's columns to a
LeagueRules row of the ratings: on a populated database (PostgreSQL in `make test-postgres`,
SQLite elsewhere) every club's values arrive as they were, a club that never changed them gets
the defaults, and backwards the columns get the rows' values again."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.ratings.league_rules import rules_of_club_id

# Migrations are DDL: as the owner in the PostgreSQL stages (tests/conftest.py's as_owner).
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("as_owner")]

BEFORE = [("ratings", "0001_initial"), ("games", "0028_club_league_rates_bot_games")]
RULES = ("leads_with", "min_games", "inactive_days", "season_start_month", "rates_bot_games")
OLD = {
    "league_leads_with": "predictive",
    "league_min_games": 12,
    "league_inactive_days": 0,
    "league_season_start_month": 9,
    "league_rates_bot_games": True,
}


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def leaves():
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


def test_each_clubs_league_rules_move_to_the_ratings_and_back():
    old = migrate(BEFORE)
    Club = old.get_model("games", "Club")
    chosen = Club.objects.create(name="Chosen", slug="chosen", **OLD)
    plain = Club.objects.create(name="Plain", slug="plain")  # the columns' defaults
    defaults = {k: getattr(plain, k) for k in OLD}
    assert defaults == {
        "league_leads_with": "elo",
        "league_min_games": 5,
        "league_inactive_days": 180,
        "league_season_start_month": 1,
        "league_rates_bot_games": False,
    }
    try:
        new = migrate(leaves())
        rows = {r["club_id"]: r for r in new.get_model("ratings", "LeagueRules").objects.values()}
        assert set(rows) == {chosen.pk, plain.pk}
        assert {k: rows[chosen.pk][k] for k in RULES} == {k: OLD["league_" + k] for k in RULES}
        assert {k: rows[plain.pk][k] for k in RULES} == {k: defaults["league_" + k] for k in RULES}
        assert not rows[chosen.pk]["follows_tournament_vp"] and not rows[plain.pk]["follows_tournament_vp"]
        assert not [f.name for f in new.get_model("games", "Club")._meta.fields if f.name.startswith("league_")]
        # the app reads them there
        assert rules_of_club_id(chosen.pk).min_games == 12 and rules_of_club_id(plain.pk).leads_with == "elo"

        back = migrate(BEFORE)  # backwards: the columns again, with the rows' values
        clubs = {c["id"]: c for c in back.get_model("games", "Club").objects.values("id", *OLD)}
        assert {k: clubs[chosen.pk][k] for k in OLD} == OLD
        assert {k: clubs[plain.pk][k] for k in OLD} == defaults
    finally:
        migrate(leaves())
