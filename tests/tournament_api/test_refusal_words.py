"""Every refusal of the tournament core has words in French, German and Ukrainian (issue #21).

A static scan finds every ``TournamentError`` the core can raise, its code, its ``rule`` and the
params it gives, and checks the words table (games.tournaments.refusal_words) has a template for
it, one sentence a key, whose placeholders the raise provides, translated in every catalogue. A
tournament driven through bad events at each step of its life checks a sample end to end, and the
API answers a refused event in the request's language with the same code.
"""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import pytest
from django.utils import translation

from games import tournament as core
from games.tournaments import refusal_words
from games.tournaments.models import Tournament
from tests.conftest import client_for
from tests.tournament.play import play_round, tournament, with_events
from tests.tournament_api.test_api import append, create, register_pairs

CORE = Path(core.__file__).parent
LANGS = ("fr", "de", "uk")
# `**where` in the core spreads these (state._answerable).
SPREADS = {"where": {"round", "table"}}
# ``f"result_{table.confirmation}"``: the answered states a result can already be in.
ANSWERED = ("confirmed", "disputed", "corrected")


def _const(node: ast.expr) -> str:
    """The constant parts of a (f-)string, the holes as {}: the sentence's shape."""
    if isinstance(node, ast.Constant):
        return str(node.value)
    if isinstance(node, ast.JoinedStr):
        return "".join(str(v.value) if isinstance(v, ast.Constant) else "{}" for v in node.values)
    return ast.unparse(node)


def core_refusals() -> list[tuple[str, str, str, set[str]]]:
    """(where, key, sentence shape, params given) of every TournamentError (or record.malformed)
    the core raises, but the command line's."""
    found = []
    for path in sorted(CORE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            name = getattr(node, "func", None) and getattr(node.func, "id", None)
            if not (isinstance(node, ast.Call) and name in ("TournamentError", "malformed")):
                continue
            if name == "malformed":  # record.malformed(message, **params): a shape error
                node.args.insert(0, ast.Constant("malformed"))
            if len(node.args) < 2:
                continue  # the helpers themselves, not a refusal
            given = {k.arg for k in node.keywords if k.arg} | {
                n for k in node.keywords if k.arg is None for n in SPREADS.get(ast.unparse(k.value), ())
            }
            rule = next((k.value.value for k in node.keywords if k.arg == "rule"), None)
            code = node.args[0]
            codes = [code.value] if isinstance(code, ast.Constant) else [f"result_{a}" for a in ANSWERED]
            where = f"{path.relative_to(CORE)}:{node.lineno}"
            for c in codes:
                if c == "malformed" and rule is None and (path.name == "cli.py" or isinstance(node.args[1], ast.Name)):
                    continue  # the command line's file errors (never on the site), and the helper passing through
                shape = (
                    _const(node.args[1]).replace("{}", c.removeprefix("result_")) if c != code else _const(node.args[1])
                )
                found.append((where, refusal_words.key(c, rule), shape, given))
    return found


REFUSALS = core_refusals()


def test_the_scan_finds_the_cores_refusals():
    assert len(REFUSALS) > 50
    assert {key for _, key, _, _ in REFUSALS} >= {"unknown_entry", "round_open", "result_confirmed"}


@pytest.mark.parametrize(("where", "key", "shape", "given"), REFUSALS, ids=[r[0] for r in REFUSALS])
def test_every_refusal_has_a_template_with_its_params(where, key, shape, given):
    template = refusal_words.WORDS.get(key)
    assert template is not None, f"{where}: no words for {key} ({shape})"
    needed = set(re.findall(r"%\((\w+)\)s", template)) - {"index"}
    assert needed <= given, f"{where}: {key} needs {needed - given}"


def test_one_key_is_one_sentence():
    """Two raises share a key only when they say the same sentence (else one needs its own rule)."""
    shapes: dict[str, set[str]] = {}
    for _, key, shape, _ in REFUSALS:
        shapes.setdefault(key, set()).add(re.sub(r"\{\}", "", shape))
    assert {k: s for k, s in shapes.items() if len(s) > 1} == {}


@pytest.mark.parametrize("lang", LANGS)
def test_every_template_is_translated(lang):
    with translation.override(lang):
        untranslated = [t for t in refusal_words.WORDS.values() if translation.gettext(t) == t]
    assert untranslated == []


def _refusals_of_a_tournaments_life() -> list[core.TournamentError]:
    """Bad events at each step: registering, the first round paired and played, closed, finished."""
    fresh = tournament(4, rounds=1, played=0)
    paired = with_events(fresh)
    play_round(paired, random.Random(1), close=False)
    played = with_events(paired, {"type": "round_closed", "round": 1})
    finished = with_events(played, {"type": "tournament_finished"})
    bad = [
        (fresh, {"type": "entry_registered", "entry": "e0", "players": ["X", "Y"]}),
        (fresh, {"type": "entry_registered", "entry": "e9", "players": ["A1", "Z"]}),
        (fresh, {"type": "entry_withdrawn", "entry": "e9"}),
        (fresh, {"type": "entry_reentered", "entry": "e0"}),
        (with_events(fresh, {"type": "entry_withdrawn", "entry": "e0"}), {"type": "entry_withdrawn", "entry": "e0"}),
        (fresh, {"type": "round_closed", "round": 1}),
        (fresh, {"type": "round_paired", "round": 2, "tables": [{"table": 1, "sides": [["e0"], ["e1"]]}]}),
        (fresh, {"type": "round_paired", "round": 1, "tables": [{"table": 1, "sides": [["e0"], ["e1"]]}]}),
        (paired, {"type": "result_recorded", "round": 1, "table": 99, "hands": []}),
        (paired, {"type": "tournament_finished"}),
        (played, {"type": "round_closed", "round": 1}),
        (played, {"type": "round_paired", "round": 1, "tables": [{"table": 1, "sides": [["e0"], ["e1"]]}]}),
        (finished, {"type": "entry_withdrawn", "entry": "e0"}),
    ]
    refused = []
    for record, event in bad:
        with pytest.raises(core.TournamentError) as err:
            core.fold(with_events(record, event))
        refused.append(err.value)
    for record in (played, finished):
        with pytest.raises(core.TournamentError) as err:
            core.propose(core.fold(record))
        refused.append(err.value)
    return refused


@pytest.mark.parametrize("lang", LANGS)
def test_a_tournaments_refusals_are_worded_in_each_language(lang):
    refused = _refusals_of_a_tournaments_life()
    assert len({refusal_words.key(e.code, e.params.get("rule")) for e in refused}) >= 12
    with translation.override("en"):
        assert [refusal_words.message(e) for e in refused] == [e.message for e in refused]
    with translation.override(lang):
        worded = [(e.code, refusal_words.said(e)) for e in refused]
    assert [code for code, said in worded if said is None] == []
    english = {e.message for e in refused}
    assert [said for _, said in worded if said in english] == []


@pytest.mark.django_db
def test_a_refused_pairing_is_answered_in_french(club, scorer_client):
    tid = create(scorer_client)["id"]
    register_pairs(scorer_client, tid)
    proposal = scorer_client.get(f"/api/tournaments/{tid}/pairing/").json()
    event = proposal["event"]
    event["tables"][0]["sides"][0] = ["zz"]
    english = append(scorer_client, tid, [event], proposal["seq"], HTTP_ACCEPT_LANGUAGE="en")
    french = append(scorer_client, tid, [event], proposal["seq"], HTTP_ACCEPT_LANGUAGE="fr")
    assert english.status_code == french.status_code == 422
    english, french = english.json(), french.json()
    assert english["code"] == french["code"] == "unknown_entry" and english["index"] == french["index"] == 0
    assert english["message"] == "no entry 'zz' is registered"
    assert french["message"] == "aucun inscrit «\u00a0zz\u00a0» n’est enregistré" == french["error"]["message"]


@pytest.mark.django_db
def test_a_shape_refusal_is_answered_in_french(club, scorer_client):
    tid = create(scorer_client)["id"]
    register_pairs(scorer_client, tid)
    seq = scorer_client.get(f"/api/tournaments/{tid}/pairing/").json()["seq"]
    event = {"type": "round_paired", "round": 1, "tables": "all"}
    english = append(scorer_client, tid, [event], seq, HTTP_ACCEPT_LANGUAGE="en")
    french = append(scorer_client, tid, [event], seq, HTTP_ACCEPT_LANGUAGE="fr")
    assert english.status_code == french.status_code == 400
    english, french = english.json(), french.json()
    assert english["code"] == french["code"] == "malformed" and english["params"] == french["params"]
    assert english["params"]["rule"] == "tables_list"
    assert english["message"] == "round_paired: 'tables' must be a list"
    assert french["message"] == "round_paired\u00a0: «\u00a0tables\u00a0» doit être une liste"


@pytest.mark.django_db
def test_the_directors_page_says_a_refusal_in_french(club, scorer, client):
    client.force_login(scorer)
    scorer_api = client_for(scorer)
    tid = create(scorer_api)["id"]
    register_pairs(scorer_api, tid)
    withdraw = {"action": "withdraw", "entry": "e0"}
    seq = Tournament.objects.get(pk=tid).seq
    assert client.post(f"/tournaments/{tid}/act/", {**withdraw, "seq": seq}).status_code == 302
    page = client.post(f"/tournaments/{tid}/act/", {**withdraw, "seq": seq + 1}, follow=True, HTTP_ACCEPT_LANGUAGE="fr")
    assert Tournament.objects.get(pk=tid).seq == seq + 1
    text = page.content.decode()
    assert "l’inscrit «\u00a0e0\u00a0» est déjà retiré" in text and "has already withdrawn" not in text
