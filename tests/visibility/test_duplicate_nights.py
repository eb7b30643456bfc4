"""A duplicate night on every channel (issue 30, findings 2 and 3): every table of a round plays the
same boards, so until the round closes a table's game and its result are listed for no one but the
TD and the table itself (the club page, the API's game lists, the player pages and their exports,
the league), and the game is rated only when its round closes; a table's code scores its game
without seeing a hand of the board in play; an undone deal is dealt again, never skipped."""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from games import engine
from games.models import Event, Game, GameSeat, Membership
from games.ratings.models import RatingChange
from games.tournaments.models import TableGame, Tournament
from tests.tournament_api.test_api import append, create, pair_next_round, register_pairs
from tests.tournament_api.test_table_codes import with_code

HEADER = {"entrants": "pairs", "system": "duplicate", "scoring": "matchpoints", "hands_per_round": 1}
READERS = ("anonymous", "other club's member", "other table's player", "table 1's code", "table 1's player", "TD")
# Who finds table 1's game in a list before its round closes: the TD and table 1's players. Its
# code is anonymous everywhere but on its own game's channels, so it lists what the public does.
KNOWS = {"table 1's player", "TD"}


def _seq(tid: int) -> int:
    return Tournament.objects.get(pk=tid).seq


def play_out_hand(client, game: int) -> None:
    """Play the hand in play to its end (the first legal action each time), as the TD."""
    record = client.get(f"/api/games/{game}/record/").json()
    state = engine.fold(record)
    hands = len(state.history)
    events = []
    while len(state.history) == hands and not state.over:
        action = engine.legal_actions(state)[0]
        state.apply(action)
        events.append(action)
    response = client.post(
        f"/api/games/{game}/events/", {"expected_seq": len(record["events"]), "events": events}, format="json"
    )
    assert response.status_code == 201, response.json()


class Night:
    """Round 1 of a duplicate tournament of a public club: two tables, their games and codes, and a
    client for each reader."""

    def __init__(self, club, scorer, scorer_client, make_user, make_club, header=HEADER):
        self.td = scorer_client
        self.tid = create(scorer_client, header=header)["id"]
        register_pairs(scorer_client, self.tid)
        pair_next_round(scorer_client, self.tid)
        assert scorer_client.post(f"/api/tournaments/{self.tid}/rounds/1/games/").status_code == 201
        self.codes = {
            r["table"]: r["printed"] for r in scorer_client.get(f"/api/tournaments/{self.tid}/rounds/1/codes/").json()
        }
        self.games = {link.table: link.game_id for link in TableGame.objects.filter(tournament_id=self.tid, round=1)}
        self.players = {t: GameSeat.objects.get(game_id=g, seat=0).player for t, g in self.games.items()}
        self.readers: dict[str, tuple[Client, APIClient]] = {}
        self.readers["anonymous"] = (Client(), APIClient())
        other = make_user("elsewhere")
        Membership.objects.create(club=make_club("away"), user=other, role=Membership.Role.SCORER)
        self.readers["other club's member"] = self._signed_in(other)
        for table, who in ((1, "table 1's player"), (2, "other table's player")):
            user = make_user(f"seated{table}")
            Membership.objects.create(club=club, user=user, role=Membership.Role.VIEWER)
            self.players[table].user = user
            self.players[table].save(update_fields=["user"])
            self.readers[who] = self._signed_in(user)
        phone = Client()
        assert phone.get(f"/t/{self.codes[1]}/").status_code == 302
        self.readers["table 1's code"] = (phone, phone)  # the phone, its code kept in the session
        self.readers["TD"] = self._signed_in(scorer)

    @staticmethod
    def _signed_in(user) -> tuple[Client, APIClient]:
        page, api = Client(), APIClient()
        page.force_login(user)
        api.force_authenticate(user)
        return page, api

    def finish_table(self, table: int) -> None:
        play_out_hand(self.td, self.games[table])
        assert Game.objects.get(pk=self.games[table]).status == Game.Status.FINISHED

    def close_round(self) -> None:
        for table in self.games:
            response = self.td.post(
                f"/api/tournaments/{self.tid}/rounds/1/tables/{table}/result-from-game/", {}, format="json"
            )
            assert response.status_code == 201, response.json()
        assert append(self.td, self.tid, [{"type": "round_closed", "round": 1}], _seq(self.tid)).status_code == 201


@pytest.fixture
def night(club, scorer, scorer_client, make_user, make_club):
    return Night(club, scorer, scorer_client, make_user, make_club)


def listings(night: Night, who: str, game_id: int) -> dict[str, bool]:
    """Whether each listing channel tells `who` of the game (its link, its entry, its rating)."""
    page, api = night.readers[who]
    player = night.players[1].pk
    club_page = page.get("/clubs/home/")
    api_list = api.get("/api/games/?club=home")
    all_games = api.get("/api/games/")
    player_json = page.get(f"/players/{player}.json")
    player_csv = page.get(f"/players/{player}.csv")
    league = page.get("/clubs/home/league.json")
    assert {r.status_code for r in (club_page, api_list, all_games, player_json, player_csv, league)} == {200}, who
    csv_games = [row["game_id"] for row in csv.DictReader(io.StringIO(player_csv.content.decode()))]
    return {
        "club page": f"/games/{game_id}/" in club_page.content.decode(),
        "api list ?club=": game_id in [g["id"] for g in api_list.json()["results"]],
        "api list": game_id in [g["id"] for g in all_games.json()["results"]],
        "player page .json": game_id in [g["game_id"] for g in player_json.json()["history"]],
        "player page .csv": str(game_id) in csv_games,
        "league": league.json()["games"] > 0,
    }


@pytest.mark.django_db
@pytest.mark.parametrize("who", READERS)
def test_a_held_tables_game_is_listed_for_no_one_but_its_table_and_the_td_until_the_round_closes(
    night, who, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        night.finish_table(1)
    game = night.games[1]
    assert not RatingChange.objects.filter(game_id=game).exists(), "rated while its round is open"
    seen = listings(night, who, game)
    ratings = {"player page .json", "player page .csv", "league"}
    for channel, shown in seen.items():
        if channel in ratings:
            assert not shown, f"{who} sees table 1's rated game in {channel} before the round closes"
        elif who in KNOWS:
            assert shown, f"{who} does not find table 1's game in {channel}"
        else:
            assert not shown, f"{who} learns of table 1's game from {channel} before the round closes"
    with django_capture_on_commit_callbacks(execute=True):
        night.finish_table(2)
        night.close_round()
    assert RatingChange.objects.filter(game_id=game).count() == 4, "the game is rated when its round closes"
    seen = listings(night, who, game)
    assert all(seen.values()), f"{who} after the round closed: {seen}"


@pytest.mark.django_db
@pytest.mark.parametrize("who", READERS)
def test_the_rounds_game_list_tells_no_one_but_the_table_and_the_td_how_far_a_held_table_is(night, who):
    """/api/tournaments/{id}/rounds/{r}/games/ names each table's game; its status and seq would tell
    the other table that table 1 has finished the board (as /api/games/?club= once did)."""
    night.finish_table(1)
    api = night.readers[who][1]
    rows = {r["table"]: r for r in api.get(f"/api/tournaments/{night.tid}/rounds/1/games/").json()}
    if who in KNOWS:
        assert (rows[1]["status"], rows[1]["seq"]) == ("finished", Game.objects.get(pk=night.games[1]).seq), who
    else:
        assert (rows[1]["status"], rows[1]["seq"]) == (None, None), f"{who} reads how far table 1 is"


def games_counted(client) -> int:
    """The club's number of games on the clubs' list."""
    html = client.get("/clubs/").content.decode()
    return int(re.search(r'href="/clubs/home/">Home</a></td>\s*<td>(\d+)</td>', html).group(1))


@pytest.mark.django_db
def test_a_held_tables_game_is_not_on_the_club_page_its_evening_or_the_clubs_count(
    night, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        night.finish_table(1)
    names = [s.player.name for s in GameSeat.objects.filter(game_id=night.games[1]).select_related("player")]
    counted = {"TD": 2, "table 1's player": 1, "other table's player": 1}  # both tables' games are held
    for who in READERS:
        page = night.readers[who][0]
        html = page.get("/clubs/home/").content.decode()
        if who not in KNOWS:
            assert not any(name in html for name in names), f"{who} reads table 1's players on the club page"
        assert games_counted(page) == counted.get(who, 0), f"{who} counts a held table's game"
    with django_capture_on_commit_callbacks(execute=True):
        night.finish_table(2)
        night.close_round()
    assert {games_counted(night.readers[who][0]) for who in READERS} == {2}


# --- a table's code: a scorer without a seat --------------------------------------------------------------------


def _cards_shown(obj) -> int:
    """How many card codes of a hand `obj` (a state or a record, as JSON) names."""
    if isinstance(obj, dict):
        return sum(_cards_shown(v) for k, v in obj.items())
    if isinstance(obj, list):
        if obj and all(isinstance(c, str) and c in engine.card_table() for c in obj):
            return len(obj)
        return sum(_cards_shown(v) for v in obj)
    return 0


def hands_in(state: dict) -> list[int]:
    return [len([c for c in hand if c != "?"]) for hand in state.get("hands") or []]


@pytest.mark.django_db
def test_a_table_code_sees_no_hand_of_the_board_in_play(night):
    game = night.games[1]
    code = with_code(night.codes[1])
    td = night.td.get(f"/api/games/{game}/state/").json()
    assert hands_in(td) == [14, 14, 14, 14], "the TD sees the board's four hands"
    state = code.get(f"/api/games/{game}/state/")
    assert state.status_code == 200 and hands_in(state.json()) == [0, 0, 0, 0], state.json().get("hands")
    for path in ("record", "events"):
        body = code.get(f"/api/games/{game}/{path}/").json()
        assert "redacted" in body and _cards_shown(body["events"]) == 0, f"the code reads the deal in {path}"
    legal = code.get(f"/api/games/{game}/legal/")
    assert legal.status_code == 200, legal.content
    body = legal.json()
    assert hands_in(body["state"]) == [0, 0, 0, 0] and _cards_shown(body["actions"]) == 0, "legal shows a hand"
    assert body["bombs_out_of_turn"] == {} and body["redacted"]
    phone = night.readers["table 1's code"][0]
    assert phone.get(f"/games/{game}/enter/").status_code == 200, "the code still enters its table"
    # (the entry pages draw no hand of their own: their script reads the legal facts and state above)


@pytest.mark.django_db
def test_a_table_code_still_enters_the_board_card_by_card(night):
    """Seat-less, the code still plays the hand out: the engine checks each play it sends."""
    game = night.games[1]
    code = with_code(night.codes[1])
    record = night.td.get(f"/api/games/{game}/record/").json()  # the cards are at the table, not on the phone
    state = engine.fold(record)
    action = engine.legal_actions(state)[0]
    response = code.post(
        f"/api/games/{game}/events/", {"expected_seq": len(record["events"]), "events": [action]}, format="json"
    )
    assert response.status_code == 201, response.json()


# --- boards: an undone deal is dealt again ----------------------------------------------------------------------


@pytest.mark.django_db
def test_undoing_a_deal_gives_the_same_board_again_and_no_board_is_skipped(
    club, scorer, scorer_client, make_user, make_club
):
    night = Night(club, scorer, scorer_client, make_user, make_club, header={**HEADER, "hands_per_round": 2})
    game = night.games[1]
    code = with_code(night.codes[1])
    board_1 = {e.payload["seat"]: e.payload["cards"] for e in Event.objects.filter(game_id=game, type="deal")}
    for _ in range(5):  # the shuffle and the four deals of board 1
        seq = Game.objects.get(pk=game).seq
        assert (
            code.post(
                f"/api/games/{game}/events/", {"expected_seq": seq, "events": [{"type": "undo"}]}, format="json"
            ).status_code
            == 201
        )
    dealt = code.post(f"/api/games/{game}/tournament-table/", {"action": "deal"}, format="json")
    assert dealt.status_code == 201 and dealt.json()["board"] == 1, dealt.json()
    again = {
        e.payload["seat"]: e.payload["cards"] for e in Event.objects.filter(game_id=game, type="deal").order_by("seq")
    }
    assert again == board_1, "the table gets board 1 back"
    refused = code.post(f"/api/games/{game}/tournament-table/", {"action": "deal"}, format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "not_at_hand_start"
    play_out_hand(night.td, game)
    second = code.post(f"/api/games/{game}/tournament-table/", {"action": "deal"}, format="json")
    assert second.status_code == 201 and second.json()["board"] == 2, second.json()
    play_out_hand(night.td, game)
    assert Game.objects.get(pk=game).status == Game.Status.FINISHED, "the game of two boards can finish"


@pytest.mark.django_db
def test_closing_the_round_writes_its_games_rating_rows_in_its_transaction(night):
    """The round's close is what sends its games to be rated: their outbox rows are written with
    the `round_closed` event, so a broker down at that moment leaves them for the sweep."""
    from games.ratings.models import RatingOutbox

    for table in night.games:
        night.finish_table(table)
    RatingOutbox.objects.all().delete()  # the finishes' own rows (their task rates nothing: held)
    night.close_round()
    assert sorted(RatingOutbox.objects.values_list("game_id", flat=True)) == sorted(night.games.values())


@pytest.mark.django_db
def test_a_duplicate_tables_hands_are_dealt_from_its_boards_only(night):
    """Undoing the board's deal and typing another would play a deal no other table plays: a
    duplicate table's hand starts only with its board's deal (the deal action's own events)."""
    game = night.games[1]
    code = with_code(night.codes[1])
    board_1 = [{"type": e.type, **e.payload} for e in Event.objects.filter(game_id=game).order_by("seq")]
    for _ in range(5):
        seq = Game.objects.get(pk=game).seq
        assert (
            code.post(
                f"/api/games/{game}/events/", {"expected_seq": seq, "events": [{"type": "undo"}]}, format="json"
            ).status_code
            == 201
        )
    seq = Game.objects.get(pk=game).seq
    swapped = [board_1[0]] + [{**e, "seat": (e["seat"] + 1) % 4} for e in board_1[1:]]  # North's cards to East...
    for client in (code, night.td):
        refused = client.post(f"/api/games/{game}/events/", {"expected_seq": seq, "events": swapped}, format="json")
        assert refused.status_code == 400 and refused.json()["code"] == "board_deal_only", refused.json()
    assert Game.objects.get(pk=game).seq == seq, "nothing stored"
    typed = code.post(f"/api/games/{game}/events/", {"expected_seq": seq, "events": board_1}, format="json")
    assert typed.status_code == 201, "the board's own deal, typed, is the board's deal"


@pytest.mark.django_db
def test_a_table_code_cannot_ask_legal_whether_a_seat_holds_a_card(night):
    """`?check=` answers whether the engine would accept an event: for a card, whether the seat holds
    it. A scorer without a seat may check events that name no card only."""
    import json

    game = night.games[1]
    code = with_code(night.codes[1])
    dealt = Event.objects.filter(game_id=game, type="deal").first().payload
    seat = dealt["seat"]
    push = {str((seat + k) % 4): dealt["cards"][k - 1] for k in (1, 2, 3)}
    probe = json.dumps({"type": "push", "seat": seat, "cards": push})
    assert night.td.get(f"/api/games/{game}/legal/", {"check": probe}).json()["check"]["ok"] is True, "the oracle"
    refused = code.get(f"/api/games/{game}/legal/", {"check": probe})
    assert refused.status_code == 403, refused.json()
    calls = code.get(f"/api/games/{game}/legal/", {"check": json.dumps({"type": "tichu", "seat": 0})})
    assert calls.status_code == 200 and "check" in calls.json()


GAME_CHANNELS = (
    "/api/games/{}/",
    "/api/games/{}/events/",
    "/api/games/{}/state/",
    "/api/games/{}/score/",
    "/api/games/{}/record/",
    "/games/{}/",
    "/games/{}/replay/",
    "/games/{}/replay/data/",
)
# Who reads table 1's game itself (its boards' deals and play) until the tournament is finished.
READS_THE_GAME = {"table 1's player", "TD"}


@pytest.mark.django_db
@pytest.mark.parametrize("who", [r for r in READERS if r != "table 1's code"])
def test_a_held_tables_game_is_read_by_its_table_and_the_td_only_even_after_its_round_closes(
    night, who, django_capture_on_commit_callbacks
):
    game = night.games[1]
    page, api = night.readers[who]

    def statuses() -> set[int]:
        return {
            (api if path.startswith("/api/") else page).get(path.format(game)).status_code for path in GAME_CHANNELS
        }

    expected = {200} if who in READS_THE_GAME else {404}
    assert statuses() == expected, f"{who} before the round closes"
    with django_capture_on_commit_callbacks(execute=True):
        night.finish_table(1)
        night.finish_table(2)
        night.close_round()
    # the result is everyone's now, the board's deal and play are not: it moves on to other tables
    assert statuses() == expected, f"{who} after the round closed, the tournament going on"


@pytest.mark.django_db
def test_a_table_code_reads_its_own_game_on_the_api_only(night):
    game = night.games[1]
    code = with_code(night.codes[1])
    assert {code.get(path.format(game)).status_code for path in GAME_CHANNELS if path.startswith("/api/")} == {200}
    assert code.get(f"/api/games/{night.games[2]}/state/").status_code == 401, "another table's game"


def boards_in_force(events: list[dict]) -> list[dict[int, list[str]]]:
    """The deals of the hands still in force (an undo retracts the latest event in force), in order."""
    stack: list[dict] = []
    for event in events:
        if event["type"] == "undo":
            if stack:
                stack.pop()
        else:
            stack.append(event)
    hands: list[dict[int, list[str]]] = []
    for event in stack:
        if event["type"] == "shuffle":
            hands.append({})
        elif event["type"] == "deal":
            hands[-1][event["seat"]] = event["cards"]
    return hands


OPERATIONS = st.lists(st.sampled_from(["undo", "deal", "play"]), min_size=1, max_size=14)


@pytest.mark.django_db
@settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(operations=OPERATIONS)
def test_whatever_a_table_undoes_and_asks_its_hands_are_the_rounds_boards_in_order(club, scorer_client, operations):
    """Property: after any sequence of undos, deal requests and hands played out, the hands in force
    at a duplicate table are dealt boards 1, 2, ... of the round, in order, each whole and as every
    table gets it, and never more than the round's boards."""
    from games.tournaments.duplicate_boards import deal

    tid = create(scorer_client, header={**HEADER, "hands_per_round": 2})["id"]
    register_pairs(scorer_client, tid)
    pair_next_round(scorer_client, tid)
    made = scorer_client.post(f"/api/tournaments/{tid}/rounds/1/games/").json()
    game = made[0]["game"]
    codes = {r["table"]: r["printed"] for r in scorer_client.get(f"/api/tournaments/{tid}/rounds/1/codes/").json()}
    code = with_code(codes[made[0]["table"]])
    tournament = Tournament.objects.get(pk=tid)
    for operation in operations:
        seq = Game.objects.get(pk=game).seq
        if operation == "undo":
            code.post(f"/api/games/{game}/events/", {"expected_seq": seq, "events": [{"type": "undo"}]}, format="json")
        elif operation == "deal":
            code.post(f"/api/games/{game}/tournament-table/", {"action": "deal"}, format="json")
        else:
            state = engine.fold(scorer_client.get(f"/api/games/{game}/record/").json())
            if state.hand is not None and not state.over and engine.state_json(state)["phase"] != "deal":
                play_out_hand(scorer_client, game)  # (a deal half undone is undone, or dealt again, first)
        events = [e.as_record_event() for e in Event.objects.filter(game_id=game).order_by("seq")]
        hands = boards_in_force(events)
        assert len(hands) <= 2, "more hands than the round's boards"
        for number, dealt in enumerate(hands, start=1):
            if len(dealt) == 4:
                assert dealt == dict(enumerate(deal(tournament, number))), f"hand {number} is not board {number}"
