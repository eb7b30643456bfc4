"""A tournament round played online (issue 34 item 6, docs/tournament.md "Rounds played online"):
the TD publishes the round as online tables, the four seats of each table play from their seat
links, a duplicate table is dealt the round's boards (the same at every table), and the result is
the online game's own fold, sent, confirmed and counted in the standings as any table game's."""

from __future__ import annotations

import random

import pytest
from django.contrib.auth.models import AnonymousUser

from games import selectors as game_selectors
from games import tournament as core
from games.models import Event, Game, Membership, Player
from games.online import selectors as online_selectors
from games.online import services as online_services
from games.online.models import OnlineSeat, OnlineTable
from games.services import InvalidInput, WriteForbidden
from games.tournament.duplicate import board_deal, board_packets
from games.tournaments import duplicate_boards, online_tables, selectors, services
from games.tournaments.models import TableGame, Tournament
from tests.online.play import step
from tests.tournament_api.test_api import create, pair_next_round, register_pairs

DUPLICATE = {"entrants": "pairs", "system": "duplicate", "scoring": "matchpoints", "hands_per_round": 2}


def hands_dealt(game_id: int) -> list[dict[int, list[str]]]:
    """Each hand's deal of the game as stored: [{seat: its cards, sorted}], one per shuffle."""
    hands: list[dict[int, list[str]]] = []
    for event in Event.objects.filter(game_id=game_id).order_by("seq"):
        e = event.as_record_event()
        if e["type"] == "shuffle":
            hands.append({})
        elif e["type"] == "deal":
            hands[-1][e["seat"]] = sorted(hands[-1].get(e["seat"], []) + list(e["cards"]))
    return hands


def play_to_the_end(table: OnlineTable, seed: int, limit: int = 3000, bots=(), td=None) -> Game:
    """The seats join and play, each from its own view (tests/online/play.py), to the end; the
    seats in `bots` are handed to the engine's bot by the TD (its moves are quicker to make)."""
    for seat in table.seats.order_by("seat"):
        online_services.join(seat)
    for seat in table.seats.filter(seat__in=bots):
        online_services.seat_to_bot(seat=seat, user=td)
    rng = random.Random(seed)
    game = Game.objects.get(pk=table.game_id)
    for _ in range(limit):
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            return game
        assert step(table, rng), "nobody at the table can move"
    raise AssertionError("the game did not end")


def published(client, user, header=None) -> tuple[Tournament, list[OnlineTable]]:
    tid = create(client, header=header) if header else create(client)
    register_pairs(client, tid["id"])
    pair_next_round(client, tid["id"])
    tables = online_tables.publish_round(tournament_id=tid["id"], round_number=1, user=user)
    return Tournament.objects.get(pk=tid["id"]), tables


@pytest.mark.django_db
def test_a_duplicate_round_online_is_dealt_its_boards_and_its_results_are_the_games(
    club, scorer, scorer_client, make_user
):
    tournament, tables = published(scorer_client, scorer, DUPLICATE)
    member = make_user("member")
    Membership.objects.create(club=club, user=member, role=Membership.Role.VIEWER)
    listed = {t.pk for t in online_selectors.club_tables(club, scorer, 50)}
    assert {t.pk for t in tables} <= listed, "the TD's list of the club's tables has the round's"
    assert not {t.pk for t in tables} & {t.pk for t in online_selectors.club_tables(club, member, 50)}, (
        "a member's list holds no duplicate board in play"
    )
    links = selectors.table_games(tournament, 1)
    assert sorted(t.game_id for t in tables) == sorted(link.game_id for link in links.values())
    for table in tables:  # a seat per seated player, the game's own players
        game_players = list(Game.objects.get(pk=table.game_id).seats.order_by("seat").values_list("player", flat=True))
        assert list(table.seats.order_by("seat").values_list("player", flat=True)) == game_players
        assert all(not s.bot and s.joined_at is None for s in table.seats.all())
    again = online_tables.publish_round(tournament_id=tournament.pk, round_number=1, user=scorer)
    assert [t.pk for t in again] == [t.pk for t in tables], "published twice: the same tables and links"
    assert OnlineSeat.objects.count() == 8

    # the first table's four seats play from their views; at the second the bot plays three
    games = [play_to_the_end(tables[0], seed=1), play_to_the_end(tables[1], seed=2, bots=(1, 2, 3), td=scorer)]
    boards = [board_deal(n, tournament.board_secret) for n in (1, 2)]
    for game in games:
        dealt = hands_dealt(game.pk)
        assert len(dealt) == 2, "two boards a round: two hands, then the game is over"
        assert [[h[s] for s in range(4)] for h in dealt] == boards, "each hand is the board's, seat by seat"
    assert hands_dealt(games[0].pk) == hands_dealt(games[1].pk), "both tables got the same deals"
    # the game is over, but its boards are held while the tournament runs: a seat link without an
    # account is not offered a replay it could not open; the TD is
    seat = tables[0].seats.get(seat=0)
    assert not online_selectors.seat_view(seat, AnonymousUser())["replay_open"]
    assert online_selectors.seat_view(seat, scorer)["replay_open"]

    for number in sorted(links):
        services.record_result_from_game(tournament_id=tournament.pk, round_number=1, table=number, user=scorer)
    state = selectors.state_at(tournament)
    for number, link in links.items():
        result = state.rounds[0].tables[number].result
        assert result["game"] == link.game_id
        assert list(result["score"]) == list(game_selectors.game_score(Game.objects.get(pk=link.game_id))["totals"])
    standings = core.standings_json(state)["standings"]
    assert sum(r["played"] for r in standings) == 4, "each pair's table counts"


@pytest.mark.django_db
def test_a_swiss_round_online_shuffles_each_table_and_the_result_is_confirmed_as_at_a_table(
    club, scorer, scorer_client
):
    tournament, tables = published(scorer_client, scorer)
    game = play_to_the_end(tables[0], seed=7)
    dealt = hands_dealt(game.pk)
    assert len(dealt) == 1 and sorted(len(c) for c in dealt[0].values()) == [14] * 4
    link = TableGame.objects.get(game_id=game.pk)
    services.table_action(game_id=game.pk, action="record", user=scorer)
    services.table_action(game_id=game.pk, action="confirm", user=scorer)
    state = selectors.state_at(tournament)
    table = state.rounds[0].tables[link.table]
    assert table.confirmation == "confirmed"
    assert list(table.result["score"]) == list(game_selectors.game_score(game)["totals"])
    rows = {r["entry"]: r for r in core.standings_json(state)["standings"]}
    played = [rows[e] for side in table.sides for e in side]
    assert [r["played"] for r in played] == [1, 1]
    assert sorted(r["points"] for r in played) == sorted(table.result["score"])


@pytest.mark.django_db
def test_publishing_online_is_the_tds_and_the_links_go_to_the_table_and_its_players(
    club, scorer, scorer_client, make_user
):
    tournament = create(scorer_client, header=DUPLICATE)
    register_pairs(scorer_client, tournament["id"])
    pair_next_round(scorer_client, tournament["id"])
    viewer = make_user("viewer")
    Membership.objects.create(club=club, user=viewer, role=Membership.Role.VIEWER)
    with pytest.raises(WriteForbidden):
        online_tables.publish_round(tournament_id=tournament["id"], round_number=1, user=viewer)
    assert not OnlineTable.objects.exists()

    tables = online_tables.publish_round(tournament_id=tournament["id"], round_number=1, user=scorer)
    table = tables[0]
    assert online_tables.may_hand_out(table, scorer) and not online_tables.may_hand_out(table, viewer)
    assert not online_tables.may_watch(table, viewer), "a duplicate board in play stays at its tables"
    assert online_tables.may_watch(table, scorer)

    seated = table.seats.order_by("seat").first()
    Player.objects.filter(pk=seated.player_id).update(user=viewer)
    assert online_tables.may_watch(table, viewer), "a seated player reads their own table's game"
    mine = online_tables.my_seats(viewer)
    assert [(m.round, m.seat, m.secret) for m in mine] == [(1, seated.seat, seated.secret)]
    assert online_tables.of_game(table.game_id) == table
    assert online_tables.round_tables(Tournament.objects.get(pk=tournament["id"]), 1) == {
        TableGame.objects.get(game_id=t.game_id).table: t for t in tables
    }


@pytest.mark.django_db
def test_a_duplicate_round_with_grand_tichu_online_deals_each_board_in_two_packets(club, scorer, scorer_client):
    """Grand Tichu allowed: each seat first gets its board's first eight cards (the same at every
    table: board_packets), decides on Grand Tichu, then gets the board's last six; the stored deal
    is the board's, and another second packet is refused."""
    tournament, tables = published(scorer_client, scorer, {**DUPLICATE, "grand_tichu": True})
    packets = board_packets(1, tournament.board_secret)
    for table in tables:
        seats = list(table.seats.order_by("seat"))
        for seat in seats:
            online_services.join(seat)
        views = [online_selectors.seat_view(s) for s in seats]
        assert [sorted(v["state"]["hands"][v["seat"]]) for v in views] == [first for first, _ in packets]
        assert views[0]["grand_tichu_wait"] == [0, 1, 2, 3], "every seat decides before the last six"
        assert {"type": "grand_tichu", "seat": 0} in views[0]["actions"]

    table = tables[0]
    seats = list(table.seats.order_by("seat"))
    game = Game.objects.get(pk=table.game_id)
    wrong = [{"type": "deal", "seat": s, "cards": packets[(s + 1) % 4][1]} for s in range(4)]
    with pytest.raises(InvalidInput) as refused:  # the board's hook, which every append passes
        duplicate_boards.check_board_deal(game, wrong)
    assert refused.value.code == "board_deal_only"

    online_services.act(seat=seats[0], action={"type": "grand_tichu", "seat": 0}, expected_seq=game.seq)
    for seat in seats[1:]:
        online_services.act(seat=seat, action={"type": "no_grand_tichu"}, expected_seq=Game.objects.get(pk=game.pk).seq)
    board = board_deal(1, tournament.board_secret)
    views = [online_selectors.seat_view(s) for s in seats]
    assert [sorted(v["state"]["hands"][v["seat"]]) for v in views] == board, "the last six came after the calls"
    calls = [e.payload for e in Event.objects.filter(game=game, type="grand_tichu")]
    assert calls == [{"seat": 0}]
    game = play_to_the_end(table, seed=3)
    assert [[h[s] for s in range(4)] for h in hands_dealt(game.pk)] == [board, board_deal(2, tournament.board_secret)]
