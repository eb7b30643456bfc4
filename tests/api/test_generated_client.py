"""A typed client generated from the served OpenAPI document works, as a club's bot would use it.

`openapi-python-client` (pinned in the dev extras) generates a client from `/api/schema/`; the test
imports it and drives the API through it — in process, over httpx's WSGI transport, against the
test database — checking that every answer parses into the type the schema declares (no
`KeyError`, no undocumented status): sign in, create a game, append a bot game event by event, a
stale `expected_seq` (409), an illegal event (422), an idempotent retry, a key reused with another
body, export and re-import (`already_imported`), a tournament and its standings. An anonymous
`Client` reads a public club's game; `Bearer` and `Token` both authenticate (issue 37, item 1).
"""

from __future__ import annotations

import importlib
import json
import os
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import httpx
import pytest
from django.core.wsgi import get_wsgi_application
from django.test import Client as DjangoClient

from games.engine import random_record

PACKAGE = "tichu_api_client"


@pytest.fixture(scope="module")
def generated(tmp_path_factory, django_db_blocker):
    """The client package generated from the schema the server serves (JSON), importable."""
    with django_db_blocker.unblock():
        response = DjangoClient().get("/api/schema/?format=json", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    folder = tmp_path_factory.mktemp("client")
    (folder / "schema.json").write_bytes(response.content)
    # The club archive is gzip'd JSON lines: the generator knows binary bodies as octet-stream.
    (folder / "config.yaml").write_text(
        f"package_name_override: {PACKAGE}\nproject_name_override: {PACKAGE}\n"
        "content_type_overrides:\n  application/gzip: application/octet-stream\n"
    )
    bin_dir = Path(sys.executable).parent
    tool = shutil.which("openapi-python-client", path=str(bin_dir)) or shutil.which("openapi-python-client")
    assert tool, "openapi-python-client is a dev dependency (pyproject.toml): is the .venv installed?"
    done = subprocess.run(
        [
            tool,
            "generate",
            "--path",
            "schema.json",
            "--config",
            "config.yaml",
            "--meta",
            "none",
            "--output-path",
            PACKAGE,
        ],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=180,
        env={**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    # The generator says what it could not generate: nothing may be missing.
    assert "warning" not in (done.stdout + done.stderr).lower(), done.stdout + done.stderr
    sys.path.insert(0, str(folder))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(folder))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[name]


def _transport() -> httpx.WSGITransport:
    return httpx.WSGITransport(app=get_wsgi_application())


def _module(pkg, path: str):
    return importlib.import_module(f"{pkg.__name__}.{path}")


def _parsed(response, model):
    assert isinstance(response.parsed, model), (response.status_code, response.content[:500])
    return response.parsed


@pytest.mark.django_db(transaction=True)
def test_a_generated_client_signs_in_and_plays_a_game_through_every_answer(generated, make_user, make_club):
    pkg = generated
    models = _module(pkg, "models")
    api = lambda name: _module(pkg, f"api.{name}")  # noqa: E731
    ada = make_user("ada")
    ada.set_password("a-long-pass-phrase")
    ada.save()
    make_club("home", scorer=ada)
    headers = {"Accept-Language": "en"}

    # Sign in: JSON body, typed request and response.
    anonymous = pkg.Client(base_url="http://testserver", headers=headers, httpx_args={"transport": _transport()})
    token_call = api("auth.auth_token_create")
    signed = token_call.sync_detailed(
        client=anonymous, body=models.TokenInput(username="ada", password="a-long-pass-phrase")
    )
    assert signed.status_code == 200
    token = _parsed(signed, models.TokenOutput).token
    wrong = token_call.sync_detailed(client=anonymous, body=models.TokenInput(username="ada", password="nope"))
    assert wrong.status_code == 400 and _parsed(wrong, models.Error).code == "invalid"

    # The client's default prefix (Bearer) authenticates, as does DRF's Token.
    bot = pkg.AuthenticatedClient(
        base_url="http://testserver", token=token, headers=headers, httpx_args={"transport": _transport()}
    )
    as_token = pkg.AuthenticatedClient(
        base_url="http://testserver",
        token=token,
        prefix="Token",
        headers=headers,
        httpx_args={"transport": _transport()},
    )

    record = random_record(seed=7, options={"hands": 1})  # one hand: the game finishes
    created = api("games.games_create").sync_detailed(
        client=bot,
        body=models.GameCreateInput.from_dict(
            {"club": "home", "variant": "nanking", "options": {"hands": 1}, "players": record["players"]}
        ),
    )
    assert created.status_code == 201
    game_id = _parsed(created, models.WriteOutput).id

    append = api("games.games_events_create")
    seq = 0
    for event in record["events"]:
        body = models.EventsAppendInput.from_dict({"expected_seq": seq, "events": [event]})
        answer = append.sync_detailed(game_id, client=bot if seq % 2 == 0 else as_token, body=body)
        assert answer.status_code == 201, answer.content
        seq = _parsed(answer, models.WriteOutput).seq
    assert seq == len(record["events"])

    # A stale expected_seq: 409 with the stream's seq, in the one error shape.
    stale = append.sync_detailed(
        game_id,
        client=bot,
        body=models.EventsAppendInput.from_dict({"expected_seq": 0, "events": [{"type": "pass", "seat": 0}]}),
    )
    assert stale.status_code == 409
    conflict = _parsed(stale, models.Error)
    assert (conflict.code, conflict.current_seq) == ("seq_conflict", seq)

    # An illegal event: 422, the rule's code at the top and in `error`.
    refused = append.sync_detailed(
        game_id,
        client=bot,
        body=models.EventsAppendInput.from_dict({"expected_seq": seq, "events": [{"type": "pass", "seat": 9}]}),
    )
    assert refused.status_code == 422
    error = _parsed(refused, models.Error)
    assert error.ok is False and error.index == 0 and error.error.code == error.code

    # An idempotent create retried: the first answer again; the key with another body: 422.
    key = str(uuid.uuid4())
    create = api("games.games_create")
    body = models.GameCreateInput.from_dict({"club": "home", "variant": "nanking", "players": ["P", "Q", "R", "S"]})
    first = create.sync_detailed(client=bot, body=body, idempotency_key=key)
    again = create.sync_detailed(client=bot, body=body, idempotency_key=key)
    assert _parsed(first, models.WriteOutput).id == _parsed(again, models.WriteOutput).id
    assert again.headers.get("Idempotent-Replayed") == "true"
    other = models.GameCreateInput.from_dict({"club": "home", "variant": "nanking", "players": ["P", "Q", "R", "T"]})
    reused = create.sync_detailed(client=bot, body=other, idempotency_key=key)
    assert reused.status_code == 422 and _parsed(reused, models.Error).code == "idempotency_key_reused"

    # Read back as a stranger (a public club), export the record and import it: already imported.
    read = api("games.games_retrieve").sync_detailed(game_id, client=anonymous)
    assert _parsed(read, models.GameOutput).id == game_id
    score = _parsed(api("games.games_score_retrieve").sync_detailed(game_id, client=anonymous), models.GameScoreOutput)
    assert len(score.hands) == 1 and score.hands[0].out and score.ok is True
    state = _parsed(
        api("games.games_state_retrieve").sync_detailed(game_id, client=anonymous, at=3), models.GameStateOutput
    )
    assert state.events == 3
    events = _parsed(
        api("games.games_events_retrieve").sync_detailed(game_id, client=anonymous, after=seq - 2),
        models.GameEventsOutput,
    )
    assert [e.seq for e in events.events] == [seq - 1, seq] and events.more is False
    legal = _parsed(api("games.games_legal_retrieve").sync_detailed(game_id, client=bot), models.LegalOutput)
    assert legal.seq == seq
    exported = api("games.games_record_retrieve").sync_detailed(game_id, client=anonymous)
    record_out = _parsed(exported, models.GameRecordOutput)
    assert len(record_out.events) == seq
    record_body = json.loads(exported.content)
    imported = api("games.games_import_create").sync_detailed(
        client=bot, club="home", body=models.RecordImportInput.from_dict(record_body)
    )
    assert imported.status_code == 200, imported.content
    again_game = _parsed(imported, models.WriteOutput)
    assert again_game.already_imported is True and again_game.id == game_id

    # A tournament: created, entries registered, standings read as a stranger.
    tournament = api("tournaments.tournaments_create").sync_detailed(
        client=bot,
        body=models.TournamentCreateInput.from_dict(
            {
                "club": "home",
                "name": "Thursday",
                "header": {
                    "entrants": "pairs",
                    "system": "swiss",
                    "scoring": "round_vp",
                    "rounds": 2,
                    "hands_per_round": 1,
                },
            }
        ),
    )
    assert tournament.status_code == 201, tournament.content
    tid = _parsed(tournament, models.WriteOutput).id
    pairs = [["Anna", "Ben"], ["Cleo", "Dan"], ["Eva", "Finn"], ["Gus", "Hanna"]]
    registered = api("tournaments.tournaments_events_create").sync_detailed(
        tid,
        client=bot,
        body=models.TournamentEventsAppendInput.from_dict(
            {
                "expected_seq": 0,
                "events": [{"type": "entry_registered", "entry": f"e{i}", "players": p} for i, p in enumerate(pairs)],
            }
        ),
    )
    assert _parsed(registered, models.WriteOutput).seq == 4
    standings = _parsed(
        api("tournaments.tournaments_standings_retrieve").sync_detailed(tid, client=anonymous), models.StandingsOutput
    )
    assert standings.ranked is False and len(standings.standings) == 4
    crosstable = _parsed(
        api("tournaments.tournaments_crosstable_retrieve").sync_detailed(tid, client=anonymous), models.CrosstableOutput
    )
    assert [row.entry for row in crosstable.crosstable] == ["e0", "e1", "e2", "e3"]

    # The club's feed, as a bot follows it: the games started and finished above, typed.
    club_feed = _parsed(
        api("clubs.clubs_feed_retrieve").sync_detailed("home", client=anonymous, after=0), models.FeedOutput
    )
    kinds = [(e.kind.value, e.game) for e in club_feed.entries]
    assert ("game_started", game_id) in kinds and ("game_finished", game_id) in kinds
    assert club_feed.last == club_feed.entries[-1].seq

    # The league (both tables) and a player's ratings, as a club's website shows them.
    league = _parsed(api("clubs.clubs_league_retrieve").sync_detailed("home", client=anonymous), models.LeagueOutput)
    assert len(league.tables) == 2
    ratings = _parsed(
        api("players.players_ratings_retrieve").sync_detailed(read.parsed.player_ids[0], client=anonymous),
        models.PlayerRatingsOutput,
    )
    assert ratings.player == record["players"][0]


def test_every_operation_declares_whether_it_needs_an_account():
    """Public reads are anonymous in the schema (an empty security requirement); writes and the
    members' reads are not — what the generated client's `Client` / `AuthenticatedClient` follow."""
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    anonymous = {
        (m.upper(), p)
        for p, ops in schema["paths"].items()
        for m, op in ops.items()
        if {} in (op.get("security") or [{}])
    }
    for expected in [
        ("GET", "/api/games/{id}/record/"),
        ("GET", "/api/clubs/"),
        ("POST", "/api/auth/token/"),
        ("GET", "/api/tournaments/{id}/standings/"),
    ]:
        assert expected in anonymous
    for expected in [
        ("POST", "/api/games/{id}/events/"),
        ("GET", "/api/clubs/{id}/members/"),
        ("GET", "/api/games/{id}/legal/"),
        ("DELETE", "/api/auth/token/"),
    ]:
        assert expected not in anonymous
    assert set(schema["components"]["schemas"]) & {"ErrorOutput", "SeqConflictOutput", "RuleErrorOutput"} == set()
