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
from dataclasses import dataclass

from django.utils.translation import gettext as _

from games import engine, snapshots
from games import services as game_services
from games.models import Game
from games.services import InvalidInput, WriteResult
from games.tournament import board_deal, board_packets
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


@dataclass(frozen=True)
class BoardDeal:
    """A board's deal at a table: `now`, the events that start the hand (a shuffle and each seat's
    cards up to its Grand Tichu limit), and `later`, the rest of each hand, dealt once every seat
    has decided on Grand Tichu (none where the tournament plays without it)."""

    board: int
    now: list[dict]
    later: list[dict]

    @property
    def whole(self) -> list[dict]:
        return self.now + self.later


def packets(tournament: Tournament, board: int) -> list[tuple[list[str], list[str]]] | None:
    """Each seat's hand of the board in its two packets (its first eight cards, then six) where
    the tournament allows Grand Tichu; None where it does not (a board is dealt whole). Dealt from
    the tournament's secret only, as `deal`."""
    if not tournament.header.get("grand_tichu"):
        return None
    deal(tournament, board)  # refuses a tournament without its board secret
    return board_packets(board, tournament.board_secret)


def _dealing_order(tournament: Tournament, board: int) -> list[list[str]]:
    """Each seat's cards in the order they are dealt: the two packets one after the other where
    Grand Tichu is allowed (the same first eight at every table), else the hand sorted."""
    split = packets(tournament, board)
    return [first + last for first, last in split] if split else deal(tournament, board)


def next_board_events(tournament: Tournament, link: TableGame, game: Game) -> BoardDeal:
    """The deal that starts the game's next hand on its board: a shuffle by a seat the engine
    allows (the board's dealer when it may), then each seat's cards (engine.deal_hands cuts them
    at the Grand Tichu limit, where the tournament allows the call)."""
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
    hands = _dealing_order(tournament, board)
    dealer = (board - 1) % 4
    first = dealer if dealer in seats else seats[0]
    shuffle = {"type": "shuffle", "seat": first}
    shuffled = state.copy()
    shuffled.apply(shuffle)
    now, later = engine.deal_hands(shuffled, dict(enumerate(hands)))
    return BoardDeal(board, [shuffle, *now], later)


def rest_of_board(tournament: Tournament, link: TableGame, game: Game) -> list[dict] | None:
    """The rest of the board being dealt (its last six cards a seat, once the Grand Tichu
    decisions are made), or None when the game is not in the middle of a board's deal (a board
    without Grand Tichu is dealt whole: never)."""
    if not tournament.header.get("grand_tichu"):
        return None
    state = snapshots.state_at(game, game.seq)
    if engine.state_json(state).get("phase") != "deal":
        return None
    split = packets(tournament, board_number(tournament, link.round, len(state.history)))
    assert split is not None  # Grand Tichu allowed: the board has its packets
    try:
        now, later = engine.deal_hands(state, {seat: last for seat, (_first, last) in enumerate(split)})
    except ValueError:  # not after the board's first packets (a shuffle typed alone): not its rest
        return None
    return now + later


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
    rest = rest_of_board(link.tournament, link, game)
    if rest is not None:  # the board's last six cards, after the Grand Tichu decisions
        allowed = [rest]
    else:
        board = next_board_events(link.tournament, link, game)  # refuses mid-hand and past the round
        allowed = [board.whole, board.now] if board.later else [board.whole]
    if not any(events == [engine.canonical_event(e, game.variant) for e in batch] for batch in allowed):
        raise InvalidInput(
            _("a duplicate table's hands are dealt from its boards only: ask for the next board (the deal action)"),
            code="board_deal_only",
        )


def deal_next_board(tournament: Tournament, link: TableGame, user) -> WriteResult:
    """Append the next board's deal to the table's game (the caller holds the tournament's lock)."""
    if not is_duplicate(tournament):
        raise InvalidInput(_("boards are dealt in a duplicate tournament only"), code="not_duplicate")
    game = Game.objects.select_for_update().get(pk=link.game_id)
    board = next_board_events(tournament, link, game)
    # at a scored table the whole board at once (its scorer enters any Grand Tichu call with the hand)
    result = game_services.append_events(game=game, events=board.whole, expected_seq=game.seq, user=user)
    return WriteResult(body={**result.body, "board": board.board}, replayed=result.replayed)
