"""Duplicate boards in the tables' games: each hand of a duplicate table's game is dealt from its
board (games.tournament.duplicate.board_deal), the same cards to the same seats at every table
that plays it. The round's games get their first board when they are made; each next board is
dealt on request (`deal_next_board`: the TD, a scorer, or the table's code through
`POST /api/games/{id}/tournament-table/ {"action": "deal"}`) once the previous hand is over.
"""
from __future__ import annotations

import secrets

from django.utils.translation import gettext as _

from games import engine, snapshots
from games import services as game_services
from games.models import Game
from games.services import InvalidInput, WriteResult
from games.tournament.duplicate import board_deal
from games.tournaments.models import TableGame, Tournament

def new_secret() -> str:
    return secrets.token_hex(16)


def is_duplicate(tournament: Tournament) -> bool:
    return tournament.header.get("system") == "duplicate"


def board_number(tournament: Tournament, round_number: int, hand: int) -> int:
    return (round_number - 1) * (tournament.header["hands_per_round"] or 1) + hand + 1


def deal(tournament: Tournament, board: int) -> list[list[str]]:
    """The board's four hands (seat 0 North first): the TD's board sheets and the games. Dealt
    from the tournament's secret only: every duplicate tournament has one (made with it, or given
    one by migration 0010), and a tournament without one deals nothing rather than from a string
    its readers could compute."""
    if not tournament.board_secret:
        raise InvalidInput(_("this tournament has no board secret: its boards cannot be dealt"),
                           code="no_board_secret")
    return board_deal(board, tournament.board_secret)


def _hands_started(game: Game) -> int:
    return sum(e.get("type") in engine.HAND_START_EVENTS for e in snapshots.stored_events(game, game.seq))


def next_board_events(tournament: Tournament, link: TableGame, game: Game) -> tuple[int, list[dict]]:
    """(board, events) that start the game's next hand on its board: a shuffle by a seat the
    engine allows (the board's dealer when it may), then each seat's fourteen cards."""
    state = snapshots.state_at(game, game.seq)
    seats = [a["seat"] for a in engine.legal_actions(state) if a.get("type") == "shuffle"]
    if not seats:
        raise InvalidInput(_("the table's game is not at the start of a hand"), code="not_at_hand_start")
    hand = _hands_started(game)
    if hand >= (tournament.header["hands_per_round"] or 1):
        raise InvalidInput(_("every board of the round has been dealt at this table"), code="boards_dealt")
    board = board_number(tournament, link.round, hand)
    hands = deal(tournament, board)
    dealer = (board - 1) % 4
    first = dealer if dealer in seats else seats[0]
    events = [{"type": "shuffle", "seat": first}]
    events += [{"type": "deal", "seat": (first + i) % 4, "cards": hands[(first + i) % 4]} for i in range(4)]
    return board, events


def deal_next_board(tournament: Tournament, link: TableGame, user) -> WriteResult:
    """Append the next board's deal to the table's game (the caller holds the tournament's lock)."""
    if not is_duplicate(tournament):
        raise InvalidInput(_("boards are dealt in a duplicate tournament only"), code="not_duplicate")
    game = Game.objects.select_for_update().get(pk=link.game_id)
    board, events = next_board_events(tournament, link, game)
    result = game_services.append_events(game=game, events=events, expected_seq=game.seq, user=user)
    return WriteResult(body={**result.body, "board": board}, replayed=result.replayed)
