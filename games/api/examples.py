"""An example of every answer model in the OpenAPI document, by component name.

The read bodies the engine and the tournament core build carry theirs where they are declared
(games/api/bodies.py, games/tournaments/api/bodies.py, the league's serializers); the models
serialised from the database get theirs here, put into the document by the schema hook
(games.api.schema_hooks), so that a client's author sees a real answer beside every schema.
`tests/api/test_schema_examples.py` checks that every success answer has one.
"""

from __future__ import annotations

AT = "2026-12-07T19:02:11Z"
CLUB = {
    "id": 3,
    "name": "Tuesday Club",
    "slug": "tuesday",
    "visibility": "public",
    "reveal_hands": "after_hand",
    "time_zone": "Europe/Berlin",
    "created_at": AT,
}

EXAMPLES: dict[str, object] = {
    "ClubOutput": CLUB,
    "ClaimOutput": {
        "id": 5,
        "club": 3,
        "player": 12,
        "player_name": "Ada",
        "user": 7,
        "username": "ada",
        "state": "pending",
        "source": "member",
        "created_at": AT,
        "decided_at": None,
    },
    "InvitationOutput": {
        "id": 9,
        "club": 3,
        "role": "scorer",
        "note": "Ben, scorer at table 2",
        "player": None,
        "state": "pending",
        "token": "u1Wn0sV3bXq9",
        "url": "https://tichu.example.org/invitations/u1Wn0sV3bXq9/",
        "created_at": AT,
        "expires_at": "2026-12-21T19:02:11Z",
    },
    "MembershipOutput": {"id": 4, "club": 3, "user": 7, "username": "ada", "role": "scorer", "created_at": AT},
    "WebhookOutput": {
        "id": 2,
        "url": "https://bot.example.org/tichu",
        "kinds": ["game_finished"],
        "active": True,
        "created_at": AT,
    },
    "WebhookCreatedOutput": {
        "id": 2,
        "url": "https://bot.example.org/tichu",
        "kinds": ["game_finished"],
        "active": True,
        "created_at": AT,
        "secret": "5f0c2e9d1a7b4c3e8f6a0b2d4c6e8f0a1b3c5d7e9f1a3b5c7d9e1f3a5b7c9d1e",
    },
    "WebhookDeliveryOutput": {
        "entry": 42,
        "kind": "game_finished",
        "attempt": 1,
        "status_code": 204,
        "error": "",
        "delivered": True,
        "at": AT,
    },
    "ArchiveImportOutput": {
        "club": CLUB,
        "counts": {"games": 152, "players": 24, "tournaments": 3},
        "users_created": ["ada", "ben"],
    },
    "GameOutput": {
        "id": 118,
        "club": 3,
        "variant": "nanking",
        "options": {"preset": "rio"},
        "players": ["Ada", "Ben", "Cy", "Dot"],
        "player_ids": [12, 13, 14, 15],
        "status": "finished",
        "seq": 702,
        "created_at": AT,
        "finished_at": "2026-12-07T20:31:40Z",
        "played_at": AT,
    },
    "WriteOutput": {"id": 118, "seq": 702, "status": "active", "appended": 1, "first_seq": 702},
    "SeasonWriteOutput": {"id": 2, "seq": 3, "appended": 1, "first_seq": 3},
    "BswImportOutput": {
        "games": 2,
        "hands": 31,
        "equal": 31,
        "stored": 2,
        "already_imported": 0,
        "game_ids": [119, 120],
        "differences": [],
        "errors": [],
        "dates": ["2019-03-02"],
        "hands_mended": [],
    },
    "PlayerOutput": {"id": 12, "club": 3, "name": "Ada", "created_at": AT},
    "TournamentOutput": {
        "id": 4,
        "club": 3,
        "club_slug": "tuesday",
        "name": "December evening",
        "header": {"entrants": "pairs", "system": "swiss", "scoring": "dtm", "rounds": 3},
        "variant": "nanking",
        "game_options": {},
        "status": "active",
        "seq": 17,
        "created_at": AT,
    },
    "TableCodeOutput": {
        "round": 1,
        "table": 2,
        "code": "K7QPM4XD",
        "printed": "K7QP-M4XD",
        "pins": {"ns": "4821", "ew": "0937"},
        "created_at": AT,
    },
    "TableGameOutput": {"round": 1, "table": 2, "game": 131, "status": "active", "seq": 40},
}


def add_examples(result, generator, request, public):
    """drf-spectacular postprocessing hook: each listed component gets its `example`."""
    schemas = result.get("components", {}).get("schemas", {})
    for name, example in EXAMPLES.items():
        if name in schemas:
            schemas[name].setdefault("example", example)
    return result
