"""Who answers a table's result (issue 30, finding 5): the side that sent it is not the side that
confirms it, and a result that its game no longer gives does not stand silently.

- A table's code is shared by the table, so with a code the result is sent and answered by a
  **side**, named by the PIN of an entry sitting there this round (issue 33: an entry's PIN for
  the evening, `table_codes.entry_of_pin`; before, each side's PIN, `table_codes.side_of_pin`): the event carries `side`, and the
  tournament core refuses an answer from the side that sent the result (`same_side`). The TD (a
  scorer or admin of the club) acts without a side. Wrong PINs are counted per code in a window
  (`table_codes.PIN_TRIES`): past it the table's answers wait for the window or the TD.
- Once the table's result is sent, its code no longer writes the table's game (`result_sent`):
  undoing and replaying the game is the TD's, who then takes the result again.
- A table's result is its game's (issue 31, selectors.fold): when the TD changes the game after the
  result was sent, the result follows and the opponents are asked again. While the game is open
  again (hands undone, not yet re-entered) the result is **out of step**: the table's view and the
  director's page flag it and the round does not close until the game is over (`result_out_of_step`).
"""

from __future__ import annotations

import logging
from typing import Any

from django.utils.translation import gettext as _

from games import safe_cache, window_counter
from games import selectors as game_selectors
from games import tournament as core
from games.models import Game
from games.services import InvalidInput, WriteForbidden
from games.tournaments import selectors, table_codes
from games.tournaments.models import TableCode, TableGame, TournamentEvent

logger = logging.getLogger(__name__)
RESULT_TYPES = ("result_recorded", "result_corrected")


class SidePinRefused(WriteForbidden):
    """A code's send, confirmation or dispute without its side's PIN, or with a wrong one (403)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def _misses_key(row: TableCode) -> str:
    return f"tichu:side-pin-misses:{row.pk}"


def _missed(row: TableCode) -> None:
    try:
        window_counter.increment(_misses_key(row), table_codes.PIN_WINDOW_S)
    except Exception:  # noqa: BLE001 - a cache that is down counts nothing (as the throttles)
        logger.warning("side PIN misses not counted", exc_info=True)


def side_by_pin(row: TableCode, pin: Any, round_number: int | None = None) -> int:
    """The side the code's holder names by the PIN typed, or the coded refusal. With entry PINs
    (issue 33) it is the side of the table (of `round_number`, the round of the table's current
    game) where the PIN's entry sits; a PIN of an entry elsewhere is refused. A tournament made
    before entry PINs uses its code's side PINs."""
    if not isinstance(pin, str) or not pin.strip():
        raise SidePinRefused("side_pin_required", _("type your PIN: it is on your slip for the evening"))
    if (safe_cache.get(_misses_key(row)) or 0) >= table_codes.PIN_TRIES:
        raise SidePinRefused(
            "side_pin_locked", _("too many wrong PINs at this table: wait a quarter of an hour, or ask the director")
        )
    if round_number is not None and table_codes.uses_entry_pins(row.tournament_id):
        return _side_of_entry_pin(row, pin, round_number)
    side = table_codes.side_of_pin(row, pin)
    if side is None:
        _missed(row)
        raise SidePinRefused("side_pin_wrong", _("that is not the PIN of a side of this table"))
    return side


def _side_of_entry_pin(row: TableCode, pin: str, round_number: int) -> int:
    entry = table_codes.entry_of_pin(row.tournament_id, pin)
    if entry is None:
        _missed(row)
        raise SidePinRefused(
            "side_pin_wrong", _("that is not a PIN of this tournament: type the PIN on your slip for the evening")
        )
    rnd = selectors.round_of(selectors.state_at(row.tournament), round_number)
    table = rnd.tables.get(row.table) if rnd is not None else None
    for side, entries in enumerate(table.sides if table is not None else ()):
        if entry in entries:
            return side
    _missed(row)  # a PIN of someone elsewhere is counted as a wrong one: it names no side here
    raise SidePinRefused(
        "side_pin_not_at_table",
        _(
            "that PIN belongs to an entry not playing at table %(table)s in round %(round)s: "
            "type the PIN of a player at this table"
        )
        % {"table": row.table, "round": round_number},
    )


def pins_at_table(row: TableCode) -> dict[str, list[str]] | None:
    """With entry PINs: {"ns": [...], "ew": [...]}, the PINs of the entries at each side of the
    code's table in the round of its current game (for the TD's API); None for side PINs."""
    if row.ns_pin or not table_codes.uses_entry_pins(row.tournament_id):
        return None
    link = table_codes.current_game(row)
    rnd = selectors.round_of(selectors.state_at(row.tournament), link.round) if link is not None else None
    table = rnd.tables.get(row.table) if rnd is not None else None
    pins = table_codes.entry_pins(row.tournament_id)
    sides = table.sides if table is not None else ([], [])
    return {key: [pins[e] for e in side if e in pins] for key, side in zip(("ns", "ew"), sides, strict=True)}


def a_pin_per_side(row: TableCode) -> tuple[str, str]:
    """A PIN each side of the code's table may type now (stored form): the first entry's of each
    side this round, or the code's side PINs (a tournament made before entry PINs)."""
    at_table = pins_at_table(row)
    if at_table is None:
        return row.ns_pin, row.ew_pin
    return (at_table["ns"] or [""])[0], (at_table["ew"] or [""])[0]


def check_code_write(row: TableCode, round_number: int) -> None:
    """A table's code writes its game (of `round_number`) only until the table's result is sent."""
    sent = TournamentEvent.objects.filter(
        tournament_id=row.tournament_id, type__in=RESULT_TYPES, payload__round=round_number, payload__table=row.table
    ).exists()
    if sent:
        raise InvalidInput(
            _("table %(table)s's result is sent: its game no longer changes with the table's code; ask the director")
            % {"table": row.table},
            code="result_sent",
        )


def game_lines(game: Game) -> list[dict]:
    """The hand lines the game gives now, as a result or an answer carries them."""
    return core.hand_lines(game_selectors.game_score(game))


def out_of_step(table: Any, link: TableGame | None = None) -> dict | None:
    """For a table (core, folded with its games: selectors.fold) whose result is its game's: the
    game is open again (a director re-entering hands), so the table keeps the numbers last sent
    until the game is over again ({"sent": [a, b], "now": None}); None when the result is the
    game's (or was typed, or the TD's paper score). A game that changed and is over again needs
    nothing: its result is the table's, and the opponents are asked again (core: `reasked`)."""
    result = table.result
    if result is None or not result.get("game_open"):
        return None
    return {"sent": list(result["score"]), "now": None}


def round_out_of_step(tournament, state, round_number: int) -> dict[int, dict]:
    """table -> out_of_step() for the round's tables whose result their game no longer gives."""
    rnd = selectors.round_of(state, round_number)
    if rnd is None:
        return {}
    links = selectors.table_games(tournament, round_number)
    found = {}
    for number, table in sorted(rnd.tables.items()):
        changed = out_of_step(table, links.get(number))
        if changed is not None:
            found[number] = changed
    return found


def check_round_closes_in_step(tournament, state, round_number: int) -> None:
    changed = round_out_of_step(tournament, state, round_number)
    if changed:
        raise InvalidInput(
            _(
                "round %(round)s: the game of table(s) %(tables)s is open again (hands undone): the round "
                "closes once it is over again"
            )
            % {"round": round_number, "tables": ", ".join(map(str, changed))},
            code="result_out_of_step",
            params={"round": round_number, "tables": sorted(changed)},
        )
