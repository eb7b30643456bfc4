"""Duplicate boards in the tables' games: each hand of a duplicate table's game is dealt from its
board (games.tournament.duplicate.board_deal), the same cards to the same seats at every table
that plays it. The round's games get their first board when they are made; each next board is
dealt on request (`deal_next_board`: the TD, a scorer, or the table's code through
`POST /api/games/{id}/tournament-table/ {"action": "deal"}`) once the previous hand is over. Which
board is next is read off the game's fold (its hands over and in force), never off the stored
deals: an undone deal is dealt again and no board can be skipped.
"""

from __future__ import annotations

import secrets

from django.utils.translation import gettext as _

from games import engine, snapshots
from games import services as game_services
from games.models import Game
from games.services import InvalidInput, WriteResult
from games.tournament import board_deal
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
        raise InvalidInput(_("this tournament has no board secret: its boards cannot be dealt"), code="no_board_secret")
    return board_deal(board, tournament.board_secret)


def next_board_events(tournament: Tournament, link: TableGame, game: Game) -> tuple[int, list[dict]]:
    """(board, events) that start the game's next hand on its board: a shuffle by a seat the
    engine allows (the board's dealer when it may), then each seat's fourteen cards."""
    state = snapshots.state_at(game, game.seq)
    seats = [a["seat"] for a in engine.legal_actions(state) if a.get("type") == "shuffle"]
    if not seats:
        raise InvalidInput(_("the table's game is not at the start of a hand"), code="not_at_hand_start")
    # The board follows from the fold: the hands over and stored in force (an undone deal counts
    # for nothing, so it is dealt again; counting stored deals let five undos skip a board).
    hand = len(state.history)
    if hand >= (tournament.header["hands_per_round"] or 1):
        raise InvalidInput(_("every board of the round has been dealt at this table"), code="boards_dealt")
    board = board_number(tournament, link.round, hand)
    hands = deal(tournament, board)
    dealer = (board - 1) % 4
    first = dealer if dealer in seats else seats[0]
    events = [{"type": "shuffle", "seat": first}]
    events += [{"type": "deal", "seat": (first + i) % 4, "cards": hands[(first + i) % 4]} for i in range(4)]
    return board, events


#: The events that deal a hand, or record one whole: at a duplicate table only its board deals.
DEALING = frozenset({"shuffle", "deal", "draw", "hand_result", "round_result"})


def check_board_deal(game: Game, events: list[dict]) -> None:
    """Refuse a batch that deals a duplicate table's hand otherwise than from its next board (the
    `events_appending` hook, in the append's transaction): undoing the board's deal and typing
    another would play a deal no other table plays. The board's own deal (the deal action's
    events, or the same events typed) passes."""
    if not any(e.get("type") in DEALING for e in events):
        return
    meta = (game.header or {}).get("meta") if isinstance(game.header, dict) else None
    if not isinstance(meta, dict) or not meta.get("tournament"):
        return  # not a table's game: no query
    link = TableGame.objects.filter(game_id=game.pk).select_related("tournament").first()
    if link is None or not is_duplicate(link.tournament):
        return
    expected = next_board_events(link.tournament, link, game)[1]  # refuses mid-hand and past the round
    if events != [engine.canonical_event(e, game.variant) for e in expected]:
        raise InvalidInput(
            _("a duplicate table's hands are dealt from its boards only: ask for the next board (the deal action)"),
            code="board_deal_only",
        )


def deal_next_board(tournament: Tournament, link: TableGame, user) -> WriteResult:
    """Append the next board's deal to the table's game (the caller holds the tournament's lock)."""
    if not is_duplicate(tournament):
        raise InvalidInput(_("boards are dealt in a duplicate tournament only"), code="not_duplicate")
    game = Game.objects.select_for_update().get(pk=link.game_id)
    board, events = next_board_events(tournament, link, game)
    result = game_services.append_events(game=game, events=events, expected_seq=game.seq, user=user)
    return WriteResult(body={**result.body, "board": board}, replayed=result.replayed)
