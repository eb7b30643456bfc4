"""A club with every kind of the club's rows (games appended and imported, finished and in play,
of several variants; a tournament with table links, codes and results; roster-only players;
members; invitations in each state; history; settings; an imported file; ratings), and the
row-by-row comparison of two clubs through an import's id mapping (tests/clubs/test_archive.py)."""

from __future__ import annotations

import hashlib
import re
from typing import Any

from django.db.models import Model
from django.utils import timezone
from rest_framework.test import APIClient

from games import engine, services
from games.clubs import services as club_services
from games.clubs.archive import KINDS, Kind
from games.models import Club, ImportedFile, ImportJob, Player
from games.online.models import OnlineSettings
from games.ratings.league_rules import league_settings_update
from games.ratings.models import GameOutcome, LeagueRules, PlayerRating, RatingChange, RatingPool
from games.ratings.services import recompute_club
from tests.api.helpers import grand_double, hand
from tests.conftest import client_for

PAIRS = [["Anna", "Ben"], ["Cleo", "Dan"], ["Eva", "Finn"], ["Gus", "Hanna"]]
HEADER = {"entrants": "pairs", "system": "swiss", "scoring": "round_vp", "rounds": 2, "hands_per_round": 1}


def build_club(make_user) -> Club:
    ann, bob, cid = make_user("ann", email="ann@example.org"), make_user("bob"), make_user("cid")
    club = club_services.club_create(name="Tuesday Club", slug="tuesday", visibility=Club.Visibility.PUBLIC, user=ann)
    club_services.club_update(
        club=club,
        actor=ann,
        reveal_hands=Club.RevealHands.AFTER_GAME,
    )
    league_settings_update(
        club=club, actor=ann, time_zone="Europe/Berlin", min_games=1, leads_with=LeagueRules.LeadsWith.PREDICTIVE
    )
    players, _ = club_services.players_add(
        club=club, actor=ann, names=["Ann", "Bob", "Cid", "Dee", "Roster Only", "Twin"]
    )
    by_name = {p.name: p for p in players}
    club_services.player_link(player=by_name["Ann"], actor=ann, user_id=ann.pk)
    club_services.player_merge(source=by_name["Twin"], target=by_name["Roster Only"], actor=ann)
    # invitations: accepted (with a player), pending, revoked
    accepted = club_services.invitation_create(club=club, actor=ann, role="scorer", note="Bob", player=by_name["Bob"])
    club_services.invitation_accept(token=accepted.token, user=bob)
    club_services.invitation_create(club=club, actor=ann, role="viewer", note="someone")
    revoked = club_services.invitation_create(club=club, actor=ann, role="viewer", note="Cid")
    club_services.invitation_revoke(invitation=revoked, actor=ann)
    del cid  # an account of the site that is no member
    # claims ("This is me"): one waiting, one refused by an admin
    dee, eve = make_user("dee"), make_user("eve")
    for user in (dee, eve):
        joined = club_services.invitation_create(club=club, actor=ann, role="viewer", note=user.username)
        club_services.invitation_accept(token=joined.token, user=user)
    club_services.claim_request(player=by_name["Dee"], actor=dee)
    refused = club_services.claim_request(player=by_name["Cid"], actor=eve)
    club_services.claim_decide(claim=refused, actor=ann, approve=False)

    scorer = client_for(bob)
    # appended games (recorded by bob, event by event): one finished, one in play
    finished = _new_game(scorer, club, ["Ann", "Bob", "Cid", "Dee"])
    for expected, event in enumerate(
        [grand_double(0), grand_double(1), grand_double(0), grand_double(1), grand_double(0)]
    ):
        _append(scorer, finished, [event], expected)
    in_play = _new_game(scorer, club, ["Dee", "Cid", "Bob", "Ann"])
    _append(scorer, in_play, [hand((70, 30)), hand((20, 80))], 0)
    # imported games of several variants (bot games: real plays, calls, bombs), with their dates
    five = ["Ann", "Bob", "Cid", "Dee", "Eve"]
    for seed, variant, names in ((1, "nanking", None), (2, "grand-seigneur", five), (3, "tien-zi-que", None)):
        record = engine.random_game(seed, variant, players=names)
        record.setdefault("meta", {})["played_at"] = f"2026-0{seed}-1{seed}T20:30:00+01:00"
        services.game_import(club=club, record=record, user=bob)
    # an imported file of a bulk import (its hash, its job)
    job = ImportJob.objects.create(club=club, files_total=1, files_done=1, games_stored=1, finished_at=timezone.now())
    ImportedFile.objects.create(
        club=club,
        sha256=hashlib.sha256(b"a log").hexdigest(),
        name="bsw-1.txt",
        games_stored=1,
        job=job,
        hands_mended=[{"line": 3, "reason": "kept as its score-sheet line"}],
    )
    _season(scorer, club, _tournament(scorer, club))
    _bracket(scorer, club)
    _league(scorer, club)
    # its online tables' turn clock and its watchers' delay
    OnlineSettings.objects.create(club=club, turn_seconds=45, watch_delay_events=12)
    recompute_club(club.pk)  # the ratings as the site keeps them (the appends rated them as they came)
    return club


def _new_game(client, club: Club, players: list[str]) -> int:
    response = client.post("/api/games/", {"club": club.pk, "variant": "nanking", "players": players}, format="json")
    assert response.status_code == 201, response.json()
    return response.json()["id"]


def _append(client, game_id: int, events: list[dict], expected: int) -> None:
    response = client.post(f"/api/games/{game_id}/events/", {"expected_seq": expected, "events": events}, format="json")
    assert response.status_code == 201, response.json()


def _tournament_append(client, tid: int, events: list[dict]) -> None:
    seq = client.get(f"/api/tournaments/{tid}/").json()["seq"]
    response = client.post(f"/api/tournaments/{tid}/events/", {"expected_seq": seq, "events": events}, format="json")
    assert response.status_code == 201, response.json()


def _tournament(client, club: Club) -> int:
    response = client.post(
        "/api/tournaments/", {"club": club.slug, "name": "Thursday", "header": HEADER}, format="json"
    )
    assert response.status_code == 201, response.json()
    tid = response.json()["id"]
    _tournament_append(
        client,
        tid,
        [{"type": "entry_registered", "entry": f"e{i}", "players": players} for i, players in enumerate(PAIRS)],
    )
    proposal = client.get(f"/api/tournaments/{tid}/pairing/").json()
    _tournament_append(client, tid, [proposal["event"]])
    links = client.post(f"/api/tournaments/{tid}/rounds/1/games/").json()
    codes = {row["table"]: row["printed"] for row in client.get(f"/api/tournaments/{tid}/rounds/1/codes/").json()}
    for link, points in zip(links, ((60, 40), (25, 75))):
        # table 1's hand is recorded with its table code, table 2's by the scorer's account
        writer = client
        if link["table"] == 1:
            writer = APIClient()
            writer.credentials(HTTP_AUTHORIZATION=f"TableCode {codes[1]}")
        _append(writer, link["game"], [hand(points)], 0)
        response = client.post(
            f"/api/tournaments/{tid}/rounds/1/tables/{link['table']}/result-from-game/", {}, format="json"
        )
        assert response.status_code == 201, response.json()
    _tournament_append(client, tid, [{"type": "round_closed", "round": 1}])
    return tid


def _season(client, club: Club, tid: int) -> None:
    """A season of the club scored by a table of points, its evening added, removed (with its
    reason) and added again: its events name the tournament by id."""
    response = client.post(
        f"/api/clubs/{club.slug}/seasons/",
        {"name": "Season 2027", "header": {"scoring": "table", "points_table": [10, 6, 3, 1], "min_evenings": 1}},
        format="json",
    )
    assert response.status_code == 201, response.json()
    events = [
        {"type": "evening_added", "tournament": tid},
        {"type": "evening_removed", "tournament": tid, "reason": "entered by mistake"},
        {"type": "evening_added", "tournament": tid, "reason": "it was a club evening after all"},
    ]
    sid = response.json()["id"]
    for seq, event in enumerate(events):
        added = client.post(f"/api/seasons/{sid}/events/", {"expected_seq": seq, "events": [event]}, format="json")
        assert added.status_code == 201, added.json()


def _bracket(client, club: Club) -> None:
    """A knockout bracket seeded with roster players (by id) and a guest (by name), one result."""
    roster = list(Player.objects.filter(club=club).order_by("pk").values_list("pk", flat=True))
    bid = client.post(f"/api/clubs/{club.slug}/brackets/", {"name": "Cup", "header": {"best_of": 1}}, format="json")
    assert bid.status_code == 201, bid.json()
    bid = bid.json()["id"]
    entries = [
        {"entry": "A", "players": roster[:2], "name": "Pair A"},
        {"entry": "B", "players": [roster[2], "A guest"]},
        {"entry": "C", "players": roster[3:5]},
    ]
    seeded = {"type": "bracket_seeded", "entries": entries, "by": "hand"}
    result = {"type": "match_result", "match": "W1-2", "games": [[600, 400]]}
    response = client.post(
        f"/api/brackets/{bid}/events/", {"expected_seq": 0, "events": [seeded, result]}, format="json"
    )
    assert response.status_code == 201, response.json()


# --- comparison through the mapping ----------------------------------------------------------------


def _league(client, club: Club) -> None:
    """A league whose header names a roster player by id and a result that names a game of the club."""
    player = club.players.order_by("pk").first()
    game = club.games.filter(status="finished").order_by("pk").first()
    assert player is not None and game is not None
    header = {
        "entries": [
            {"entry": "owls", "name": "Owls", "players": [player.pk, "Guest"]},
            {"entry": "foxes", "name": "Foxes", "players": ["Cleo", "Dan"]},
        ],
        "legs": 2,
        "scoring": "box",
        "promotion": 1,
    }
    made = client.post(f"/api/clubs/{club.slug}/leagues/", {"name": "League 2027", "header": header}, format="json")
    assert made.status_code == 201, made.json()
    events = [
        {"type": "match_result", "match": "R1-1", "game": game.pk, "date": "2027-01-12"},
        {"type": "match_scheduled", "match": "R2-1", "date": "2027-02-02", "reason": "cup week"},
    ]
    lid = made.json()["id"]
    appended = client.post(f"/api/leagues/{lid}/events/", {"expected_seq": 0, "events": events}, format="json")
    assert appended.status_code == 201, appended.json()


def _map(ids: dict, kind: str, value: Any) -> Any:
    return None if value is None else ids[kind][value]


#: the history's detail keys that hold ids of the club's rows, said here apart from the archive's
#: own AUDIT_ID_KEYS so that the comparison checks the archive rather than repeating it
AUDIT_ID_KEYS = (
    ("player", "player"),
    ("source", "player"),
    ("target", "player"),
    ("invitation", "invitation"),
    ("claim", "claim_request"),
)


def mapped_inner_ids(kind: str, row: dict, ids: dict) -> dict:
    """The ids inside a row's JSON (a tournament event's payload, a history entry's details) said
    in the copy's ids: the columns to replace, {} for other kinds."""
    if kind == "tournament_event":
        payload = dict(row["payload"])
        if isinstance(payload.get("players"), list):
            payload["players"] = [ids["player"][p] for p in payload["players"]]
        if isinstance(payload.get("game"), int):
            payload["game"] = ids["game"][payload["game"]]
        return {"payload": payload}
    if kind == "bracket_event":
        payload = dict(row["payload"])
        if isinstance(payload.get("entries"), list):
            payload["entries"] = [
                {**e, "players": [ids["player"][p] if isinstance(p, int) else p for p in e["players"]]}
                for e in payload["entries"]
            ]
        return {"payload": payload}
    if kind == "season_event":
        return {"payload": {**row["payload"], "tournament": ids["tournament"][row["payload"]["tournament"]]}}
    if kind == "league":
        header = dict(row["header"])
        header["entries"] = [
            {**e, "players": [ids["player"][p] if isinstance(p, int) else p for p in e["players"]]}
            for e in header["entries"]
        ]
        return {"header": header}
    if kind == "league_event":
        payload = dict(row["payload"])
        if isinstance(payload.get("game"), int):
            payload["game"] = ids["game"][payload["game"]]
        return {"payload": payload}
    if kind == "audit_entry":
        details = dict(row["details"])
        for key, target in AUDIT_ID_KEYS:
            if isinstance(details.get(key), int):
                details[key] = ids[target].get(details[key])
        if isinstance(details.get("games"), list):
            details["games"] = [ids["game"].get(g) for g in details["games"]]
        return {"details": details}
    return {}


def _expected_row(kind: Kind, row: dict, ids: dict, club: Club, user_ids: dict[int, int]) -> dict:
    """The source row as the copy must hold it: every key mapped, the copy's club."""
    out = dict(row)
    if kind.named:
        out["id"] = ids[kind.name][row["id"]]
    else:
        out.pop("id", None)  # a game's event has none: its key is (game, seq)
    if "club_id" in out and kind.name != "club":
        out["club_id"] = club.pk
    for name, target in kind.refs.items():
        attname = kind.model._meta.get_field(name).attname
        out[attname] = user_ids.get(row[attname]) if target == "user" else _map(ids, target, row[attname])
    for name in kind.fresh:
        out.pop(name)
    out.update(mapped_inner_ids(kind.name, row, ids))
    return out


def compare_clubs(
    source: Club, copy: Club, ids: dict, *, user_ids: dict[int, int] | None = None, new_slug: str | None = None
) -> dict[str, int]:
    """Every row of every kind of the source club equals the copy's, through the mapping (the
    fresh stream ids differ; a table code or invitation token taken on the site is drawn anew).
    Returns the rows compared per kind."""
    from games.models import Membership

    user_ids = (
        user_ids
        if user_ids is not None
        else {u: u for u in Membership.objects.values_list("user_id", flat=True)} | _all_users()
    )
    compared = {}
    for kind in KINDS:
        source_rows = list(kind.rows(source).values())
        copy_rows = {_key(kind, r): r for r in kind.rows(copy).values()}
        assert len(source_rows) == len(copy_rows), kind.name
        for row in source_rows:
            expected = _expected_row(kind, row, ids, copy, user_ids)
            got = dict(copy_rows[_key(kind, expected)])
            if not kind.named:
                got.pop("id", None)
            for name in kind.fresh:
                assert got.pop(name) != row[name], (kind.name, name)
            if kind.name == "club" and new_slug:
                expected["slug"] = new_slug
            for unique in ("code", "token"):
                if kind.name in ("table_code", "invitation") and unique in got and got[unique] != expected[unique]:
                    assert kind.model._default_manager.filter(**{unique: expected[unique]}).exists()
                    expected[unique] = got[unique]
            assert got == expected, (kind.name, _key(kind, row))
        compared[kind.name] = len(source_rows)
    return compared


def _key(kind: Kind, row: dict) -> Any:
    """A row's identity: its id, or (its stream, its seq) for a stream's events."""
    if kind.named:
        return row["id"]
    streams = ("game_id", "tournament_id", "bracket_id", "season_id", "league_id")
    return (next((row[k] for k in streams if row.get(k)), None), row["seq"])


def _all_users() -> dict[int, int]:
    from django.contrib.auth import get_user_model

    return {u: u for u in get_user_model().objects.values_list("pk", flat=True)}


def compare_ratings(source: Club, copy: Club, ids: dict) -> int:
    """The copy's ratings (recomputed from its games) equal the source's, row by row."""
    players, games = ids["player"], ids["game"]
    compared = 0

    def rows(model: type[Model], club: Club, order: tuple[str, ...]) -> list[dict]:
        return list(model.objects.filter(club=club).order_by(*order).values())

    for a, b in zip(
        rows(RatingChange, source, ("variant", "ordinal", "player_id")),
        rows(RatingChange, copy, ("variant", "ordinal", "player_id")),
        strict=True,
    ):
        a = {**a, "id": None, "club_id": copy.pk, "game_id": games[a["game_id"]], "player_id": players[a["player_id"]]}
        assert {**b, "id": None} == a
        compared += 1
    for a, b in zip(
        rows(PlayerRating, source, ("variant", "player__name")),
        rows(PlayerRating, copy, ("variant", "player__name")),
        strict=True,
    ):
        assert {**b, "id": None} == {**a, "id": None, "club_id": copy.pk, "player_id": players[a["player_id"]]}
        compared += 1
    for a, b in zip(rows(RatingPool, source, ("variant",)), rows(RatingPool, copy, ("variant",)), strict=True):
        skip = ("id", "updated_at", "recomputed_at")
        a = {k: v for k, v in a.items() if k not in skip} | {
            "club_id": copy.pk,
            "last_game_id": _map(ids, "game", a["last_game_id"]),
        }
        assert {k: v for k, v in b.items() if k not in skip} == a
        compared += 1
    for a, b in zip(rows(GameOutcome, source, ("game_id",)), rows(GameOutcome, copy, ("game_id",)), strict=True):
        a = {
            **a,
            "id": None,
            "club_id": copy.pk,
            "game_id": games[a["game_id"]],
            "sides": [[players[p] for p in side] for side in a["sides"]],
            "calls": {str(players[int(p)]): c for p, c in a["calls"].items()},
        }
        assert {**b, "id": None} == a
        compared += 1
    return compared


def page_text(client, url: str) -> str:
    """A page's words and figures, as a reader sees them (no markup, links or scripts)."""
    response = client.get(url)
    assert response.status_code == 200, url
    html = response.content.decode()
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    text = re.sub(r"<[^>]+>", " ", html)
    return " ".join(text.split())


def pages(club: Club) -> list[str]:
    """The club page, the league, a player's page, the tournament's standings and the season."""
    player = Player.objects.get(club=club, name="Ann")
    tournament = club.tournaments.get()
    season = club.seasons.get()
    return [
        f"/clubs/{club.slug}/seasons/{season.pk}/",
        f"/clubs/{club.slug}/",
        f"/clubs/{club.slug}/league/",
        f"/players/{player.pk}/",
        f"/tournaments/{tournament.pk}/standings/",
        f"/clubs/{club.slug}/history/",
    ]


def without_ids(text: str, club: Club, ids: dict, source_slug: str) -> str:
    """A page's text with the copy's game numbers and slug said as the source's (a game is named
    by its number, which the import draws anew; the copy's slug is its own)."""
    back = {new: old for old, new in ids["game"].items()}
    text = text.replace(club.slug, source_slug)
    return re.sub(r"(?<=#)(\d+)|(?<=Game )(\d+)", lambda m: str(back.get(int(m.group(0)), m.group(0))), text)
