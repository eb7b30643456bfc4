"""Forms of the tournament director's pages. They turn what the TD typed into a header or into
tournament events; whether those are allowed is the core's decision (games.tournament)."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.tournament import BYE_RESULTS, LATE_ENTRY, PRESETS, SYSTEMS, TIEBREAKS, WITHDRAWAL

SYSTEM_LABELS = {
    "swiss": _("Swiss (fixed pairs: closest scores, no rematch)"),
    "round_robin": _("Round robin (fixed pairs: everyone meets everyone)"),
    "individual": _("Individual (a new partner each round)"),
    "manual": _("Manual (I seat every round myself)"),
    "duplicate": _("Duplicate (fixed pairs, 4-12: the same boards at every table, by a movement)"),
}
SCORING_LABELS = {
    "dtm": _("DTM: victory points per hand (German championship)"),
    "round_vp": _("Round VP: win 2, draw 1, loss 0 on each round's total"),
    "box": _("Box: each round a game to 1000, win 2, draw 1, loss 0"),
    "points": _("Points: the sum of Tichu points"),
    "matchpoints": _("Matchpoints: duplicate boards (choose with the duplicate system)"),
}
TIEBREAK_LABELS = {
    "points": _("Total Tichu points"),
    "difference": _("Point difference"),
    "buchholz": _("Opponents' score (Buchholz)"),
    "head_to_head": _("Head to head"),
    "lots": _("Drawing of lots"),
}
POLICY_LABELS = {
    "win": _("as a won round"),
    "draw": _("as a drawn round"),
    "loss": _("as a lost round"),
    "half": _("half a won round for each missed round"),
    "bye": _("as a bye for each missed round"),
    "ranked": _("keeps its place in the standings"),
    "unranked": _("listed after the ranked entries"),
}
NO_TIEBREAK = ""


def _choices(values, labels) -> list[tuple[str, str]]:
    return [(v, labels.get(v, v)) for v in values]


class TournamentForm(forms.Form):
    name = forms.CharField(max_length=100, label=_("Name"))
    entrants = forms.ChoiceField(
        label=_("Entrants"), choices=[("pairs", _("Fixed pairs")), ("individuals", _("Individuals"))]
    )
    system = forms.ChoiceField(
        label=_("System"), choices=_choices(dict.fromkeys(s for v in SYSTEMS.values() for s in v), SYSTEM_LABELS)
    )
    scoring = forms.ChoiceField(label=_("Scoring"), choices=_choices(PRESETS, SCORING_LABELS), initial="round_vp")
    rounds = forms.IntegerField(
        label=_("Rounds"),
        min_value=1,
        max_value=50,
        initial=3,
        required=False,
        help_text=_("a round robin may leave it empty: its schedule decides"),
    )
    length = forms.ChoiceField(
        choices=[("hands", _("a number of hands")), ("target", _("a game to a target score"))],
        initial="hands",
        label=_("A round is"),
    )
    hands_per_round = forms.IntegerField(
        label=_("Hands per round"),
        min_value=1,
        max_value=40,
        initial=4,
        required=False,
        help_text=_("duplicate: the boards per round (1 to 8)"),
    )
    grand_tichu = forms.BooleanField(
        required=False,
        label=_("Grand Tichu allowed (duplicate)"),
        help_text=_("duplicate events usually play without it"),
    )
    target = forms.IntegerField(label=_("Target"), min_value=50, max_value=10000, initial=1000, required=False)
    tiebreak_1 = forms.ChoiceField(required=False, label=_("1st tie-break"))
    tiebreak_2 = forms.ChoiceField(required=False, label=_("2nd tie-break"))
    tiebreak_3 = forms.ChoiceField(required=False, label=_("3rd tie-break"))
    bye_result = forms.ChoiceField(choices=_choices(BYE_RESULTS, POLICY_LABELS), label=_("A bye scores"))
    bye_points = forms.IntegerField(initial=0, label=_("Tichu points for a bye"))
    late_entry = forms.ChoiceField(
        choices=_choices(LATE_ENTRY, {**POLICY_LABELS, "loss": _("nothing")}), label=_("A late entry scores")
    )
    withdrawal = forms.ChoiceField(choices=_choices(WITHDRAWAL, POLICY_LABELS), label=_("A withdrawn entry"))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        tiebreaks = [(NO_TIEBREAK, _("the preset's default"))] + _choices(TIEBREAKS, TIEBREAK_LABELS)
        for n in (1, 2, 3):
            self.fields[f"tiebreak_{n}"].choices = tiebreaks if n == 1 else [(NO_TIEBREAK, _("none"))] + tiebreaks[1:]

    def header(self, seed: int) -> dict[str, Any]:
        """The tournament header of docs/tournament.md (checked by the core when stored)."""
        data = self.cleaned_data
        header: dict[str, Any] = {
            "name": data["name"],
            "entrants": data["entrants"],
            "system": data["system"],
            "scoring": data["scoring"],
            "seed": seed,
            "policy": {
                "bye": {"result": data["bye_result"], "points": data["bye_points"]},
                "late_entry": data["late_entry"],
                "withdrawal": data["withdrawal"],
            },
        }
        if data.get("rounds"):
            header["rounds"] = data["rounds"]
        if data["length"] == "target" and data.get("target"):
            header["target"] = data["target"]
        elif data.get("hands_per_round"):
            header["hands_per_round"] = data["hands_per_round"]
        if data["system"] == "duplicate":
            header["grand_tichu"] = bool(data.get("grand_tichu"))
        tiebreaks = [data[f"tiebreak_{n}"] for n in (1, 2, 3) if data[f"tiebreak_{n}"]]
        if tiebreaks:
            header["tiebreaks"] = list(dict.fromkeys(tiebreaks))
        return header


_SPLIT = re.compile(r"\s*(?:&|\+|/|,|\band\b)\s*")


def parse_entries(text: str, per_entry: int) -> list[list[str]]:
    """One entry per line: a pair as "Anna & Ben" (or "Anna, Ben", "Anna + Ben"), an individual
    as a name. Raises ValueError naming the line that does not fit."""
    entries = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line:
            continue
        names = [n.strip() for n in _SPLIT.split(line) if n.strip()] if per_entry > 1 else [line]
        if len(names) != per_entry:
            raise ValueError(f"line {number} ({line!r}): a pair is two names, as in 'Anna & Ben'")
        entries.append(names)
    if not entries:
        raise ValueError("no names given")
    return entries


class RegisterForm(forms.Form):
    names = forms.CharField(widget=forms.Textarea(attrs={"rows": 4}), label=_("New entries, one a line"))


class ScoreLineForm(forms.Form):
    """A table's round score written on paper (a new result), or a TD's correction (with a
    reason). Not under DTM, whose VP are counted from each hand's line (views._paper_lines), nor
    duplicate (a line per board): the tournament computes the VP, nobody types them."""

    round = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
    table = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
    score_0 = forms.IntegerField(label=_("North/South"))
    score_1 = forms.IntegerField(label=_("East/West"))
    reason = forms.CharField(max_length=200, required=False)

    def event(self, event_type: str) -> dict:
        d = self.cleaned_data
        event = {"type": event_type, "round": d["round"], "table": d["table"], "score": [d["score_0"], d["score_1"]]}
        if event_type == "result_corrected":
            event["reason"] = d["reason"]
        return event


class AdjustForm(forms.Form):
    entry = forms.ChoiceField(label=_("Entry"))
    vp = forms.FloatField(required=False, initial=0, label=_("VP"))
    points = forms.IntegerField(required=False, initial=0, label=_("Tichu points"))
    reason = forms.CharField(max_length=200, label=_("Reason"))


# --- a club's season (issue 36): its header, checked by the core's parse_season_header ------------

SCORING_CHOICES = [
    ("place", _("by place (the last of n scores 1, the first n)")),
    ("vp", _("by the evening's VP")),
    ("table", _("by a table of points per place")),
]
#: what the TD types between the points of a table: commas, semicolons or spaces
POINTS_SEPARATORS = re.compile(r"[\s,;]+")


class SeasonForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=100)
    scoring = forms.ChoiceField(label=_("Scoring of an evening"), choices=SCORING_CHOICES)
    points_table = forms.CharField(
        label=_("Points per place (for the table)"),
        help_text=_("The points of places 1, 2, 3, … separated by commas, e.g. 25, 20, 16, 13, 11, 10"),
        max_length=1000,
        required=False,
    )
    best = forms.IntegerField(label=_("Best evenings counted (empty: all)"), min_value=1, max_value=200, required=False)
    min_evenings = forms.IntegerField(label=_("Evenings needed to be ranked"), min_value=0, max_value=200, initial=0)

    def header(self) -> dict:
        """The header as typed; the core's parse_season_header checks it (the points too: a word
        that is not a whole number is passed on as it is, for the core to refuse)."""
        data = self.cleaned_data
        header = {"scoring": data["scoring"], "best": data["best"], "min_evenings": data["min_evenings"] or 0}
        typed = data.get("points_table", "").strip()
        if typed:
            header["points_table"] = [
                int(word) if re.fullmatch(r"[+-]?[0-9]{1,9}", word) else word
                for word in POINTS_SEPARATORS.split(typed.strip(",; "))
            ]
        return header
