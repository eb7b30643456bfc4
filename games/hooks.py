"""Hooks: what the records (games) must set off in the apps built on them, without importing them.

The ratings (games.ratings, an app of its own) import the records, never the reverse (the
import contract in pyproject.toml). Where a write of the records must start a rating write, the
records call a hook defined here and the ratings app connects its receivers in its `ready()`
(games/ratings/apps.py). A hook calls its receivers synchronously in the caller's transaction,
and a receiver's exception propagates: the rating outbox row commits or rolls back with the
events (docs/ratings.md, "Delivery").
"""

from __future__ import annotations

from typing import Any, Callable


class Hook:
    """Receivers called in connection order with the hook's arguments."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._receivers: list[Callable[..., Any]] = []

    def connect(self, receiver: Callable[..., Any]) -> Callable[..., Any]:
        if receiver not in self._receivers:  # ready() may run twice (tests, reloads)
            self._receivers.append(receiver)
        return receiver

    def send(self, *args: Any, **kwargs: Any) -> None:
        for receiver in list(self._receivers):
            receiver(*args, **kwargs)


class Provider:
    """One answering function (a query the records need from an app built on them)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._answer: Callable[..., Any] | None = None

    def provide(self, answer: Callable[..., Any]) -> Callable[..., Any]:
        self._answer = answer
        return answer

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self._answer is None:
            raise RuntimeError(f"hook {self.name!r}: no app provides it (is games.ratings installed?)")
        return self._answer(*args, **kwargs)


#: (game, events): a batch about to be stored in `game` (games.services.events, the game row
#: locked, the events canonical), before the rules fold it; a receiver refuses it by raising a
#: ServiceError (a duplicate table's hands are dealt from its boards only: games.tournaments).
events_appending = Hook("events_appending")

#: game: a game created to be recorded (games.services.game_create; not an import of a past game),
#: inside its transaction (the club's feed: games.clubs.feed).
game_started = Hook("game_started")

#: game: a game the append left finished, reopened by an undo, or changed while finished
#: (games.services.events), inside the append's transaction.
finished_game_changed = Hook("finished_game_changed")

#: imported: the finished games a bulk import stored (games.bulk_store), inside its transaction,
#: each as (game, its seats' player ids, its score: a function returning `selectors.game_score`'s
#: JSON from the state the import folded). Their rating waits for the import job's one
#: recompute; their outcome is written from that score, with no fold.
finished_games_stored_held = Hook("finished_games_stored_held")

#: job_id: an import job's last file is in (games.import_tasks); may raise when the broker is down.
import_job_finished = Hook("import_job_finished")

#: club_id: a club's players were merged (games.clubs.services), after the commit; may raise when
#: the broker is down.
club_players_merged = Hook("club_players_merged")

#: (tournament, games): the result of a tournament table whose game is one of `games` (finished
#: games) was recorded or corrected on the tournament's stream (games.tournaments.services),
#: inside the append's transaction: a league that follows the tournaments' VP counts them anew.
table_results_changed = Hook("table_results_changed")

#: club_id: a club was imported from its archive (games.clubs.archive), after the commit; its
#: ratings, a fold of its games, are recomputed. May raise when the broker is down.
club_imported = Hook("club_imported")

#: (tournament, player_ids) -> ({player: Elo before the event}, the Elo of a player without one)
#: (games.tournaments.performance).
ratings_before_tournament = Provider("ratings_before_tournament")

#: (club, variant, player_ids) -> {player: the club's Elo now} for the players of the club's Elo
#: league table among `player_ids` (games.tournaments.brackets: a bracket seeded by rating).
club_elo_ratings = Provider("club_elo_ratings")
