"""docs/api.md against the served OpenAPI document (issue 37, item 7): every operation (method and
path) has a `curl` line on the page, and a handful of the page's examples, parsed from the page
(method, path, query, headers, body), answer 2xx through the app on a seeded database."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.core.management import call_command
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"
METHODS = ("get", "post", "put", "patch", "delete")
#: the section whose examples run against a fresh `make run` database (seed_demo)
SECTION = "## Every operation, with a curl example"


class Curl:
    """One `curl` command of the page: its method, URL, headers and body, as curl would send them."""

    def __init__(self, line: str) -> None:
        words = shlex.split(line, comments=True)
        self.line = line
        self.method = "GET"
        self.url = ""
        self.headers: dict[str, str] = {}
        self.body: str | None = None
        self.body_file: str | None = None
        given_method = None
        i = 1
        while i < len(words):
            word = words[i]
            if word in ("-X", "--request"):
                given_method = words[i + 1]
                i += 1
            elif word in ("-H", "--header"):
                name, _, value = words[i + 1].partition(":")
                self.headers[name.strip()] = value.strip()
                i += 1
            elif word in ("-d", "--data", "--data-binary", "--data-raw"):
                value = words[i + 1]
                if value.startswith("@") and word != "--data-raw":
                    self.body_file = value[1:]
                else:
                    self.body = value
                i += 1
            elif word in ("-o", "--output"):
                i += 1
            elif word.startswith(("http://", "https://")) and not self.url:
                self.url = word
            elif word == "|":
                break
            i += 1
        has_body = self.body is not None or self.body_file is not None
        self.method = (given_method or ("POST" if has_body else "GET")).upper()

    @property
    def path(self) -> str:
        return urlsplit(self.url).path

    @property
    def query(self) -> str:
        return urlsplit(self.url).query


def curl_lines(text: str) -> list[str]:
    """The `curl` commands of the page's code blocks, continuation lines joined."""
    lines, in_block, pending = [], False, ""
    for raw in text.splitlines():
        if raw.startswith("```"):
            in_block, pending = not in_block, ""
            continue
        if not in_block:
            continue
        line = pending + raw.strip()
        if line.endswith("\\"):
            pending = line[:-1].rstrip() + " "
            continue
        pending = ""
        if line.startswith("curl "):
            lines.append(line)
    return lines


def schema_operations() -> dict[tuple[str, str], str]:
    """(METHOD, path template) -> operationId of the served document."""
    schema = SchemaGenerator().get_schema(request=None, public=True)
    return {
        (method.upper(), path): op["operationId"]
        for path, ops in schema["paths"].items()
        for method, op in ops.items()
        if method in METHODS
    }


def template_pattern(template: str) -> re.Pattern:
    parts = re.split(r"(\{[^}]+\})", template)
    return re.compile("".join("[^/]+" if p.startswith("{") else re.escape(p) for p in parts) + "$")


def operation_of(curl: Curl, operations) -> tuple[str, str] | None:
    """The operation a curl calls: the template its path matches with the fewest parameters (a
    literal `/api/clubs/import/` before `/api/clubs/{id}/`)."""
    matches = [(m, t) for (m, t) in operations if m == curl.method and template_pattern(t).match(curl.path)]
    return min(matches, key=lambda mt: mt[1].count("{"), default=None)


def section_text() -> str:
    text = DOC.read_text(encoding="utf-8")
    start = text.index(SECTION)
    end = text.index("\n## ", start + len(SECTION))
    return text[start:end]


def test_curl_parsing_reads_method_path_headers_and_body():
    curl = Curl(
        """curl -s -X PATCH 'http://h/api/clubs/demo/?x=1' -H "Authorization: Bearer $TOKEN" """
        """-H 'Content-Type: application/json' -d '{"name": "a b"}'  # a comment"""
    )
    assert (curl.method, curl.path, curl.query) == ("PATCH", "/api/clubs/demo/", "x=1")
    assert curl.headers == {"Authorization": "Bearer $TOKEN", "Content-Type": "application/json"}
    assert json.loads(curl.body) == {"name": "a b"}
    assert Curl("curl -s http://h/api/ping/ -o out.json").method == "GET"
    assert Curl("curl -s http://h/api/x/ --data-binary @f.json").method == "POST"
    assert Curl("curl -s http://h/api/x/ --data-binary @f.json").body_file == "f.json"
    assert curl_lines("```sh\ncurl -s \\\n  http://h/a/\n```\ncurl outside\n") == ["curl -s http://h/a/"]


def test_every_operation_of_the_schema_has_a_curl_line_in_docs_api_md():
    operations = schema_operations()
    called = {operation_of(Curl(line), operations) for line in curl_lines(DOC.read_text(encoding="utf-8"))}
    missing = sorted(f"{m} {t} ({operations[(m, t)]})" for (m, t) in operations if (m, t) not in called)
    assert not missing, "operations without a curl example in docs/api.md:\n" + "\n".join(missing)


def test_every_curl_line_of_the_page_calls_an_operation_of_the_schema():
    """A renamed or removed path fails here rather than leaving a dead example on the page."""
    operations = schema_operations()
    stray = [
        line for line in curl_lines(DOC.read_text(encoding="utf-8")) if operation_of(Curl(line), operations) is None
    ]
    assert stray == []


#: the examples run against the seeded database, in the page's order (every curl of these operations)
RUN = {
    "auth_token_create",
    "ping_retrieve",
    "schema_retrieve",
    "clubs_list",
    "clubs_retrieve",
    "clubs_partial_update",
    "clubs_members_list",
    "clubs_invitations_list",
    "clubs_invitations_create",
    "clubs_claims_list",
    "clubs_export_retrieve",
    "clubs_league_retrieve",
    "clubs_feed_retrieve",
    "clubs_webhooks_list",
    "players_list",
    "players_create",
    "players_retrieve",
    "players_partial_update",
    "players_ratings_retrieve",
    "games_list",
    "games_create",
    "games_retrieve",
    "games_events_retrieve",
    "games_events_create",
    "games_state_retrieve",
    "games_score_retrieve",
    "games_record_retrieve",
    "games_legal_retrieve",
    "tournaments_list",
    "tournaments_create",
    "tournaments_retrieve",
    "tournaments_events_create",
    "tournaments_events_retrieve",
    "tournaments_pairing_retrieve",
    "tournaments_rounds_games_create",
    "tournaments_rounds_games_list",
    "tournaments_rounds_codes_list",
    "tournaments_standings_retrieve",
    "tournaments_crosstable_retrieve",
    "tournaments_record_retrieve",
    "tournaments_results_retrieve",
}


def meta_of(curl: Curl, token: str | None) -> dict[str, str]:
    meta = {}
    for name, value in curl.headers.items():
        if name.lower() == "content-type":
            continue
        if token is not None:
            value = value.replace("$TOKEN", token)
        meta["HTTP_" + name.upper().replace("-", "_")] = value
    return meta


@pytest.mark.django_db
def test_the_pages_examples_answer_as_written_on_a_seeded_database():
    call_command("seed_demo", demo_passwords=True, stdout=open("/dev/null", "w"))
    from games.models import Club

    demo = Club.objects.get(slug="demo")
    first_game = demo.games.order_by("id").first().id
    ann = demo.players.get(name="Ann").id
    operations = schema_operations()
    # the page's ids are those of a fresh `make run` database; here ids may be others
    ids = {"games": {"1": first_game}, "players": {"1": ann}, "tournaments": {}}
    client = APIClient()
    token = None
    ran = []
    for line in curl_lines(section_text()):
        curl = Curl(line)
        operation = operations.get(operation_of(curl, operations))
        if operation not in RUN:
            continue
        path = re.sub(
            r"/api/(games|players|tournaments)/(\d+)/", lambda m: f"/api/{m[1]}/{ids[m[1]].get(m[2], m[2])}/", curl.path
        )
        url = path + (f"?{curl.query}" if curl.query else "")
        answer = client.generic(
            curl.method,
            url,
            data=curl.body or "",
            content_type=curl.headers.get("Content-Type", "application/octet-stream"),
            HTTP_ACCEPT_LANGUAGE="en",
            **meta_of(curl, token),
        )
        content = b"".join(answer.streaming_content) if answer.streaming else answer.content
        assert 200 <= answer.status_code < 300, (line, answer.status_code, content[:500])
        if operation == "auth_token_create":
            token = answer.json()["token"]
        elif operation == "games_create":
            ids["games"]["7"] = answer.json()["id"]
        elif operation == "tournaments_create":
            ids["tournaments"]["1"] = answer.json()["id"]
        ran.append(operation)
    assert set(ran) == RUN, RUN - set(ran)
