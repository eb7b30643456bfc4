"""Migration 0026 fills `content_hash` and `updated_at` for the games stored before: the same hash
the writes keep (an appended game's export is then recognised by an import), the newest event's
time."""

from __future__ import annotations

import datetime as dt
import importlib

import pytest
from django.apps import apps

from games.models import Event, Game
from games.services import append_events, game_create, game_import
from tests.api.helpers import grand_double, hand, record

pytestmark = pytest.mark.django_db

MIGRATION = importlib.import_module("games.migrations.0026_api_game_content_hash_updated_at")


def test_the_backfill_gives_what_the_writes_keep(scorer, club):
    appended = game_create(club=club, variant="nanking", options=None, players=list("ABCD"), user=scorer).body["id"]
    append_events(game=appended, events=[grand_double(0)] * 2, expected_seq=0, user=scorer)
    append_events(game=appended, events=[grand_double(0)], expected_seq=2, user=scorer)
    imported = game_import(club=club, record=record([hand()], meta={"source": "paper"}), user=scorer).body["id"]
    empty = game_create(
        club=club, variant="nanking", options={"target_score": 500}, players=list("ABCD"), user=scorer
    ).body["id"]
    kept = dict(Game.objects.values_list("pk", "content_hash"))
    assert len(set(kept.values())) == 3 and None not in kept.values()
    Game.objects.update(content_hash=None, updated_at=dt.datetime(2000, 1, 1, tzinfo=dt.timezone.utc))

    MIGRATION.fill(apps, None)

    assert dict(Game.objects.values_list("pk", "content_hash")) == kept
    newest = Event.objects.filter(game_id=appended).order_by("-seq").first().recorded_at
    assert Game.objects.get(pk=appended).updated_at == newest
    created = Game.objects.get(pk=empty)
    assert created.updated_at == created.created_at
    assert Game.objects.get(pk=imported).updated_at.year > 2000
