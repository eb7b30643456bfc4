"""The TD's short round (issue 31, item 2): a table played fewer hands than the round has (time
ran out), recorded with its reason as a `round_shortened` event before the table's result. The
form lives on the tournament's round page (templates/tournaments/_short_round.html); the core and
the service check it as they check the API's (an open round, a table without a result, fewer
hands than the round's, a reason); after it the table's paper form asks for that many hands."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import tournament as core


def can_shorten(state: core.TournamentState) -> bool:
    """A round can be short only when it is a number of hands (DTM, duplicate boards), not a
    game to a target."""
    return bool(state.header.get("hands_per_round"))


def form_context(state: core.TournamentState, current, tables: list) -> dict[str, Any]:
    """What the form offers: the open round's tables still without a result, and 1 .. one hand
    fewer than the round's."""
    if current is None or current.closed or not can_shorten(state):
        return {"short_tables": [], "short_hands": []}
    return {
        "short_tables": [t.number for t in tables if t.result is None],
        "short_hands": list(range(1, state.header["hands_per_round"])),
    }


def lines_of_table(state: core.TournamentState, round_number: int, table: int) -> int:
    """How many hand (or board) lines the table's result has: the short round's, else the round's."""
    rnd = next((r for r in state.rounds if r.number == round_number), None)
    short = rnd.tables[table].short if rnd is not None and table in rnd.tables else None
    return short[0] if short is not None else (state.header["hands_per_round"] or 0)


def shorten(request: HttpRequest, state: core.TournamentState, append) -> None:
    """Append the `round_shortened` event from the form; `append` is the page's one append
    (at the page's seq, refusals said in words)."""
    post = request.POST
    current = state.current_round
    if current is None:
        messages.error(request, _("No round has been paired yet."))
        return
    table, hands = post.get("table", ""), post.get("hands", "")
    reason = post.get("reason", "").strip()
    if not table.isdigit() or not hands.isdigit():
        messages.error(request, _("Not stored: choose the table and the number of hands it played."))
        return
    if not reason:
        messages.error(request, _("Not stored: a short round needs a reason (for example, time ran out)."))
        return
    event = {
        "type": "round_shortened",
        "round": current.number,
        "table": int(table),
        "hands": int(hands),
        "reason": reason,
    }
    if append([event]):
        messages.success(
            request,
            ngettext(
                "Table %(table)s played a short round: %(hands)s hand. Record its result with that many lines.",
                "Table %(table)s played a short round: %(hands)s hands. Record its result with that many lines.",
                int(hands),
            )
            % {"table": int(table), "hands": int(hands)},
        )
