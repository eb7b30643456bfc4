"""Reading every channel of a game as one reader: the API's state (every position), events and
record, the replay page (its table and its embedded frames) and the game page."""

from __future__ import annotations

import json
import re

from django.test import Client
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from replay import frames
from tests.visibility.cards import shown_codes

CARD_ATTR = re.compile(r'data-card="([^"]*)"')
PAYLOAD = re.compile(r'<script id="replay-data" type="application/json">(.*?)</script>', re.S)


class Reader:
    """One reader (a user or anonymous) of one game, through the API and the pages."""

    def __init__(self, user=None):
        self.api = APIClient()
        self.page = Client()
        if user is not None:
            token, _ = Token.objects.get_or_create(user=user)
            self.api.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
            self.page.force_login(user)

    def get(self, path: str):
        return self.api.get(path)

    def state(self, game_id: int, at: int | None = None) -> dict:
        response = self.get(f"/api/games/{game_id}/state/" + (f"?at={at}" if at is not None else ""))
        assert response.status_code == 200, response.content
        return response.json()

    def events(self, game_id: int, after: int = 0) -> dict:
        response = self.get(f"/api/games/{game_id}/events/?after={after}")
        assert response.status_code == 200, response.content
        return response.json()

    def record(self, game_id: int) -> dict:
        response = self.get(f"/api/games/{game_id}/record/")
        assert response.status_code == 200, response.content
        return response.json()

    def replay(self, game_id: int, at: int | None = None) -> tuple[list[str], list[dict], list[str]]:
        """The replay page at `at` (default: the end): the cards its table shows, every frame of
        its embedded data (rebuilt from the deltas) and every frame's words."""
        url = reverse("replay:game-replay", args=[game_id]) + (f"?at={at}" if at is not None else "")
        response = self.page.get(url)
        assert response.status_code == 200
        html = response.content.decode()
        payload = json.loads(PAYLOAD.search(html).group(1))
        rebuilt, frame = [], {}
        for delta in payload["frames"]:
            frames.apply_delta(frame, delta, copy_values=True)
            rebuilt.append(json.loads(json.dumps(frame)))
        table = html[html.index('id="table"') : html.index("</section>", html.index('id="table"'))]
        return CARD_ATTR.findall(table), rebuilt, payload["texts"]

    def game_page(self, game_id: int) -> str:
        response = self.page.get(reverse("replay:game-detail", args=[game_id]))
        assert response.status_code == 200
        return response.content.decode()


def codes_shown_from(reader: Reader, game_id: int, start: int, cut: int, universe: set[str]) -> set[str]:
    """Every card code `reader` is shown of the positions and events of the hand that began at
    event `start` (the game being at `cut` events)."""
    shown: set[str] = set()
    for n in range(start + 1, cut + 1):
        shown |= shown_codes(reader.state(game_id, n), universe)
    shown |= shown_codes(reader.state(game_id), universe)
    shown |= shown_codes(reader.events(game_id, after=start)["events"], universe)
    shown |= shown_codes(reader.record(game_id).get("events", [])[start:], universe)
    table, rebuilt, _ = reader.replay(game_id)
    shown |= set(table) & universe
    shown |= shown_codes(rebuilt[start + 1 :], universe)
    return shown


def names_told(reader: Reader, game_id: int, start: int) -> str:
    """The words of the replay's frames of the hand that began at event `start`."""
    return " | ".join(reader.replay(game_id)[2][start + 1 :])
