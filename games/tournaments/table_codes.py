"""Table codes: a short code per table for the whole evening (one table card, as Bridgemate does)
that lets whoever holds it record that table's current game, and nothing else, without an account
(docs/tournament.md, "Table codes").

A code is 8 characters from an alphabet without look-alikes (no 0/O, 1/I/L, 5/S, 2/Z, 8/B),
25^8 ~ 1.5e11 possibilities, drawn with `secrets`; it is typed with or without the dash of its printed
form `ABCD-EFGH`. It is issued when the first round with that table's game is made, stays valid
from round to round (it opens the table's game of the newest round that has one), ends when the
tournament finishes, and the TD can revoke or reissue it (a reissue ends the old code: its holder is
told, in words, to scan the new card). Wrong codes are throttled per client address and per
tournament (games.tournaments.code_throttle).

The holder of a valid code is a `TableCodeHolder`: an anonymous user whose `table_code_game` is the
one game it may write (the table's current game). `games.selectors.game_with_role` gives it the scorer's role on that game
only; `games.services.append_events` stores its events with an empty `recorded_by` and calls
`record_write`, which writes the `TableCodeWrite` row naming the code in the same transaction.
"""

from __future__ import annotations

import hmac
import re
import secrets

from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.tournaments.models import EntryPin, TableCode, TableCodeWrite, TableGame

ALPHABET = "ACDEFGHJKMNPQRTUVWXY34679"
LENGTH = 8
_SEPARATORS = re.compile(r"[\s\-]")


def new_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))


def printed(code: str) -> str:
    """The code as printed on a table card: ABCD-EFGH."""
    half = len(code) // 2
    return f"{code[:half]}-{code[half:]}"


def normalise(raw: str) -> str | None:
    """The stored form of a typed code, or None when it cannot be one."""
    if not isinstance(raw, str) or len(raw) > 32:
        return None
    code = _SEPARATORS.sub("", raw).upper()
    if len(code) != LENGTH or any(c not in ALPHABET for c in code):
        return None
    return code


# A PIN: 6 characters of the same alphabet (25^6 ~ 2.4e8). Before issue 33 each side of a table
# had its own, on that side's slip of the table card (now an entry has one: below). The side that
# sends the table's result types a PIN, the other side types one of its own to confirm or dispute (docs/tournament.md, "Confirmation by the other side").
PIN_LENGTH = 6
#: wrong PINs a code may try in a window before its table's answers wait (the TD still answers)
PIN_TRIES = 10
PIN_WINDOW_S = 15 * 60


def new_pin() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(PIN_LENGTH))


def _side_pins() -> tuple[str, str]:
    ns, ew = new_pin(), new_pin()
    while ew == ns:
        ew = new_pin()
    return ns, ew


def printed_pin(pin: str) -> str:
    """A PIN as printed on a side's slip: ABC-DEF."""
    return printed(pin) if pin else ""


def _typed(raw) -> str | None:
    if not isinstance(raw, str) or len(raw) > 32:
        return None
    return _SEPARATORS.sub("", raw).upper()


# Each entry's PIN for the evening (issue 33): a pair's (a player's in an individual tournament),
# on the entry's own slip, given at the start. Pairs change tables between rounds, so a side of a
# table is named by the PIN of an entry sitting there this round (result_sides.side_by_pin). A
# tournament with no entry PIN (made before) keeps its codes' per-side PINs.


def uses_entry_pins(tournament_id: int) -> bool:
    return EntryPin.objects.filter(tournament_id=tournament_id).exists()


def entry_pins(tournament_id: int) -> dict[str, str]:
    """entry id -> its PIN (stored form)."""
    return dict(EntryPin.objects.filter(tournament_id=tournament_id).values_list("entry", "pin"))


def issue_entry_pins(tournament, entry_ids) -> dict[str, str]:
    """A PIN for each of `entry_ids` that has none yet (late entries get theirs when their round
    is made or their slip printed); a PIN is unique in its tournament. entry id -> PIN."""
    pins = entry_pins(tournament.pk)
    taken = set(pins.values())
    for entry in entry_ids:
        if entry in pins:
            continue
        pin = new_pin()
        while pin in taken:
            pin = new_pin()
        EntryPin.objects.create(tournament=tournament, entry=entry, pin=pin)
        pins[entry] = pin
        taken.add(pin)
    return pins


def pins_for_slips(tournament, entry_ids) -> dict[str, str] | None:
    """entry id -> PIN for printing the entries' slips, a late entry's drawn now; None for a
    tournament whose table codes were made before entry PINs (it keeps the side PINs)."""
    with transaction.atomic():  # the (tournament, entry) constraint stops a second PIN
        if not uses_entry_pins(tournament.pk) and TableCode.objects.filter(tournament=tournament).exists():
            return None
        return issue_entry_pins(tournament, entry_ids)


def entry_of_pin(tournament_id: int, raw) -> str | None:
    """The entry whose PIN `raw` is (with or without the dash, any case), or None; every PIN of
    the tournament is compared, in constant time each."""
    typed = _typed(raw)
    if typed is None:
        return None
    found = None
    for entry, pin in EntryPin.objects.filter(tournament_id=tournament_id).values_list("entry", "pin"):
        if hmac.compare_digest(typed.encode(), pin.encode()):
            found = entry
    return found


def side_of_pin(row: TableCode, raw) -> int | None:
    """The side (0 North/South, 1 East/West) whose PIN `raw` is (typed with or without the dash,
    any case), or None. Compared in constant time."""
    typed = _typed(raw)
    if typed is None:
        return None
    for side, pin in enumerate((row.ns_pin, row.ew_pin)):
        if pin and hmac.compare_digest(typed.encode(), pin.encode()):
            return side
    return None


def _create(tournament, round_number: int, table: int, user) -> TableCode:
    user = user if user is not None and user.is_authenticated else None
    while True:  # a clash is ~1 in 1e9 per live code: retry with a new draw
        code = new_code()
        if not TableCode.objects.filter(code=code).exists():
            # side PINs only for a tournament from before the entries' PINs (issue 33)
            ns_pin, ew_pin = ("", "") if uses_entry_pins(tournament.pk) else _side_pins()
            return TableCode.objects.create(
                tournament=tournament,
                round=round_number,
                table=table,
                code=code,
                created_by=user,
                ns_pin=ns_pin,
                ew_pin=ew_pin,
            )


def live_codes(tournament, tables=None) -> dict[int, TableCode]:
    """Each table's live code (one per table for the whole tournament), of `tables` only if given."""
    rows = TableCode.objects.filter(tournament=tournament, ended_at__isnull=True)
    if tables is not None:
        rows = rows.filter(table__in=list(tables))
    return {row.table: row for row in rows}


def issue_for_round(tournament, round_number: int, tables, user, entry_ids=()) -> dict[int, TableCode]:
    """A live code for each of `tables` that has none yet (called when a round's games are made,
    under the tournament's row lock): a table keeps its card from round to round. The entries
    (`entry_ids`) get their PINs for the evening here, unless the tournament's codes were made
    before entry PINs existed (they keep their side PINs to the end)."""
    if uses_entry_pins(tournament.pk) or not TableCode.objects.filter(tournament=tournament).exists():
        issue_entry_pins(tournament, entry_ids)
    live = live_codes(tournament, tables)
    for table in tables:
        if table not in live:
            live[table] = _create(tournament, round_number, table, user)
    return live


def _end(rows, reason: str) -> int:
    return rows.filter(ended_at__isnull=True).update(ended_at=timezone.now(), end_reason=reason)


def reissue(tournament, round_number: int, table: int, user) -> TableCode:
    """End the table's live code and give it a new one (the caller holds the tournament's lock and
    has checked the round is open); `round_number` is the round the new card is first used in."""
    _end(TableCode.objects.filter(tournament=tournament, table=table), TableCode.Ended.REISSUED)
    return _create(tournament, round_number, table, user)


def revoke(tournament, round_number: int, table: int) -> int:
    return _end(TableCode.objects.filter(tournament=tournament, table=table), TableCode.Ended.REVOKED)


def end_for_events(tournament, events: list[dict]) -> None:
    """Codes end with the tournament (`tournament_finished`); a closed round keeps them: the same
    card opens the table's game of the next round."""
    for event in events:
        if event.get("type") == "tournament_finished":
            _end(TableCode.objects.filter(tournament=tournament), TableCode.Ended.FINISHED)


def current_game(row: TableCode) -> TableGame | None:
    """The table's game a code opens: the table's newest game (the newest round with a game at
    that table; in a round, the newest row: a table re-seated by an override has a new game)."""
    return TableGame.objects.filter(tournament_id=row.tournament_id, table=row.table).order_by("-round", "-id").first()


class TableCodeHolder(AnonymousUser):
    """Whoever holds a live table code: signed in for its one game, anonymous for everything
    else (no pk, no membership, no permission)."""

    def __init__(self, table_code: TableCode, game_id: int, round_number: int) -> None:
        self.table_code = table_code
        self.table_code_game = game_id
        self.table_code_round = round_number  # the round of that game (the code outlives rounds)

    def __str__(self) -> str:
        return f"table code {printed(self.table_code.code)}"

    def get_username(self) -> str:  # shown in the page header: which table this phone records
        return _("Table %(table)s (%(code)s)") % {"table": self.table_code.table, "code": printed(self.table_code.code)}

    @property
    def is_anonymous(self) -> bool:
        return False

    @property
    def is_authenticated(self) -> bool:
        return True

    is_active = True

    # The write throttle counts each code on its own (not all holders as one pk-less user).
    @property
    def throttle_ident(self) -> str:
        return f"table-code:{self.table_code.pk}"

    def check_write(self, game_id: int) -> None:
        """Called by games.services.append_events under the game's lock, before anything is
        folded: once the table's result is sent, the game is the TD's (result_sides)."""
        from games.tournaments.result_sides import check_code_write  # it reads this module's names

        check_code_write(self.table_code, self.table_code_round)

    def record_write(self, game_id: int, first_seq: int, last_seq: int) -> None:
        """Called by games.services.append_events inside its transaction."""
        TableCodeWrite.objects.create(code=self.table_code, game_id=game_id, first_seq=first_seq, last_seq=last_seq)

    def idempotency_owner(self):
        """Idempotency keys are per user; a code's are kept under the TD who made the
        tournament, prefixed by the code (None: the code's writes take no key)."""
        return self.table_code.tournament.created_by


def holder_for(raw: str) -> TableCodeHolder | None:
    """The holder of a live code, or None (unknown, revoked, reissued, or its tournament finished)."""
    code = normalise(raw)
    if code is None:
        return None
    row = TableCode.objects.select_related("tournament__created_by").filter(code=code, ended_at__isnull=True).first()
    if row is None:
        return None
    link = current_game(row)
    if link is None:
        return None
    return TableCodeHolder(row, link.game_id, link.round)


def ended_code(raw) -> TableCode | None:
    """The code `raw` names if it existed and has ended (replaced, revoked, finished), else None:
    its holder is told why, in words, instead of being refused as a stranger."""
    code = normalise(raw) if isinstance(raw, str) else None
    if code is None:
        return None
    return TableCode.objects.filter(code=code, ended_at__isnull=False).first()


def table_game_ids(row: TableCode) -> list[int]:
    """The games a code's table has played this tournament (pages its holder may still have open)."""
    return list(
        TableGame.objects.filter(tournament_id=row.tournament_id, table=row.table).values_list("game_id", flat=True)
    )


def game_path_prefixes(game_id: int) -> tuple[str, ...]:
    """The only paths a code may be used on: its game's entry pages and API."""
    return (f"/games/{game_id}/enter/", f"/api/games/{game_id}/")


def ended_message(row: TableCode) -> str:
    """What the holder of an ended code reads: what to do, in words (never a message about roles)."""
    if row.end_reason == TableCode.Ended.REISSUED:
        return _(
            "The director replaced this table's card: scan the new card on table %(table)s "
            "(or type its code at /t/). Nothing already saved is lost."
        ) % {"table": row.table}
    if row.end_reason == TableCode.Ended.FINISHED:
        return _("The tournament has finished: this table card no longer opens a game. Thank you for playing!")
    return _(
        "The director withdrew this table's card (table %(table)s): ask the director for the table's "
        "new card, then scan it."
    ) % {"table": row.table}


def scoped(holder: TableCodeHolder | None, path: str) -> bool:
    return holder is not None and path.startswith(game_path_prefixes(holder.table_code_game))


SESSION_KEY = "tichu_table_code"
