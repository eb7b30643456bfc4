"""The tournament core's refusals in the reader's language (issue #21).

The core (games.tournament) is pure Python and speaks English: each refusal has a stable ``code``,
an English ``message`` and ``params``; where a code has several sentences, ``params["rule"]`` names
which one. Here each sentence is a template keyed ``code:rule`` (or ``code`` alone when the code has
one sentence), filled from the refusal's params. In English the core's own message stays, word
for word (but for the templates that add the event's position in the batch); a refusal without a
template keeps it in every language. tests/tournament_api/test_refusal_words.py checks every raise
of the core has its template here, and every template its fr/de/uk translation.
"""

from __future__ import annotations

from django.utils.translation import get_language, gettext_noop
from django.utils.translation import gettext as _

from games import tournament as core

WORDS: dict[str, str] = {
    # shape errors (games.tournament.fields)
    "malformed:unknown_fields": gettext_noop(
        "event %(index)s (%(type)s): unknown field(s) %(fields)s; it may have %(allowed)s"
    ),
    "malformed:text_too_long": gettext_noop(
        "event %(index)s (%(type)s): “%(field)s” is at most %(limit)s characters, not %(length)s"
    ),
    "malformed:explanation_too_large": gettext_noop(
        "event %(index)s (%(type)s): “explanation” is a JSON object of at most %(limit)s characters"
    ),
    # shape errors of the header and the record (games.tournament.record)
    "malformed:header_object": gettext_noop("the header is a JSON object"),
    "malformed:header_fields": gettext_noop("unknown header field(s): %(fields)s"),
    "malformed:entrants": gettext_noop("entrants must be one of %(allowed)s, not %(value)s"),
    "malformed:system": gettext_noop("system for %(entrants)s must be one of %(allowed)s, not %(value)s"),
    "malformed:scoring": gettext_noop("scoring must be one of %(allowed)s, not %(value)s"),
    "malformed:duplicate_matchpoints": gettext_noop(
        "a duplicate tournament is scored by matchpoints, and matchpoints need the duplicate system"
    ),
    "malformed:grand_tichu": gettext_noop("grand_tichu (true or false) is a duplicate tournament's choice"),
    "malformed:hands_or_target": gettext_noop("give hands_per_round or target, not both"),
    "malformed:dtm_hands": gettext_noop("the dtm preset counts VP per hand: it needs hands_per_round"),
    "malformed:legs": gettext_noop("legs is 1, or 2 for a round robin with a second leg"),
    "malformed:tiebreaks": gettext_noop("tiebreaks must be a list of distinct names from %(allowed)s"),
    "malformed:name": gettext_noop("name must be a string"),
    "malformed:meta": gettext_noop("meta must be an object"),
    "malformed:seed": gettext_noop("seed must be an integer from -%(limit)s to %(limit)s"),
    "malformed:too_many_boards": gettext_noop("a duplicate tournament has at most %(limit)s boards, not %(boards)s"),
    "malformed:number_out_of_range": gettext_noop(
        "event %(index)s (%(type)s): the numbers in “%(field)s” are finite and at most %(limit)s in size, not %(value)s"
    ),
    "malformed:policy": gettext_noop("policy is an object with bye, late_entry and withdrawal"),
    "malformed:policy_bye": gettext_noop("policy.bye is an object with result and points"),
    "malformed:bye_result": gettext_noop("policy.bye.result must be one of %(allowed)s"),
    "malformed:bye_points": gettext_noop("policy.bye.points must be an integer from -%(limit)s to %(limit)s"),
    "malformed:late_entry": gettext_noop("policy.late_entry must be one of %(allowed)s"),
    "malformed:withdrawal": gettext_noop("policy.withdrawal must be one of %(allowed)s"),
    "malformed:record_object": gettext_noop("a tournament record is a JSON object"),
    "malformed:record_fields": gettext_noop("unknown record field(s): %(fields)s"),
    "malformed:format": gettext_noop("format must be “%(expected)s”, not %(value)s"),
    "malformed:events_list": gettext_noop("events must be a list"),
    # shape errors of the record and its events (games.tournament.record, .state)
    "malformed:text_required": gettext_noop("%(type)s: “%(field)s” must be a non-empty string"),
    "malformed:started_at": gettext_noop(
        "round_clock_started: “started_at” is a date and time with its UTC offset (e.g. 2026-03-14T19:30:00Z)"
    ),
    "malformed:integer": gettext_noop("%(type)s: “%(field)s” must be an integer%(bound)s, not %(value)s"),
    "malformed:event_shape": gettext_noop("event %(event)s must be an object with a string “type”"),
    "malformed:sides": gettext_noop("a table's sides are two lists of entry ids"),
    "malformed:tables_list": gettext_noop("%(type)s: “tables” must be a list"),
    "malformed:table_object": gettext_noop("%(type)s: each table is an object"),
    "malformed:table_number": gettext_noop("%(type)s: a table number is an integer >= 1, not %(value)s"),
    "malformed:byes": gettext_noop("%(type)s: “byes” must be a list of entry ids"),
    "malformed:game_id": gettext_noop("%(type)s: “game” is a game id (integer or string)"),
    "malformed:hands_list": gettext_noop("%(type)s: “hands” is a non-empty list of hand lines"),
    "malformed:hand_line": gettext_noop('%(type)s: a hand line is {"points": [a, b], "double_victory": 0|1|null}'),
    "malformed:hand_points": gettext_noop("%(type)s: a hand line's points are two integers"),
    "malformed:double_victory": gettext_noop("%(type)s: double_victory is 0, 1 (the side) or null"),
    "malformed:score": gettext_noop("%(type)s: “score” is two integers, side 0 then side 1"),
    "malformed:vp": gettext_noop("%(type)s: “vp” is two numbers >= 0"),
    "malformed:side": gettext_noop("%(type)s: “side” is 0 or 1 (the table's side)"),
    "malformed:hands_or_score": gettext_noop("%(type)s: give “hands” (the hand lines) or “score” (the round's line)"),
    "malformed:board_adjustment": gettext_noop(
        '%(type)s: an adjusted board is {"adjustment": A} or {"adjustment": [A_ns, A_ew]}, A one of %(adjustments)s'
    ),
    "malformed:round_number": gettext_noop("a round number is an integer >= 1, not %(value)s"),
    "malformed:entry_id": gettext_noop("an entry id is a non-empty string, not %(value)s"),
    "malformed:event_object": gettext_noop("an event is an object with a string “type”"),
    "malformed:event_type": gettext_noop("unknown event type “%(type)s”"),
    "malformed:players": gettext_noop("entry_registered: “players” is a list of %(count)s player name(s) or id(s)"),
    "malformed:table_field": gettext_noop("%(type)s: “table” is an integer >= 1"),
    "malformed:adjust_numbers": gettext_noop("score_adjusted: “vp” is a number and “points” an integer"),
    "malformed:adjust_zero": gettext_noop("score_adjusted: give a non-zero “vp” or “points”"),
    "malformed:lots_order": gettext_noop("lots_drawn: “order” is a list of entry ids"),
    # entries
    "unknown_entry": gettext_noop("no entry “%(entry)s” is registered"),
    "too_many_entries": gettext_noop("a tournament has at most %(limit)s entries"),
    "entry_exists:registered": gettext_noop("entry “%(entry)s” is already registered"),
    "entry_exists:partner_self": gettext_noop("a player cannot partner themselves"),
    "entry_exists:player_taken": gettext_noop("player %(player)s already plays in entry “%(entry)s”"),
    "entry_exists:player_taken_since": gettext_noop("player %(player)s now plays in entry “%(entry)s”"),
    "entry_withdrawn:already_withdrawn": gettext_noop("entry “%(entry)s” has already withdrawn"),
    "entry_withdrawn:paired": gettext_noop("entry “%(entry)s” has withdrawn and cannot be paired"),
    "entry_active": gettext_noop("entry “%(entry)s” has not withdrawn"),
    "entry_twice": gettext_noop("entry “%(entry)s” appears twice in round %(round)s"),
    "entry_missing": gettext_noop(
        "round %(round)s leaves out %(count)s active entries (%(entries)s): every active entry plays or has a bye"
    ),
    # tables and rounds
    "table_invalid:side_size": gettext_noop("table %(table)s: each side has %(size)s entries in this tournament"),
    "table_invalid:table_twice": gettext_noop("table %(table)s appears twice in the round"),
    "table_invalid:no_table": gettext_noop("round %(round)s has no table"),
    "table_not_in_round": gettext_noop("round %(round)s has no table %(table)s"),
    "round_not_found": gettext_noop("round %(round)s has not been paired"),
    "round_open": gettext_noop("round %(round)s is still open"),
    "round_open:not_closed_yet": gettext_noop("round %(round)s has not been closed: no standings after it yet"),
    "round_closed:paired_again": gettext_noop("round %(round)s is closed: it cannot be paired again"),
    "round_closed:closed": gettext_noop("round %(round)s is closed"),
    "round_closed:correct_instead": gettext_noop("round %(round)s is closed: correct the result instead"),
    "round_closed:already_closed": gettext_noop("round %(round)s is already closed"),
    "round_out_of_order:already_paired": gettext_noop(
        "round %(round)s is already paired: override its pairing instead"
    ),
    "round_out_of_order:not_next": gettext_noop("the next round is %(next)s, not %(round)s"),
    "no_more_rounds:planned_rounds": gettext_noop("the tournament has %(rounds)s rounds"),
    "no_more_rounds:max_rounds": gettext_noop("a tournament has at most %(limit)s rounds"),
    "no_more_rounds:round_robin": gettext_noop("the round robin of %(field)s entries has %(rounds)s rounds"),
    "no_more_rounds:movement": gettext_noop("the movement for %(pairs)s pairs has %(rounds)s rounds"),
    "movement_invalid:pairs": gettext_noop("a movement is for %(low)s to %(high)s pairs"),
    "movement_invalid:boards": gettext_noop("boards per round: 1 to 8"),
    # results
    "results_missing": gettext_noop("round %(round)s: no result yet at table(s) %(tables)s"),
    "results_disputed": gettext_noop(
        "round %(round)s: the result of table(s) %(tables)s is disputed: correct it first"
    ),
    "result_confirmed": gettext_noop(
        "table %(table)s of round %(round)s: the result is already confirmed; only the TD's correction changes it"
    ),
    "result_disputed": gettext_noop(
        "table %(table)s of round %(round)s: the result is already disputed; only the TD's correction changes it"
    ),
    "result_corrected": gettext_noop(
        "table %(table)s of round %(round)s: the result is already corrected; only the TD's correction changes it"
    ),
    "same_side": gettext_noop(
        "table %(table)s of round %(round)s: your side sent this result; the other side confirms or disputes it"
    ),
    "result_exists:override_changes": gettext_noop("table %(table)s has a result: the override would change it"),
    "result_exists:correct_instead": gettext_noop(
        "table %(table)s of round %(round)s has a result: correct it instead"
    ),
    "no_result:nothing_to_correct": gettext_noop("table %(table)s of round %(round)s has no result to correct"),
    "no_result:answer": gettext_noop("table %(table)s of round %(round)s has no result yet"),
    "result_invalid:hand_count": gettext_noop("%(hands)s hand lines; a round has %(hands_per_round)s hands"),
    "result_invalid:score_not_sum": gettext_noop("score %(score)s is not the sum of the hand lines %(sums)s"),
    "result_invalid:vp_computed": gettext_noop("the %(preset)s preset computes the VP from the score; give no “vp”"),
    "result_invalid:board_points": gettext_noop("a board result is the N/S minus E/W points (an integer)"),
    "result_invalid:adjustments": gettext_noop("adjustments are %(adjustments)s"),
    "result_invalid:avg_duplicate_only": gettext_noop("AVG adjustments are for duplicate boards (matchpoints) only"),
    "result_invalid:board_lines": gettext_noop(
        "a duplicate result has one line for each of the round's %(hands_per_round)s boards"
    ),
    "result_invalid:dtm_lines": gettext_noop("a dtm result needs its hand lines: the VP are counted from them"),
    "result_invalid:vp_mismatch": gettext_noop(
        "the VP written, %(written)s, are not those of the hand lines, %(counted)s"
    ),
    "result_invalid:short_hand_count": gettext_noop(
        "%(hands)s hand lines; the TD recorded this table's round as short, %(hands_per_round)s hands"
    ),
    "result_invalid:short_no_hands": gettext_noop(
        "this tournament plays to a target, not a number of hands: a round cannot be short"
    ),
    "result_invalid:short_not_shorter": gettext_noop(
        "a short round has fewer hands than the round's %(hands_per_round)s"
    ),
    "result_exists:short_after_result": gettext_noop(
        "table %(table)s of round %(round)s has a result: record the short round before it"
    ),
    "result_invalid:line_step": gettext_noop("hand %(hand)s: %(line)s is not a hand line: points are multiples of 5"),
    "result_invalid:line_sum": gettext_noop(
        "hand %(hand)s: %(line)s is not a hand line: the two sides sum to 100 plus or minus the calls’ "
        "hundreds, not %(total)s"
    ),
    "result_invalid:line_double_victory": gettext_noop(
        "hand %(hand)s: %(line)s is not a hand line: a double victory of side %(side)s scores "
        "%(double_victory_points)s to it and 0 to the other side, plus or minus the calls"
    ),
    "result_invalid:line_calls": gettext_noop(
        "hand %(hand)s: no hand ends %(line)s: card points from -25 to 125, and one call a player "
        "(Tichu ±100, Grand Tichu ±200), won only by the first player out"
    ),
    "result_invalid:line_calls_no_grand": gettext_noop(
        "hand %(hand)s: no hand ends %(line)s without Grand Tichu: card points from -25 to 125, and one "
        "Tichu a player (±100), won only by the first player out"
    ),
    "result_invalid:not_tichu": gettext_noop("a tournament table plays Tichu (nanking), not %(variant)s"),
    "reason_required": gettext_noop("%(type)s needs a “reason” (it is kept in the history)"),
    # the tournament as a whole
    "lots_invalid": gettext_noop("lots_drawn: “order” must name every registered entry once"),
    "tournament_finished:finished": gettext_noop("the tournament is finished"),
    "tournament_finished:no_further_events": gettext_noop("the tournament is finished: no further events"),
    "pairing_manual": gettext_noop("the system is manual: give the round's tables in a round_paired event"),
    "pairing_impossible:round_robin": gettext_noop("a round robin needs at least two entries"),
    "pairing_impossible:round_robin_playing": gettext_noop("no two scheduled entries are still playing"),
    "pairing_impossible:swiss": gettext_noop("a Swiss round needs at least two active entries"),
    "pairing_impossible:movement_playing": gettext_noop("no two scheduled pairs are still playing"),
    "pairing_impossible:individual": gettext_noop("an individual round needs at least four active players"),
    # knockout brackets (games.tournament.bracket)
    "malformed:bracket_record": gettext_noop("a bracket record is {format: tichu-bracket/1, header, events: [...]}"),
    "malformed:bracket_header": gettext_noop(
        "a bracket's header has best_of (an odd number from 1 to 9), hands or target, consolation (true or false)"
    ),
    "malformed:bracket_event": gettext_noop(
        "a bracket's events are bracket_seeded, match_result and match_corrected, with their fields only "
        "and texts of at most %(limit)s characters"
    ),
    "malformed:bracket_entries": gettext_noop(
        "bracket_seeded: entries is a list of {entry, players, name?} in seed order, by one of rating, "
        "previous_stage, hand"
    ),
    "malformed:bracket_result": gettext_noop(
        "a match's result is games (a list of [side 0, side 1] scores) or walkover (the entry that goes through)"
    ),
    "already_seeded": gettext_noop("the bracket is seeded already: seeding happens once"),
    "entry_exists:seeded_twice": gettext_noop("entry “%(entry)s” is seeded twice"),
    "pairing_impossible:bracket": gettext_noop("a bracket needs at least two entries"),
    "too_many_entries:bracket": gettext_noop("a bracket has at most %(limit)s entries"),
    "not_seeded": gettext_noop("the bracket is not seeded yet: seed it first"),
    "unknown_match": gettext_noop("the bracket has no match %(match)s to play"),
    "match_not_ready": gettext_noop("match %(match)s: its sides are not both known yet"),
    "no_result:match": gettext_noop("match %(match)s has no result to correct"),
    "result_exists:match": gettext_noop("match %(match)s has a result: correct it instead"),
    "match_played_on": gettext_noop(
        "match %(match)s's result was played by the sides this correction changes: correct it first"
    ),
    "result_invalid:walkover_side": gettext_noop("match %(match)s: the walkover goes to one of its sides, %(sides)s"),
    "result_invalid:match_overplayed": gettext_noop(
        "match %(match)s: best of %(best_of)s ends when a side has %(wins)s wins; no game comes after that"
    ),
    "result_invalid:game_drawn": gettext_noop(
        "match %(match)s: game %(game)s is drawn; a knockout game is played on until one side leads"
    ),
    "result_invalid:match_undecided": gettext_noop(
        "match %(match)s: best of %(best_of)s needs %(wins)s wins for a side"
    ),
    # seasons (games.tournament.season)
    "malformed:season_record": gettext_noop("a season record is {format: tichu-season/1, header, events: [...]}"),
    "malformed:season_header": gettext_noop(
        "a season's header has scoring (place, vp or table), points_table (for table: the points of "
        "places 1, 2, ...), best (count the best N evenings), min_evenings and tie_breaks (evenings_won, "
        "best_place, all_evenings, evenings)"
    ),
    "malformed:season_points_table": gettext_noop(
        "a season's points_table gives each place at least the points of the place after it"
    ),
    "malformed:season_event": gettext_noop(
        "a season's events are evening_added and evening_removed, each with tournament (an id) "
        "and a reason of at most %(limit)s characters"
    ),
    "evening_in_season": gettext_noop("tournament %(tournament)s is an evening of this season already"),
    "evening_not_in_season": gettext_noop("tournament %(tournament)s is not an evening of this season"),
    "too_many_entries:season": gettext_noop("a season has at most %(limit)s evenings"),
    # leagues (games.tournament.league)
    "malformed:league_record": gettext_noop("a league record is {format: tichu-league/1, header, events: [...]}"),
    "malformed:league_header": gettext_noop(
        "a league's header has entries (a list of {entry, players, name?}), legs (1 or 2), scoring "
        "(round_vp, box or dtm), hands or target, match_points ({win, draw, loss}), tie_breaks "
        "(head_to_head, difference, points, wins, seed), promotion and relegation (places), dates"
    ),
    "malformed:league_entries": gettext_noop("a league's entries are a list of {entry, players, name?}, two at least"),
    "malformed:league_dtm_hands": gettext_noop("the dtm preset counts VP per hand: it needs hands"),
    "malformed:league_dates": gettext_noop(
        "a league's dates are one ISO date (2027-03-14) for each of its %(rounds)s rounds"
    ),
    "malformed:league_event": gettext_noop(
        "a league's events are match_result, match_corrected and match_scheduled, with their fields "
        "only and texts of at most %(limit)s characters"
    ),
    "malformed:league_match": gettext_noop("a league's event names its match by its id (R1-2: round 1, match 2)"),
    "malformed:league_date": gettext_noop("a match's date is an ISO date, 2027-03-14"),
    "places_invalid:league_places": gettext_noop(
        "%(promotion)s promotion and %(relegation)s relegation places are more than the %(entries)s entries"
    ),
    "entry_exists:league_twice": gettext_noop("entry “%(entry)s” is in the league twice"),
    "entry_exists:league_player_taken": gettext_noop("player %(player)s already plays for entry %(entry)s"),
    "too_many_entries:league": gettext_noop("a league has at most %(limit)s entries"),
    "unknown_match:league": gettext_noop("the league has no match %(match)s"),
    "result_exists:league_scheduled": gettext_noop("match %(match)s has a result: it is not scheduled again"),
    "result_invalid:league_sides": gettext_noop(
        "match %(match)s is %(home)s (home) against %(away)s (away), and its score is written in that order"
    ),
    "league_unfinished:league_next_season": gettext_noop(
        "group %(group)s has matches to play or a tie on a promotion or relegation place"
    ),
}


def key(code: str, rule: str | None) -> str:
    """The table's key for a refusal: ``code:rule``, or the code alone when it has one sentence."""
    return f"{code}:{rule}" if rule else code


def template(err: core.TournamentError) -> str | None:
    return WORDS.get(key(err.code, err.params.get("rule")))


def said(err: core.TournamentError, index: int | None = None) -> str | None:
    """The refusal in the active language, or None to keep the core's message (English, or a
    refusal without a template)."""
    words = template(err)
    # A template that says the event's position in the batch (which the core's message lacks) words
    # English too; every other refusal keeps the core's English word for word.
    if words is None or ("%(index)s" not in words and (get_language() or "en").split("-")[0] == "en"):
        return None
    params = {**err.params, "index": index}
    flat = {k: ", ".join(map(str, v)) or "—" if isinstance(v, list) else v for k, v in params.items()}
    return _(words) % flat


def message(err: core.TournamentError, index: int | None = None) -> str:
    """What to tell the reader: the refusal in their language, else the core's English message."""
    return said(err, index) or err.message
