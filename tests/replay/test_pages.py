"""The HTML pages through Django's test client (no browser): clubs, a club's games, a game's
score sheet and the replay's server-rendered position at ?at=N (the links, the hand's events;
the table, the panel and the score sheet so far are the script's), against the engine."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.urls import reverse

from games import engine, visibility
from games.models import Membership
from replay import frames

from .conftest import bot_record, import_game
from .dom import parse
from .expect import server_view, server_view_at

pytestmark = pytest.mark.django_db


def replay_url(game, **params) -> str:
    query = "&".join(f"{k}={v}" for k, v in params.items())
    return reverse("replay:game-replay", args=[game.pk]) + (f"?{query}" if query else "")


def test_club_list_shows_public_clubs_and_members_clubs(client, public_club, private_club):
    page = client.get(reverse("clubs:club-list")).content.decode()
    assert "Open Table" in page and "Back Room" not in page
    user = get_user_model().objects.create_user("mia", password="pw")
    Membership.objects.create(user=user, club=private_club, role=Membership.Role.VIEWER)
    client.force_login(user)
    assert "Back Room" in client.get(reverse("clubs:club-list")).content.decode()


def test_club_page_lists_its_games_with_a_league_link(client, bot_game):
    response = client.get(reverse("clubs:club-detail", args=[bot_game.club.slug]))
    root = parse(response.content)
    row = root.find("tr", data_game=bot_game.pk)
    # players by team (seats 0 and 2 against 1 and 3), the final score and the winner
    score = engine.score_json(engine.fold(bot_record(1)))
    assert row is not None and "Ann & Cid vs Bob & Dee" in " ".join(row.text().split())
    assert row.find("td", cls="score").text() == f"{score['totals'][0]} : {score['totals'][1]}"
    winner = ["Ann & Cid", "Bob & Dee"][score["winner"]]
    assert " ".join(row.find("td", cls="status").text().split()) == f"finished: {winner} won"
    league = root.by_id("league-link")
    assert league is not None
    assert league.tag == "a" and league.attrs["href"] == f"/clubs/{bot_game.club.pk}/league/"


def test_private_club_and_its_games_are_404_for_outsiders(client, private_club):
    game = import_game(private_club, bot_record(1))
    for url in (
        reverse("clubs:club-detail", args=[private_club.slug]),
        reverse("replay:game-detail", args=[game.pk]),
        replay_url(game, at=5),
    ):
        assert client.get(url).status_code == 404
    user = get_user_model().objects.create_user("mia", password="pw")
    Membership.objects.create(user=user, club=private_club, role=Membership.Role.VIEWER)
    client.force_login(user)
    assert client.get(replay_url(game, at=5)).status_code == 200


def test_game_page_players_rules_and_score_sheet_match_the_engine(client, bot_game):
    record = bot_record(1)
    score = engine.score_json(engine.fold(record))
    root = parse(client.get(reverse("replay:game-detail", args=[bot_game.pk])).content)
    names = [td.text() for td in root.by_id("players").find_all("td", cls="name")]
    assert names == record["players"]
    assert root.by_id("variant").text() == "Tichu" and root.by_id("variant").attrs["data-variant"] == "nanking"
    rules = {
        tr.attrs["data-option"]: tr.find("td", cls="value").text()
        for tr in root.by_id("house-rules").find_all("tr")
        if "data-option" in tr.attrs
    }
    assert rules["direction"] == "to the right" and rules["target_score"].startswith("1000")
    assert rules["preset"].startswith("Rio Grande edition")
    rows = root.by_id("score-sheet").find_all("tr", cls="hand-line")
    assert len(rows) == len(score["hands"])
    running = [0, 0]
    for row, hand in zip(rows, score["hands"]):
        assert [int(td.text()) for td in row.find_all("td", cls="points")] == hand["points"]
        assert [int(td.text()) for td in row.find_all("td", cls="card-points")] == hand["card_points"]
        assert [
            int(s.attrs["data-seat"]) for s in row.find("td", cls="out").find_all("span") if "data-seat" in s.attrs
        ] == hand["out"]
        assert {c.attrs["data-seat"]: c.attrs["data-call"] for c in row.find_all(cls="call")} == hand["calls"]
        running = [a + b for a, b in zip(running, hand["points"])]
        assert [int(td.text()) for td in row.find_all("td", cls="total")] == running
    assert running == score["totals"]
    assert [int(b.text()) for b in root.by_id("final-totals").find_all("b")] == score["totals"]


@pytest.mark.parametrize("at", [0, 1, 30, 57, 58, 61, 62, 63, 95, 96, 142, 143, 144, 900, 1881, None])
def test_server_rendered_position_marks_the_position_and_draws_nothing_twice(client, bot_game, at):
    record = bot_record(1)
    n = len(record["events"]) if at is None else at
    response = client.get(replay_url(bot_game, at=at) if at is not None else replay_url(bot_game))
    assert response.status_code == 200
    assert server_view(parse(response.content)) == server_view_at(n)


def test_server_rendered_navigation_links(client, bot_game):
    root = parse(client.get(replay_url(bot_game, at=100)).content)
    href = {a.attrs["id"]: a.attrs["href"] for a in root.by_id("controls").find_all("a")}
    assert href["nav-prev"].startswith("?at=99&") and href["nav-next"].startswith("?at=101&")
    assert href["nav-first"].startswith("?at=0&") and href["nav-last"].startswith(
        f"?at={len(bot_record(1)['events'])}&"
    )
    shuffles = [i + 1 for i, e in enumerate(bot_record(1)["events"]) if e["type"] == "shuffle"]
    assert href["nav-next-hand"].startswith(f"?at={min(s for s in shuffles if s > 100)}&")  # the next shuffle
    # a trick link lands on a lead: the engine's trick log there holds exactly one play
    next_trick = int(href["nav-next-trick"].split("&")[0][4:])
    state = engine.state_json(engine.Replay(bot_record(1)).state_at(next_trick))
    assert len(state["trick_log"]) == 1 and not state["trick_log"][0].get("pass")
    # the slider form works without script
    slider = root.by_id("slider")
    assert slider.attrs["name"] == "at" and slider.attrs["value"] == "100"


def test_the_table_panel_and_sheet_are_the_scripts_and_say_so_without_it(client, bot_game):
    """The board, the panel and the score sheet so far are drawn in one place, the page's script
    (static/replay/table.js, panel.js): the page holds their empty mounts, a word for a reader
    without scripts with a link to the game's own score sheet, and no seat, card or score of its own."""
    root = parse(client.get(replay_url(bot_game, at=70, view=2)).content)
    table = root.by_id("table")
    assert table.attrs["data-at"] == "70" and table.find_all(cls="seat") == [] and table.find_all(cls="card") == []
    assert root.by_id("panel").find_all(cls="card") == [] and root.by_id("totals") is None
    assert root.by_id("sheet-wrap").find_all("table") == [] and root.by_id("replay-sheet") is None
    assert "drawn by the page's script" in root.by_id("no-script-table").text()
    assert root.by_id("no-script-sheet").attrs["href"] == reverse("replay:game-detail", args=[bot_game.pk])


def test_bad_position_is_clamped_or_404(client, bot_game):
    assert parse(client.get(replay_url(bot_game, at=999999)).content).by_id("table").attrs["data-at"] == str(
        len(bot_record(1)["events"])
    )
    assert client.get(replay_url(bot_game, at="x")).status_code == 404


def test_active_game_hides_hands_from_non_scorers(client, public_club):
    record = dict(bot_record(1), events=bot_record(1)["events"][:70])
    game = import_game(public_club, record)
    page = client.get(replay_url(game, at=70)).content.decode()
    root = parse(page)
    # the embedded frames hold no card of a hand: hands, pushes, draws are masked
    payload = json.loads(root.by_id("replay-data").text())
    frame: dict = {}
    for delta in payload["frames"]:
        frames.apply_delta(frame, delta)
        assert all(set(h) <= {"?"} for h in frame["hands"])
        assert all(set(c) <= {"?"} for p in (frame.get("pushes") or {}).values() for c in p.values())
        event = frame["e"] or {}
        if event.get("type") in ("draw", "push", "deal"):  # the cards shown as "?", so counts stay
            cards = event.get("cards") or []
            if isinstance(cards, dict):  # a push: target seat -> card or cards
                cards = [c for v in cards.values() for c in (v if isinstance(v, list) else [v])]
            assert event.get("card", "?") == "?" and set(cards) <= {"?"} and ("card" in event or cards)
    state = engine.state_json(engine.Replay(record).state_at(70))
    # a scorer of the club sees them
    user = get_user_model().objects.create_user("sam", password="pw")
    Membership.objects.create(user=user, club=public_club, role=Membership.Role.SCORER)
    client.force_login(user)
    payload = json.loads(parse(client.get(replay_url(game, at=70)).content).by_id("replay-data").text())
    seen: dict = {}
    for delta in payload["frames"]:
        frames.apply_delta(seen, delta)
    assert seen["hands"] == state["hands"]


def test_empty_game_and_score_sheet_only_game(client, public_club):
    empty = import_game(
        public_club, {"format": "tichu-record/1", "variant": "nanking", "players": ["A", "B", "C", "D"], "events": []}
    )
    assert client.get(replay_url(empty)).status_code == 200
    assert client.get(reverse("replay:game-detail", args=[empty.pk])).status_code == 200
    hands = [
        {"type": "hand_result", "calls": {"0": "tichu"}, "out": [0, 1, 2, 3], "points": [60, 40]},
        {
            "type": "hand_result",
            "calls": {},
            "out": [1, 3],
        },
    ]
    record = {"format": "tichu-record/1", "variant": "nanking", "players": ["A", "B", "C", "D"], "events": hands}
    game = import_game(public_club, record)
    for at in (0, 1, 2):
        root = parse(client.get(replay_url(game, at=at)).content)
        assert server_view(root) == server_view_at(at)
    root = parse(client.get(reverse("replay:game-detail", args=[game.pk])).content)
    score = engine.score_json(engine.fold(record))
    rows = root.by_id("score-sheet").find_all("tr", cls="hand-line")
    assert [[int(td.text()) for td in r.find_all("td", cls="points")] for r in rows] == [
        h["points"] for h in score["hands"]
    ]
    assert "double victory" in rows[1].text()


def test_the_events_of_the_hand_are_listed_in_words(client, bot_game):
    record = bot_record(1)
    shuffles = [i + 1 for i, e in enumerate(record["events"]) if e["type"] == "shuffle"]
    root = parse(client.get(replay_url(bot_game, at=shuffles[1] + 20)).content)
    log = root.by_id("hand-log")
    items = log.find_all("li")
    assert int(items[0].attrs["data-at"]) == shuffles[1] and int(items[-1].attrs["data-at"]) == shuffles[2] - 1
    current = log.find("li", cls="current")
    assert current.attrs["data-at"] == str(shuffles[1] + 20) and current.attrs["aria-current"] == "step"
    texts = json.loads(root.by_id("replay-data").text())["texts"]  # the engine's words the script says
    assert current.text().strip() == f"{shuffles[1] + 20}. " + texts[shuffles[1] + 20]
    assert "shuffles" in items[0].text()


def penalty_record() -> dict:
    """A bot game's first hand cut short by a missed-wish penalty on seat 1 after the first play."""
    record = bot_record(5)
    first_play = next(i for i, e in enumerate(record["events"]) if e["type"] == "play")
    events = record["events"][: first_play + 1] + [{"type": "penalty", "seat": 1, "reason": "missed_wish"}]
    return {**record, "events": events}


def test_a_penalty_line_names_the_breach_and_the_offender(client, public_club):
    record = penalty_record()
    game = import_game(public_club, record)
    offender = record["players"][1]
    line = engine.score_json(engine.fold(record))["hands"][-1]
    assert line["kind"] == "penalty"
    # the game page's sheet (the replay's is the script's: tests/browser/test_replay.py)
    rows = parse(client.get(reverse("replay:game-detail", args=[game.pk])).content).by_id("score-sheet")
    rows = rows.find_all("tr", cls="hand-line")
    assert f"(penalty: missed wish by {offender})" in rows[-1].text()
    assert [int(td.text()) for td in rows[-1].find_all("td", cls="points")] == line["points"]


def test_only_finished_games_frames_go_to_the_shared_cache(client, public_club, bot_game):
    """A game being entered gets a new cache key with every event: its frames stay in the process
    (one version per game and view), a finished game's are shared for good."""
    from django.core.cache import cache

    from replay import data as replay_data

    record = bot_record(9)
    active = import_game(public_club, {**record, "events": record["events"][:40]})
    assert active.status != "finished" and bot_game.status == "finished"
    cache.clear()
    replay_data.clear_local()
    for game in (active, bot_game):
        assert client.get(replay_url(game)).status_code == 200
    table = visibility.reader_sight(active, AnonymousUser())
    assert not table.everything
    assert cache.get(replay_data._key(active, table)) is None
    assert cache.get(replay_data._key(active, engine.EVERYTHING)) is None
    assert cache.get(replay_data._key(bot_game, engine.EVERYTHING)) is not None
    # a newer version of the active game replaces the older one in this process
    first = replay_data.replay_data(active, engine.EVERYTHING)
    active.seq -= 1  # as an earlier request saw it
    older = replay_data.replay_data(active, engine.EVERYTHING)
    assert older is not first
    assert sum(1 for k in replay_data._local.items if k[0] == active.stream_id and k[1] == "all") == 1
