"""The rating systems the league runs, in one registry (docs/ratings.md, "The league's systems").

Every pool (club x variant) keeps two ratings per player, replayed side by side from the same
outcomes: the Elo table (`elo.ClubElo`, as clubs know it) and the predictive model
(`config.model_for`, the margin Kalman mixture). What the league pages, the API and the tasks need
to know of a system is declared here, once: how to start it for a variant, its key (`?table=elo`, the API's `tables[].key`), the
`RatingChange` columns holding its rating before and after a game, whether it has an uncertainty,
when a player is provisional in it, the figure its table ranks by (the predictive table: the low end of
the 95% range) and the rules a reader is shown. A new system of the league
is one entry here (and its columns)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from .config import SYSTEM, model_for, newcomer_rd, params_for
from .elo import CLUB_ELO, ClubElo


def _elo_provisional(variant: str, rd: float, games: int) -> bool:
    return games < CLUB_ELO.provisional_games


def _predictive_provisional(variant: str, rd: float, games: int) -> bool:
    p = params_for(variant)
    return games < p.provisional_games or rd > p.provisional_rd_ratio * newcomer_rd(variant)


def _elo_rules(variant: str) -> dict:
    return {
        "k": CLUB_ELO.k,
        "provisional_k": CLUB_ELO.provisional_k,
        "provisional_games": CLUB_ELO.provisional_games,
        "initial": CLUB_ELO.initial,
    }


def _predictive_rules(variant: str) -> dict:
    p = params_for(variant)
    return {
        "provisional_games": p.provisional_games,
        "initial": p.initial,
        "provisional_rd": round(p.provisional_rd_ratio * newcomer_rd(variant), 1),
        "hand_sd": p.hand_sd,
    }


@dataclass(frozen=True)
class LeagueSystem:
    key: str  # the table's name in URLs and answers: "elo", "predictive"
    name: str  # the system and its version (a pool rated under another is recomputed)
    before: str  # RatingChange's column: the player's rating before the game
    after: str  # ... and after it
    has_deviation: bool  # a rating deviation (RD, 95% range rating +- 2 RD) beside the rating
    provisional: Callable[[str, float, int], bool]  # (variant, rd, games) -> shown with "?"
    rules: Callable[[str], dict]  # the parameters a reader is shown, per variant
    start: Callable[[str], Any]  # the system for a variant, empty: what services.py replays a pool with
    ranks_by: Callable[[float, float], float]  # (rating, RD) -> the figure the table is ranked by


def conservative(rating: float, rd: float) -> float:
    """The predictive table's ranking figure: the low end of the 95% range (rating - 2 RD), as
    TrueSkill ranks by mu - k sigma. A player known from few games (a wide range) ranks below a
    regular of the same rating until their games narrow it: "1511? +- 313" is 885 here, so it no
    longer ranks first above a well-known 1663 +- 60 (1543)."""
    return rating - 2.0 * rd


def plain(rating: float, rd: float) -> float:
    """The Elo table's: the rating itself (it has no deviation)."""
    return rating


ELO = LeagueSystem(
    "elo",
    ClubElo.name,
    "elo_before",
    "elo_after",
    False,
    _elo_provisional,
    _elo_rules,
    lambda variant: ClubElo(),
    plain,
)
PREDICTIVE = LeagueSystem(
    "predictive",
    SYSTEM,
    "rating_before",
    "rating_after",
    True,
    _predictive_provisional,
    _predictive_rules,
    model_for,
    conservative,
)

#: The league's systems by key, in the order a club may lead with (LeagueRules.leads_with).
SYSTEMS: dict[str, LeagueSystem] = {s.key: s for s in (ELO, PREDICTIVE)}


def system(key: str) -> LeagueSystem:
    """The system named `key` (KeyError for a name the league does not run)."""
    return SYSTEMS[key]


def in_order(leads_with: str) -> list[LeagueSystem]:
    """The systems as a club's league shows them: the one it leads with first."""
    return sorted(SYSTEMS.values(), key=lambda s: s.key != leads_with)
