"""The player page's why lines (games/ratings/player_history.py: whole sentences with
placeholders, rendered by replay/league/views.py) in the reader's language: no English word of the
sentences left, the players' names in place, and the figures written as the language writes them
(a decimal comma in French, German and Ukrainian). The JSON download keeps them in English."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client

from games.ratings.player_history import LINE, PAIRS, RANKING
from games.ratings.player_view import LIST_GAMES
from tests.ratings.test_league_pages import tuesday  # noqa: F401 (the fixture)

WHY_CELL = re.compile(r'<td class="why">(.*?)</td>', re.S)
ENGLISH = {
    w
    for t in [*PAIRS.values(), *RANKING.values(), *LINE.values()]
    for w in re.findall(r"[a-z]{3,}", re.sub(r"%\(\w+\)s", " ", t))
}


def why_cells(client: Client, player_id: int, lang: str) -> list[str]:
    page = client.get(f"/players/{player_id}/", HTTP_ACCEPT_LANGUAGE=lang)
    assert page.status_code == 200 and page["Content-Language"] == lang
    return [html.unescape(c).strip() for c in WHY_CELL.findall(page.content.decode())]


@pytest.mark.parametrize("lang", ["fr", "de", "uk"])
def test_the_why_lines_are_in_the_readers_language(tuesday, lang):  # noqa: F811
    club, pid, games = tuesday
    c = Client()
    english = [g["why"] for g in c.get(f"/players/{pid['Anna']}.json").json()["history"]]
    assert english[-1].startswith("lost 300–700 with Eva against Ben & Dirk")  # the JSON: English
    cells = why_cells(c, pid["Anna"], lang)
    assert len(cells) == min(LIST_GAMES, len(english))
    left = {(cell, w) for cell in cells for w in re.findall(r"[a-z]+", cell) if w in ENGLISH}
    assert left == set()
    assert "Eva" in cells[0] and "Ben & Dirk" in cells[0] and "300–700" in cells[0]
    assert all(re.search(r"[+\u2212]\d+,\d\b", cell) for cell in cells)  # the predictive change, 1 decimal


def test_english_readers_read_the_json_sentence(tuesday):  # noqa: F811
    club, pid, games = tuesday
    c = Client()
    english = [g["why"] for g in c.get(f"/players/{pid['Anna']}.json").json()["history"]]
    cells = why_cells(c, pid["Anna"], "en")
    assert cells == [w.replace("-", "\u2212") for w in reversed(english[-LIST_GAMES:])]
