"""A refusal as the director's and the tables' pages say it: what went wrong, then what to do, in
words; the refusal's code stays out of the sentence (a reader cannot act on "(pairing_impossible)")
and is kept in a `data-code` attribute for tests and support. The API keeps its codes as they are
(docs/api.md); the core's sentences are games/tournaments/refusal_words.py's.
"""

from __future__ import annotations

from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

#: What the reader can do about a refusal, by code. A code not here gets GENERIC.
WHAT_TO_DO = {
    "pairing_impossible": gettext_lazy(
        "Register more entries (two pairs, or four players), then pair the round again."
    ),
    "round_open": gettext_lazy("Close the current round first: every table needs its result."),
    "results_missing": gettext_lazy("Enter or take the missing tables' results, then close the round."),
    "results_disputed": gettext_lazy("Correct the disputed table's result first, then close the round."),
    "result_exists": gettext_lazy("That table already has a result: correct it instead (with a reason)."),
    "no_result": gettext_lazy("That table has no result yet: record one first."),
    "round_closed": gettext_lazy("The round is closed: correct its results with a reason instead."),
    "entry_exists": gettext_lazy("Each player can be in one entry at a time: check the names and register again."),
    "entry_withdrawn": gettext_lazy("Re-enter the entry first, or leave it out."),
    "entry_missing": gettext_lazy("Seat every active entry at a table or give it the bye."),
    "entry_twice": gettext_lazy("Seat each entry once: change the repeated one."),
    "table_invalid": gettext_lazy("Give each table two sides and a number of its own."),
    "reason_required": gettext_lazy("Write a short reason and send it again."),
    "tournament_finished": gettext_lazy("The tournament is finished: nothing more can be recorded."),
    "no_more_rounds": gettext_lazy("Every planned round is paired: finish the tournament."),
    "result_invalid": gettext_lazy("Check the score line against the sheet and send it again."),
    "malformed": gettext_lazy("Check the form and send it again."),
    "invalid": gettext_lazy("Check the form and send it again."),
    # knockout brackets
    "already_seeded": gettext_lazy("The bracket is seeded: record its matches' results."),
    "not_seeded": gettext_lazy("Seed the bracket first."),
    "match_not_ready": gettext_lazy("Record the earlier matches first."),
    "match_played_on": gettext_lazy("Correct the later match first, or leave this result as it is."),
    "player_not_of_club": gettext_lazy("Give the club's players by their roster names."),
    "stage_not_of_club": gettext_lazy("Choose one of the club's tournaments."),
}
GENERIC = gettext_lazy("Check the page (reload it if it is old) and try again.")


def what_to_do(code: str) -> str:
    return str(WHAT_TO_DO.get(code, GENERIC))


def refusal(err, lead: str | None = None) -> SafeString:
    """`lead` (e.g. "Not stored", "Table 3: not stored"), the refusal's words and what to do, as
    HTML safe for a message or an error list, its code in `data-code`."""
    said = err.message.rstrip(".")
    if not lead:
        said = said[:1].upper() + said[1:]
    text = _("%(lead)s: %(reason)s.") % {"lead": lead, "reason": said} if lead else _("%(reason)s.") % {"reason": said}
    return format_html('<span class="refusal" data-code="{}">{} {}</span>', err.code, text, what_to_do(err.code))
