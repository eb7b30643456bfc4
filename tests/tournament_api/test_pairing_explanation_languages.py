"""Every line of a pairing's explanation in French, German and Ukrainian (issue #21), beside
test_explanation_words.py: a pairing of every system and kind of method (Swiss without and with its
window, round robin with an even and an odd field over both legs, individual by a whist design and
by the optimiser, duplicate with an even and an odd field, the director's own seating) has each of
its lines said in each language, none left in the core's English; and the director's pairing page
of a tournament shows the explanation in French and in Ukrainian."""

from __future__ import annotations

import html
import random

import pytest
from django.utils import translation

from games.tournament import fold, propose
from games.tournament.pairing.designs import find_design
from games.tournament.pairing.swiss import WINDOW
from replay.tournaments import explanation_words
from tests.conftest import client_for
from tests.tournament.play import header, play_round, register
from tests.tournament_api.test_api import create, register_pairs

LANGS = ("fr", "de", "uk")


def _explanations() -> list[tuple[str, dict]]:
    out = []

    def run(name, n, rounds, entrants="pairs", **kw):
        record = {"header": header(entrants=entrants, rounds=rounds, **kw), "events": register(n, entrants)}
        rng = random.Random(3)
        for r in range(1, rounds + 1):
            out.append((f"{name}, round {r}", propose(fold(record)).explanation))
            play_round(record, rng)

    run("swiss", 6, 2)
    run("swiss with a window", 2 * WINDOW + 2, 1)
    run("round robin, even, two legs", 4, 6, system="round_robin", legs=2)
    run("round robin, odd", 5, 5, system="round_robin")
    design = next(n for n in range(8, 20) if find_design(n) is not None)
    run("individual, a design", design, 1, entrants="individuals", system="individual", scoring="dtm")
    plain = next(n for n in range(6, 20) if find_design(n) is None)
    run("individual, the optimiser", plain, 1, entrants="individuals", system="individual", scoring="dtm")
    run("duplicate, even", 4, 3, system="duplicate", scoring="matchpoints", hands_per_round=2)
    run("duplicate, odd", 5, 5, system="duplicate", scoring="matchpoints", hands_per_round=2)
    out.append(("the director's seating", {"system": "manual", "method": "seated by the tournament director"}))
    return out


EXPLANATIONS = _explanations()


def test_the_explanations_cover_every_kind_of_method():
    kinds = {e["method"].split(" for ")[0].split(",")[0] for _, e in EXPLANATIONS}
    assert len(kinds) == 6, kinds  # Swiss matching, Berger, whist design, partner matching, movement, seated
    assert any(e.get("window") == WINDOW for _, e in EXPLANATIONS), "a Swiss round on the window"
    assert any(e.get("berger", {}).get("phantom") for _, e in EXPLANATIONS)
    assert any(e.get("berger", {}).get("leg") == 2 for _, e in EXPLANATIONS)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("name", "explanation"), EXPLANATIONS, ids=[n for n, _ in EXPLANATIONS])
def test_every_line_is_said_in_the_readers_language(name, explanation, lang):
    english = [explanation["method"], *explanation.get("constraints", [])]
    with translation.override(lang):
        said = [explanation_words.method(explanation), *explanation_words.constraints(explanation)]
    assert len(said) == len(english)
    left = [line for line in said if line in english or line.startswith("maximum-weight")]
    assert left == [], f"{name}: English left in {lang}"
    if explanation.get("window"):
        assert str(explanation["window"]) in said[0]
    if explanation.get("design"):  # its English name ("Wh(8) over Z7 + infinity") is not said
        design = explanation["design"]
        assert "over" not in said[0] and "infinity" not in said[0], said[0]
        assert design["group"] in said[0] and str(design["players"]) in said[0], said[0]


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ("fr", "uk"))
def test_the_pairing_page_explains_in_the_readers_language(club, scorer, client, lang):
    client.force_login(scorer)
    tid = create(client_for(scorer))["id"]
    register_pairs(client_for(scorer), tid)
    proposal = client_for(scorer).get(f"/api/tournaments/{tid}/pairing/").json()["event"]["explanation"]
    page = client.get(f"/tournaments/{tid}/pair/", HTTP_ACCEPT_LANGUAGE=lang)
    assert page.status_code == 200
    text = html.unescape(page.content.decode())
    shown = text[text.index('id="explanation"') : text.index("</section>")]
    with translation.override(lang):
        said = [explanation_words.method(proposal), *explanation_words.constraints(proposal)]
    assert all(line in shown for line in said), (said, shown)
    assert not [line for line in [proposal["method"], *proposal["constraints"]] if line in shown]
    assert "maximum-weight" not in shown and "rematch" not in shown
