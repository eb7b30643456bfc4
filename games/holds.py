"""Games held back from readers: the one place every channel of the records asks whether a game
may be read, listed, rated, or seen whole by a table's code.

The records do not know why a game is held; the apps built on them do (a duplicate tournament's
tables: games/tournaments/visibility.py). Such an app registers a `HoldRule` in its `ready()`, and
the records ask the rules through the functions below, never the app itself (so the records
import no tournament module for it):

- `game_held(game, user)`: the game is not there for `user` (404 on every channel that reads one
  game: API, replay, game and entry pages; `games.selectors.game_get` asks);
- `unlisted(user)`: the ids of the games no list may show `user` (the club page and its evening,
  the API's game lists; `games.selectors.games_listed`), their result included;
- `rating_held()`: the ids of the games no rating may count yet (the ratings' task and recompute
  ask); an app that ends a hold sends `games.hooks.finished_game_changed` for each finished game
  it lets go, so that the game is rated then;
- `code_sees_hands(game)`: whether a table's code scoring `game` sees its hands in play
  (`games.visibility.reader_sight` asks; a code otherwise sees what a reader without a seat sees).
"""

from __future__ import annotations

from typing import Protocol


class HoldRule(Protocol):
    def game_held(self, game, user) -> bool: ...

    def unlisted(self, user) -> set[int]: ...

    def rating_held(self) -> set[int]: ...

    def code_sees_hands(self, game) -> bool: ...


_rules: list[HoldRule] = []


def register(rule: HoldRule) -> HoldRule:
    if rule not in _rules:  # ready() may run twice (tests, reloads)
        _rules.append(rule)
    return rule


def game_held(game, user) -> bool:
    return any(rule.game_held(game, user) for rule in _rules)


def unlisted(user) -> set[int]:
    out: set[int] = set()
    for rule in _rules:
        out |= rule.unlisted(user)
    return out


def rating_held() -> set[int]:
    out: set[int] = set()
    for rule in _rules:
        out |= rule.rating_held()
    return out


def code_sees_hands(game) -> bool:
    return all(rule.code_sees_hands(game) for rule in _rules)
