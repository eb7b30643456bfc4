"""The writes of an online table: open it, join a seat, act from a seat.

Every event goes through the one append service (games.services.append_events), so an online
game's record is an ordinary record: the expected seq refuses a stale page or a race between two
seats (nothing stored twice), an Idempotency-Key replays a retried request. The table's own
steps (the shuffle, the deal, the rest of the deal once the Grand Tichu decisions are in, the next
hand) are appended by the table itself in the same transaction as the action that set them off,
under the table's row lock: no state lives in a process, a reload reads it all back.

A seat may be the engine's bot's (`OnlineSeat.bot`; the record marks it: record_marks), given
when the table opens or when its player leaves. The bots act in the request that makes it their
turn, through the same append service, as the table's own steps do: no background process.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import engine, selectors, snapshots
from games.models import Club, Game
from games.services import InvalidInput, SeqConflict, WriteForbidden, append_events, game_create
from games.services.content import record_content

from . import tournament_deal
from .models import OnlineSeat, OnlineTable
from .record_marks import with_bot

#: the state's phase between two hands (engine.state_json's "phase")
_BETWEEN_HANDS = "between_hands"
#: what a seat sends to say it does not call Grand Tichu (not an event of the record)
NO_GRAND_TICHU = "no_grand_tichu"
_shuffler = secrets.SystemRandom()
#: the bot's policy (engine.bot_moves): the engine's plain heuristic player
BOT_POLICY = "greedy"
_bot_chance = secrets.SystemRandom()  # a bot's choice among equal moves: nobody may foresee it either


class TableDealer(AnonymousUser):
    """The online table writing its game: a scorer of that one game and of nothing else (as a
    table code is, games.selectors.game_with_role), without an account. A seat's retried request
    keeps its Idempotency-Key under the table's opener, prefixed by the seat."""

    def __init__(self, table: OnlineTable, seat: OnlineSeat | None = None) -> None:
        self.online_table = table
        self.online_seat = seat
        self.table_code_game = table.game_id

    @property
    def is_anonymous(self) -> bool:
        return False

    @property
    def is_authenticated(self) -> bool:
        return True

    def idempotency_owner(self):
        return self.online_table.created_by

    def idempotency_prefix(self) -> str:
        seat = self.online_seat.pk if self.online_seat is not None else "table"
        return f"online-seat:{seat}:"


def new_secret() -> str:
    return secrets.token_urlsafe(16)


def open_table(*, club: Club, variant: str, options: dict | None, players: list[str], user, bots=()) -> OnlineTable:
    """A new table of `club`: its game (an ordinary game of the club, seats named by `players`)
    and a secret link per seat; the seats in `bots` are the engine's bot's (joined at once, and so
    marked in the record). Any member of the club may open one; at least one seat is a person's."""
    if selectors.membership_role(user, club) is None:
        raise WriteForbidden(_("opening an online table needs membership of club “%(club)s”") % {"club": club.slug})
    bot_seats = sorted(set(bots))
    if any(not isinstance(b, int) or isinstance(b, bool) or not 0 <= b < len(players) for b in bot_seats):
        raise InvalidInput(_("a bot's seat is one of the table's seats"), code="malformed")
    if players and len(bot_seats) >= len(players):
        raise InvalidInput(_("a person plays at least one seat of the table"), code="no_person")
    if variant in engine.GAME_NAMES:  # an unknown game is game_create's refusal
        options = engine.table_options(variant, options, _shuffler)  # Tien Zi Que: the deck's colours
    with transaction.atomic():
        result = game_create(club=club, variant=variant, options=options, players=players, user=user)
        game = Game.objects.get(pk=result.body["id"])
        table = OnlineTable.objects.create(club=club, game=game, created_by=user)
        seats = list(game.seats.select_related("player").order_by("seat"))
        now = timezone.now()
        OnlineSeat.objects.bulk_create(
            OnlineSeat(
                table=table,
                seat=s.seat,
                player=s.player,
                secret=new_secret(),
                bot=BOT_POLICY if s.seat in bot_seats else "",
                joined_at=now if s.seat in bot_seats else None,
            )
            for s in seats
        )
        for seat in bot_seats:
            _mark_bot(game, seat)
    return table


def seat_to_bot(*, seat: OnlineSeat, user) -> OnlineSeat:
    """The engine's bot takes `seat` from here on (its player left): a member of the club hands it
    over; the record marks the seat as the bot's from this event on, and the bot acts at once if
    the table waits for it. A person keeps at least one seat; the game must still be on."""
    with transaction.atomic():
        table = OnlineTable.objects.select_for_update(of=("self",)).select_related("club").get(pk=seat.table_id)
        if selectors.membership_role(user, table.club) is None:
            raise WriteForbidden(
                _("handing a seat to the bot needs membership of club “%(club)s”") % {"club": table.club.slug}
            )
        seat = OnlineSeat.objects.get(pk=seat.pk)
        if seat.bot:
            return seat
        game = Game.objects.select_for_update().get(pk=table.game_id)
        if game.status != Game.Status.ACTIVE:
            raise InvalidInput(_("the game is over"), code="game_over")
        if not OnlineSeat.objects.filter(table=table, bot="").exclude(pk=seat.pk).exists():
            raise InvalidInput(_("a person plays at least one seat of the table"), code="no_person")
        seat.bot = BOT_POLICY
        seat.joined_at = seat.joined_at or timezone.now()
        seat.save(update_fields=["bot", "joined_at"])
        _mark_bot(game, seat.seat)
        if all_joined(table):
            _advance(table)
    return seat


def _mark_bot(game: Game, seat: int) -> None:
    """The record says `seat` is the bot's from its next event on (meta.bots); the game's content
    hash, which covers the header, is worked out again over the record (games.services.content)."""
    save_header(game, with_bot(game.header, seat, game.seq, BOT_POLICY))


def save_header(game: Game, header: dict) -> None:
    """Store the game's new header (a mark in its `meta`: record_marks) and its content hash, which
    covers the header, worked out again over the record (games.services.content)."""
    game.header = header
    events = [e.as_record_event() for e in game.events.order_by("seq")] if game.seq else []
    game.content_hash = record_content(game.variant, game.options, game.header, events)
    game.save(update_fields=["header", "content_hash"])


def bot_seats(table: OnlineTable) -> frozenset[int]:
    return frozenset(OnlineSeat.objects.filter(table=table).exclude(bot="").values_list("seat", flat=True))


def join(seat: OnlineSeat) -> OnlineSeat:
    """The seat's player has opened its link: once every seat has, the table deals."""
    with transaction.atomic():
        table = OnlineTable.objects.select_for_update().get(pk=seat.table_id)
        if seat.joined_at is None:
            OnlineSeat.objects.filter(pk=seat.pk, joined_at__isnull=True).update(joined_at=timezone.now())
            seat.joined_at = timezone.now()
        if not OnlineSeat.objects.filter(table=table, joined_at__isnull=True).exists():
            _advance(table)
    return seat


def all_joined(table: OnlineTable) -> bool:
    return not OnlineSeat.objects.filter(table=table, joined_at__isnull=True).exists()


def undecided(table: OnlineTable, state) -> list[int]:
    """The seats the deal waits for: they may still call Grand Tichu and have not said no."""
    if not table.pending_deal:
        return []
    bots = bot_seats(table)  # a bot calls no Grand Tichu
    return [s for s in engine.grand_tichu_open(state) if s not in table.declined and s not in bots]


def act(*, seat: OnlineSeat, action: dict, expected_seq: int, idempotency_key: str | None = None) -> dict:
    """`seat` takes `action` (an event of its own seat, or "no_grand_tichu") on the table as it
    stood after `expected_seq` events. Refused, with a coded error and nothing stored, when the
    table has moved on (SeqConflict) or the engine does not offer that action to this seat now."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise InvalidInput(_("an action is an object with a type"), code="malformed")
    with transaction.atomic():
        table = (
            OnlineTable.objects.select_for_update(of=("self",))  # the opener may be gone: an outer join
            .select_related("game", "created_by")
            .get(pk=seat.table_id)
        )
        game = table.game
        if not all_joined(table):
            raise InvalidInput(_("the table waits until every seat has joined"), code="table_not_ready")
        if OnlineSeat.objects.filter(pk=seat.pk).exclude(bot="").exists():
            raise InvalidInput(_("the bot plays this seat now"), code="seat_is_bot")
        dealer = TableDealer(table, seat)
        # the seat's own action, or one of a seat it plays for (Threechu's dealer: the dummy)
        event = {**action, "seat": action.get("seat", seat.seat)}
        if expected_seq != game.seq:
            # a retried request is answered as it was the first time; anything else is stale
            if idempotency_key is not None and event["type"] != NO_GRAND_TICHU:
                state = snapshots.state_at(game, expected_seq) if 0 <= expected_seq <= game.seq else None
                if state is not None:  # a reshuffle's order is the first request's again
                    event = engine.shuffle_chance(
                        state, event, chance_order(table, seat, expected_seq, idempotency_key)
                    )
                return append_events(
                    game=game.pk,
                    events=[event],
                    expected_seq=expected_seq,
                    idempotency_key=idempotency_key,
                    user=dealer,
                ).body
            raise SeqConflict(expected_seq, game.seq)
        state = snapshots.state_at(game, game.seq)
        if game.status != Game.Status.ACTIVE:
            raise InvalidInput(_("the game is over"), code="game_over")
        if event["seat"] not in engine.seats_played_by(state, seat.seat):
            raise InvalidInput(_("this action is not open to your seat now"), code="not_your_action")
        if event["type"] == NO_GRAND_TICHU:
            if seat.seat not in undecided(table, state):
                raise InvalidInput(_("there is no Grand Tichu to decide now"), code="not_your_action")
            table.declined = sorted({*table.declined, seat.seat})
            table.save(update_fields=["declined"])
            body = {"id": game.pk, "seq": game.seq, "appended": 0}
        else:
            _check_offered(state, event["seat"], engine.canonical_event(event, game.variant))
            event = engine.shuffle_chance(state, event, chance_order(table, seat, expected_seq, idempotency_key))
            body = append_events(
                game=game.pk, events=[event], expected_seq=expected_seq, idempotency_key=idempotency_key, user=dealer
            ).body
        _advance(table)
    return body


def chance_order(table: OnlineTable, seat: OnlineSeat, expected_seq: int, key: str | None) -> random.Random:
    """The order of the cards a seat's action leaves to chance (Tien Zi Que's reshuffle that a seat
    chooses: engine.shuffle_chance). Unforeseeable, like the deal: `secrets` without a key; with
    an Idempotency-Key, drawn from a hash of the site's secret key and the request, so that a
    retried request is the same request (its answer replayed, nothing stored twice)."""
    if key is None:
        return _shuffler
    request = f"{table.pk}:{seat.pk}:{expected_seq}:{key}".encode()
    seed = hmac.new(settings.SECRET_KEY.encode(), request, hashlib.sha256).digest()
    return random.Random(int.from_bytes(seed, "big"))


def _check_offered(state, seat: int, event: dict) -> None:
    """Refuse an action the engine does not offer this seat now (a push is checked by the fold:
    its cards are the seat's choice, but only while the seat owes one)."""
    if event["type"] == "push":
        if not engine.push_due(state, seat):
            raise InvalidInput(_("there is no exchange to make now"), code="not_your_action")
        return
    if not any(_same_action(event, offered) for offered in engine.seat_actions(state, seat)):
        raise InvalidInput(_("this action is not open to your seat now"), code="not_your_action")


def _same_action(sent: dict, offered: dict) -> bool:
    """Whether `sent` is the `offered` action, its cards in any order."""

    def key(a: dict) -> dict:
        cards = a.get("cards")
        return {**a, "cards": sorted(cards)} if isinstance(cards, list) else a

    return key(sent) == key(offered)


def _advance(table: OnlineTable) -> None:
    """The table's own steps, as far as they go without a person: shuffle and deal a new hand,
    give out the rest of the deal once no seat has a Grand Tichu left to decide, and the bots'
    moves (engine.bot_moves) up to the first step that is a person's."""
    game = Game.objects.get(pk=table.game_id)
    dealer = TableDealer(table)
    bots = bot_seats(table)
    while game.status == Game.Status.ACTIVE:
        state = snapshots.state_at(game, game.seq)
        chance = engine.table_events(state, _shuffler)  # a deal that is one event (Tien Zi Que's)
        if chance:
            _append(game, chance, dealer)
            continue
        phase = engine.state_json(state)["phase"]
        if phase == _BETWEEN_HANDS:
            fixed = tournament_deal.next_hand(game)  # a duplicate board: the same deal at every table
            if fixed is not None:
                now, later = fixed
                _append(game, now, dealer)
                table.pending_deal, table.declined, table.decided_at_seq = later, [], game.seq
                table.save(update_fields=["pending_deal", "declined", "decided_at_seq"])
                continue
            shuffle = engine.legal_actions(state)[0]  # the engine names who shuffles (a rotation)
            _append(game, [shuffle], dealer)
            dealt: Any = snapshots.state_at(game, game.seq)  # a Tichu family state: it deals in tricks
            pile = engine.deal_pile(dealt)
            _shuffler.shuffle(pile)
            first, later = engine.deal_events(dealt, pile)
            _append(game, first, dealer)
            table.pending_deal, table.declined, table.decided_at_seq = later, [], game.seq
            table.save(update_fields=["pending_deal", "declined", "decided_at_seq"])
            continue
        if table.pending_deal and not undecided(table, state):
            _append(game, table.pending_deal, dealer)
            table.pending_deal = []
            table.save(update_fields=["pending_deal"])
            continue
        moves = engine.bot_moves(state, bots, _bot_chance, engine.greedy_policy) if bots else []
        if moves:
            _append(game, moves, dealer)
            continue
        return


def _append(game: Game, events: list[dict], dealer: TableDealer) -> None:
    if events:
        append_events(game=game, events=events, expected_seq=game.seq, user=dealer)
