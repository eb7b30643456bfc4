"""A player's rating history as a club player reads it. Pure Python (no Django); the rows come
from games.ratings.queries.

* `why`: one line per rating change, e.g. "won 620–380 with Anna against Ben & Clara, expected
  45%: +14; predictive 41%: +9.2". The first figures are the Elo table's (its chance from the
  sides' mean Elo ratings before the game, and its change); then the predictive rating's chance
  and change, with the reason when it moved against the result (it follows the points: a win by
  less than the expected margin costs a little).
* `period_change`: the change over a period (the rating after its last game minus the rating
  before its first), for both tables.
* `evenings` / `tournaments`: the games grouped by evening (Entry.day, the club's evening of the
  game: evening.py) or by tournament, with the performance rating of each group (performance.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Hashable, Iterable, Sequence

from .performance import clamped, encounter, expected, performance


@dataclass(frozen=True)
class Entry:
    """One rated game of the player."""

    game_id: int
    played_at: datetime
    day: date  # the club's evening of the game (evening.evening_of: local, 06:00 to 06:00)
    side: int
    player_index: int  # the player's place in sides_elo[side]
    sides_elo: tuple[tuple[float, ...], ...]  # every side's Elo-table ratings before the game
    score: float  # 1 win, 0.5 draw, 0 loss (mean over pairs in ranking games)
    expected: float  # the predictive rating's win chance of the player's side
    rating_before: float
    rating_after: float
    rd_after: float
    elo_before: float
    elo_after: float
    points_for: float | None = None
    points_against: float | None = None
    partners: tuple[str, ...] = ()
    opponents: tuple[str, ...] = ()
    tournament: tuple[Hashable, str] | None = None  # (id, name) when the game was a tournament table

    @property
    def change(self) -> float:
        return self.rating_after - self.rating_before

    @property
    def elo_change(self) -> float:
        return self.elo_after - self.elo_before

    @property
    def elo_expected(self) -> float:
        """The Elo table's expectation for the player's side (mean over pairs with N > 2 sides)."""
        means = [sum(s) / len(s) for s in self.sides_elo]
        own = means[self.side]
        others = [m for i, m in enumerate(means) if i != self.side]
        if not others:  # no opponent stored (never so for a rated game): no expectation either way
            return 0.5
        return sum(expected(own, o) for o in others) / len(others)

    @property
    def result(self) -> str:
        return "W" if self.score > 0.5 else "L" if self.score < 0.5 else "D"

    @property
    def why(self) -> str:
        return why(self)

    @property
    def why_sentence(self) -> Sentence:
        return why_sentence(self)


def _(text: str) -> str:
    """Marks an English sentence for the site's catalogue (makemessages finds `_(...)` here too):
    this module stays pure Python, and the website translates the sentence it returns (Sentence)."""
    return text


@dataclass(frozen=True)
class Figure:
    """A number of a sentence, formatted by whoever renders it (the website: per language)."""

    value: float
    decimals: int = 0
    signed: bool = False


@dataclass(frozen=True)
class Sentence:
    """A whole sentence with named placeholders (%(name)s), its values filled in at rendering:
    text, a Figure, or a Sentence of its own (a clause that is a whole phrase too)."""

    template: str
    values: dict

    def render(self, translate=lambda text: text, number=None) -> str:
        """`translate` the template (English by default) and format the figures with `number`."""
        number = number or _english_number
        filled = {
            k: v.render(translate, number) if isinstance(v, Sentence) else number(v) if isinstance(v, Figure) else v
            for k, v in self.values.items()
        }
        return translate(self.template) % filled


def _english_number(f: Figure) -> str:
    """+9.2 / -1.5 for changes; a negative total with a minus sign (−515), as the score sheet."""
    return f"{f.value:+.{f.decimals}f}" if f.signed else f"{f.value:.{f.decimals}f}".replace("-", "\u2212")


def _names(names: Sequence[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " & " + names[-1]


def _score(a: float, b: float) -> Sentence:
    """620–380; with a negative total (a failed Grand Tichu) "1015 to −515", not "1015–-515"."""
    if a >= 0 and b >= 0:
        return Sentence(_("%(for)s–%(against)s"), {"for": Figure(a), "against": Figure(b)})
    return Sentence(_("%(for)s to %(against)s"), {"for": Figure(a), "against": Figure(b)})


#: A ranking game (more than two sides): (result, with the player's points?) -> sentence.
RANKING = {
    ("W", False): _("beat most of %(opponents)s opponents (score %(score)s)"),
    ("W", True): _("beat most of %(opponents)s opponents (score %(score)s) with %(points)s points"),
    ("L", False): _("lost to most of %(opponents)s opponents (score %(score)s)"),
    ("L", True): _("lost to most of %(opponents)s opponents (score %(score)s) with %(points)s points"),
    ("D", False): _("split evenly with %(opponents)s opponents (score %(score)s)"),
    ("D", True): _("split evenly with %(opponents)s opponents (score %(score)s) with %(points)s points"),
}
#: A game of two sides: (result, the points?, partners?, opponents?) -> sentence. Whole sentences,
#: so that each language says them in its own order and grammar (issue #21).
PAIRS = {
    ("W", False, False, False): _("won"),
    ("W", False, False, True): _("won against %(opponents)s"),
    ("W", False, True, False): _("won with %(partners)s"),
    ("W", False, True, True): _("won with %(partners)s against %(opponents)s"),
    ("W", True, False, False): _("won %(score)s"),
    ("W", True, False, True): _("won %(score)s against %(opponents)s"),
    ("W", True, True, False): _("won %(score)s with %(partners)s"),
    ("W", True, True, True): _("won %(score)s with %(partners)s against %(opponents)s"),
    ("L", False, False, False): _("lost"),
    ("L", False, False, True): _("lost against %(opponents)s"),
    ("L", False, True, False): _("lost with %(partners)s"),
    ("L", False, True, True): _("lost with %(partners)s against %(opponents)s"),
    ("L", True, False, False): _("lost %(score)s"),
    ("L", True, False, True): _("lost %(score)s against %(opponents)s"),
    ("L", True, True, False): _("lost %(score)s with %(partners)s"),
    ("L", True, True, True): _("lost %(score)s with %(partners)s against %(opponents)s"),
    ("D", False, False, False): _("drew"),
    ("D", False, False, True): _("drew against %(opponents)s"),
    ("D", False, True, False): _("drew with %(partners)s"),
    ("D", False, True, True): _("drew with %(partners)s against %(opponents)s"),
    ("D", True, False, False): _("drew %(score)s"),
    ("D", True, False, True): _("drew %(score)s against %(opponents)s"),
    ("D", True, True, False): _("drew %(score)s with %(partners)s"),
    ("D", True, True, True): _("drew %(score)s with %(partners)s against %(opponents)s"),
}
#: The whole line: the game, then both tables' chance and change; the reason when the predictive
#: rating moved against the result.
LINE = {
    "": _("%(game)s, expected %(elo_expected)s%%: %(elo_change)s; predictive %(expected)s%%: %(change)s"),
    "won_less": _(
        "%(game)s, expected %(elo_expected)s%%: %(elo_change)s; predictive %(expected)s%%: "
        "%(change)s (won by less than the ratings expected)"
    ),
    "lost_less": _(
        "%(game)s, expected %(elo_expected)s%%: %(elo_change)s; predictive %(expected)s%%: "
        "%(change)s (lost by less than the ratings expected)"
    ),
}


def why_sentence(e: Entry) -> Sentence:
    """The one-line reason for the rating changes of a game (module docstring), to be rendered."""
    if len(e.sides_elo) > 2:
        values: dict = {"opponents": Figure(len(e.sides_elo) - 1), "score": Figure(e.score, 2)}
        if e.points_for is not None:
            values["points"] = Figure(e.points_for)
        game = Sentence(RANKING[e.result, e.points_for is not None], values)
    else:
        scored = e.points_for is not None and e.points_against is not None
        values = {}
        if scored:
            values["score"] = _score(e.points_for, e.points_against)  # type: ignore[arg-type]
        if e.partners:
            values["partners"] = _names(e.partners)
        if e.opponents:
            values["opponents"] = _names(e.opponents)
        game = Sentence(PAIRS[e.result, scored, bool(e.partners), bool(e.opponents)], values)
    reason = "won_less" if e.result == "W" and e.change < 0 else "lost_less" if e.result == "L" and e.change > 0 else ""
    return Sentence(
        LINE[reason],
        {
            "game": game,
            "elo_expected": Figure(round(100 * e.elo_expected)),
            "elo_change": Figure(e.elo_change, 0, True),
            "expected": Figure(round(100 * e.expected)),
            "change": Figure(e.change, 1, True),
        },
    )


def why(e: Entry) -> str:
    """The why line in English (the JSON and CSV downloads; the pages render why_sentence)."""
    return why_sentence(e).render()


@dataclass(frozen=True)
class PeriodChange:
    games: int
    elo: float
    predictive: float


def period_change(entries: Sequence[Entry], start: date | None = None, end: date | None = None) -> PeriodChange:
    """Both tables' change over the games whose day is in [start, end] (None: open)."""
    inside = [e for e in entries if (start is None or e.day >= start) and (end is None or e.day <= end)]
    if not inside:
        return PeriodChange(0, 0.0, 0.0)
    return PeriodChange(
        len(inside), inside[-1].elo_after - inside[0].elo_before, inside[-1].rating_after - inside[0].rating_before
    )


@dataclass(frozen=True)
class Group:
    """The games of one evening or one tournament."""

    key: Hashable
    label: str
    first: date
    games: int
    wins: int
    draws: int
    elo_change: float
    change: float
    performance: float | None  # on the Elo table's scale (performance.py)
    bound: str  # "max" / "min": all won / all lost, the performance is the end of its range
    expected: float  # the Elo table's expected score in these games at the player's rating then
    opponents: float  # the mean Elo rating of the opponents met

    @property
    def actual(self) -> float:
        return self.wins + self.draws / 2

    def as_dict(self) -> dict:
        return {
            "key": self.key if isinstance(self.key, (int, str)) else str(self.key),
            "label": self.label,
            "first": self.first.isoformat(),
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "elo_change": self.elo_change,
            "change": self.change,
            "performance": self.performance,
            "bound": self.bound,
            "expected": self.expected,
            "actual": self.actual,
            "opponents": self.opponents,
        }


def _group(key: Hashable, label: str, es: list[Entry]) -> Group:
    encs = [encounter(e.sides_elo, e.side, e.player_index, e.score) for e in es]
    return Group(
        key=key,
        label=label,
        first=es[0].day,
        games=len(es),
        wins=sum(e.score > 0.5 for e in es),
        draws=sum(e.score == 0.5 for e in es),
        elo_change=es[-1].elo_after - es[0].elo_before,
        change=es[-1].rating_after - es[0].rating_before,
        performance=performance(encs),
        bound=clamped(encs),
        expected=sum(e.elo_expected for e in es),
        opponents=sum(x.opponents for x in encs) / len(encs),
    )


def evenings(entries: Iterable[Entry]) -> list[Group]:
    """One group per evening the player played (Entry.day), oldest first."""
    by_day: dict[date, list[Entry]] = {}
    for e in entries:
        by_day.setdefault(e.day, []).append(e)
    return [_group(d, d.isoformat(), es) for d, es in sorted(by_day.items())]


def tournaments(entries: Iterable[Entry]) -> list[Group]:
    """One group per tournament the player played in (games at its tables), by first game."""
    by_t: dict[Hashable, list[Entry]] = {}
    names: dict[Hashable, str] = {}
    for e in entries:
        if e.tournament is not None:
            tid, name = e.tournament
            by_t.setdefault(tid, []).append(e)
            names[tid] = name
    groups = [_group(t, names[t], es) for t, es in by_t.items()]
    return sorted(groups, key=lambda g: (g.first, str(g.key)))
