"""The engine's words for refusals and events (games/engine/wording.py): a refusal is worded from
its code and parameters, never from its English message, and every template's slots are filled."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import engine
from games.engine import EngineError, fold, legal_actions, random_game, refusal_words, wording

NAMES = ["Ann", "Bob", "Cid", "Dee"]


def _state_before(events: list[dict], index: int):
    return fold({"variant": "nanking", "players": NAMES, "events": events[:index]})


def _refusal(state, event: dict) -> dict:
    with pytest.raises(EngineError) as err:
        state.apply(event)
    return err.value.as_dict()


def test_every_template_belongs_to_a_stable_code():
    for key in engine.REFUSAL_WORDS:
        assert key.split(":")[0] in engine.CODES, key


@pytest.mark.parametrize("lang", engine.LANGUAGES)
def test_every_code_has_a_heading_in_every_language(lang):
    """A form heads any refusal with its code in words (engine.refusal_heading): every code, not
    the code itself, and in the reader's language (only English says English)."""
    headings = {code: engine.refusal_heading(code, lang) for code in engine.CODES}
    assert all(h and "_" not in h and h[0].isupper() for h in headings.values()), headings
    english = {code: engine.refusal_heading(code) for code in engine.CODES}
    assert (headings == english) == (lang == "en")
    assert len(set(headings.values())) == len(engine.CODES)  # no two codes said alike
    assert engine.refusal_heading("result_invalid") == "Not a possible score line"


def test_the_wish_refusal_names_the_wish_from_its_parameters():
    """BOT_SEED 3's first hand: Dee leads the Mahjong wishing for an 8; Ann holds the 8 of Stars
    and the 7 of Jade. The 7 is refused with the wish's code, seat and rank."""
    events = random_game(3)["events"]
    wish_at = next(i for i, e in enumerate(events) if e.get("wish") == "8")
    state = _state_before(events, wish_at + 1)
    check = engine.check_events(state, [{"type": "play", "seat": 0, "cards": ["7j"]}])
    assert check["ok"] is False
    error = check["error"]
    assert error["code"] == "wish_not_fulfilled"
    assert error["params"] == {"seat": 0, "wish": "8", "cards": ["7j"]}
    assert refusal_words(error, NAMES) == (
        "the wish for an 8 forbids it: Ann holds an 8 and can play it (7 of Jade has none)"
    )
    # the words come from the code and parameters, not from the message
    assert refusal_words({**error, "message": "something else"}, NAMES) == refusal_words(error, NAMES)


def test_a_refusal_without_its_parameters_falls_back_to_none():
    assert refusal_words({"code": "wish_not_fulfilled", "message": "m", "params": {"seat": 1}}, NAMES) is None
    assert refusal_words({"code": "malformed", "message": "m"}, NAMES) is None


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10_000), pick=st.integers(0, 10_000))
def test_play_refusals_along_a_game_are_worded_from_their_parameters(seed, pick):
    """At a position of a bot game, every single card of every seat that the engine refuses gives
    a refusal whose template (where the code has one) is filled, in every language the engine
    speaks: no slot is left without its parameter."""
    events = random_game(seed)["events"]
    plays = [i for i, e in enumerate(events) if e["type"] in ("play", "pass")]
    index = plays[pick % len(plays)]
    state = _state_before(events, index)
    legal = {repr(a) for a in legal_actions(state, include_pushes=False)}
    hands = engine.state_json(state)["hands"]
    for seat, hand in enumerate(hands):
        for card in hand or []:
            event = {"type": "play", "seat": seat, "cards": [card]}
            check = engine.check_events(state, [event])
            if check["ok"]:
                continue
            error = check["error"]
            code, rule = error["code"], (error.get("params") or {}).get("rule")
            has_template = (f"{code}:{rule}" in engine.REFUSAL_WORDS) or code in engine.REFUSAL_WORDS
            if has_template:
                assert refusal_words(error, NAMES), (event, error, repr(event) in legal)
                for lang in engine.LANGUAGES:
                    said = refusal_words(error, NAMES, lang)
                    assert said and "{" not in said, (lang, event, error)


def test_event_words_follow_the_templates():
    assert engine.event_words({"type": "play", "seat": 3, "cards": ["Mahjong"], "wish": "8"}, NAMES) == (
        "Dee plays Mahjong (1) and wishes for an 8"
    )
    assert engine.event_words({"type": "push", "seat": 0, "cards": {"1": "Kj", "2": "8p"}}, NAMES) == (
        "Ann pushes King of Jade to Bob; 8 of Pagodas to Cid"
    )
    assert engine.event_words({"type": "penalty", "seat": 1, "reason": "missed_wish"}, NAMES) == (
        "Missed wish by Bob (penalty: the hand ends)"
    )


@pytest.mark.parametrize("lang", engine.LANGUAGES)
def test_every_template_fills_in_every_language_when_its_english_one_does(lang):
    """Each sentence and refusal template of ``lang`` takes the parameters of its English source:
    given a value for each slot of the English template, it is filled too (no slot left, none
    read from a parameter the English one does not take)."""
    sample = {
        "seat": 1,
        "expected_seat": 2,
        "to": 3,
        "winner": 0,
        "cards": ["Kj", "Phoenix"],
        "top": ["8p"],
        "card": "Ts",
        "keep": "Dragon",
        "take": "7r",
        "wish": "J",
        "phoenix": "Q",
        "combination": "full_house",
        "reason": "missed_wish",
        "event": "play",
        "phase": "exchange",
        "call": "grand_tichu",
        "hand_number": 2,
        "round": 3,
        "points": 6,
        # Tien Zi Que's (games/engine/tien_zi_que/refusals.py)
        "starts": 2,
        "given": 4,
        "expected": 5,
        "value": "7",
        "key": "cards",
        "codes": "Zz",
        "rounds": 8,
        "minimum": 2,
        "nearest_1": 18,
        "nearest_2": 20,
        "hand": ["C1w", "Jk"],
        "available": ["Ew"],
        "kept": ["C2b", "Dr"],
        "missing": ["C3k"],
        "extra": ["Nw"],
        "tzq_face": "C7",
        # every game's (games/engine/shared_refusals.py)
        "type": "'bogus'",
        "field": "seat",
        "field_type": "seat",
        "presets": "rio, tiki, abacus",
        "option": "hands",
        "multiple_of": 3,
        "choices": '"draw", "western"',
        "allowed": "seat",
        "fields": "'colour'",
        "limit": 64,
        "size": 2100,
        "index": 3,
        # the Tichu family's (games/engine/family_refusals.py)
        "code": "'Zz'",
        "count": 4,
        "dealers": "0, 1, 2",
        "high": 12,
        "low": 5,
        "last": 3,
        "out": "[0, 7]",
        "partner": 2,
        "received": 9,
        "seats": "0, 2",
        "shuffler_rule": "threechu",
        "target": "'x'",
        "targets": "1, 2",
        "teams": 2,
        "total": 120,
        "variant": "tientsin",
        "variants": "nanking, threechu",
        "hands": 4,
    }
    said = engine.words(lang)
    for table, english in ((said.events, engine.EVENT_WORDS), (said.refusals, engine.REFUSAL_WORDS)):
        for key, template in english.items():
            params = {k: sample[k] for k in wording.slots(template)}
            if "{gifts:cards}" in template:
                params["cards"] = {"0": ["Kj"], "2": ["8p"]}
            text = wording.fill(table[key], params, NAMES, lang)
            assert text is not None and "{" not in text, (lang, key, table[key])


def test_the_words_of_each_language():
    play = {"type": "play", "seat": 3, "cards": ["Mahjong"], "wish": "K", "to": 1}
    assert (
        engine.event_words(play, NAMES, lang="fr")
        == "Dee joue Moineau (1) et fait le vœu d'un Roi\u00a0; la main passe à Bob"
    )
    assert (
        engine.event_words(play, NAMES, lang="de")
        == "Dee spielt Mah Jong (1) und wünscht sich einen König; das Ausspiel geht an Bob"
    )
    assert (
        engine.event_words(play, NAMES, lang="uk") == "Dee грає: горобець (1) і замовляє короля; наступним ходить Bob"
    )
    assert engine.event_words({"type": "grand_tichu", "seat": 0}, NAMES, lang="de") == "Ann sagt Großes Tichu an"
    assert engine.card_names(["Ts", "Dragon"], "de") == "Schwert-10, Drache"
    assert engine.variant_name("threechu", "fr") == "Trichu"
    # an unknown language is English, the default
    assert engine.event_words(play, NAMES, lang="pt") == engine.event_words(play, NAMES)


#: the winds' letters on a Tien Zi Que card, East South West North, as each language abbreviates
#: them (docs/glossary.md: the French book's Est, Sud, Ouest, Nord; German Ost, Süd, West, Nord)
WIND_LETTERS = {"en": "ESWN", "fr": "ESON", "de": "OSWN", "uk": ["Сх", "Пд", "Зх", "Пн"]}


@pytest.mark.parametrize("lang", ["fr", "de", "uk"])
def test_tien_zi_ques_faces_and_combinations_have_words_in_every_language(lang):
    """What a Tien Zi Que card shows ("Drg", "TZQ", a wind's letter) and its kinds of combination
    are the engine's terms: the Dragon's face and the winds' letters are said in the language, the
    Tien Zi Que's keeps the game's initials."""
    english, said = engine.page_words("en", "tien-zi-que"), engine.page_words(lang, "tien-zi-que")
    assert english["cards"]["Dw"]["rank"] == "Drg" != said["cards"]["Dw"]["rank"]
    assert said["cards"]["Dw"]["rank"] == said["terms"]["tzq_face_short:D"]
    assert said["cards"]["Jk"]["rank"] == "TZQ"
    for language, letters in WIND_LETTERS.items():
        shown = engine.page_words(language, "tien-zi-que")["cards"]
        assert [shown[wind + "w"]["rank"] for wind in "ESWN"] == list(letters)
    assert "Ww" in said["cards"] and "Ow" not in said["cards"]  # the codes stay the record's
    for kind in ("triplet", "sequence"):
        assert english["terms"][f"tzq_combination:{kind}"] == kind != said["terms"][f"tzq_combination:{kind}"]


@pytest.mark.parametrize("lang", ["en", "fr", "de", "uk"])
def test_tien_zi_ques_scoring_lines_have_their_languages_names(lang):
    """A score pile's lines carry the French book's ``label`` (the state's JSON); their names in a
    language are the engine's ``tzq_scoring:`` terms, French the book's own, every line named."""
    from games.engine.tien_zi_que.scoring import SCORING, score_pile

    terms = engine.words(lang).terms
    names = {name: terms[f"tzq_scoring:{name}"] for name in SCORING}
    _, lines = score_pile(["Ew", "Eb", "Sw", "Dr", "Jk"], winning_draw=True)
    assert [line["label"] for line in lines] == ["Paire", "Caractères", "Pioche gagnante"]
    said = [names[line["name"]] for line in lines]
    if lang == "fr":
        assert names == {name: label for name, (_points, label) in SCORING.items()}
    else:
        assert not set(said) & {label for _points, label in SCORING.values()}
    assert len(set(names.values())) == len(SCORING)


@pytest.mark.parametrize("lang", ["fr", "de", "uk"])
@pytest.mark.parametrize("name", engine.GAME_NAMES)
def test_the_house_rules_are_worded_without_changing_what_they_are(name, lang):
    """option_words changes the words only: same options, kinds, values and defaults, in order."""
    options, said = engine.game_info(name).options, engine.option_words(name, lang)
    assert [o.name for o in said] == [o.name for o in options]
    for o, s in zip(options, said):
        assert (s.kind.name, s.kind.values, s.kind.nullable, s.defaults()) == (
            o.kind.name,
            o.kind.values,
            o.kind.nullable,
            o.defaults(),
        )
        assert s.help != o.help and s.help.endswith(".")
    assert engine.option_words(name) == options  # English: the registry's own
    assert [p.name for p in engine.preset_words(lang)] == [p.name for p in engine.PRESETS]
    assert all(s.description != p.description for s, p in zip(engine.preset_words(lang), engine.PRESETS))


def _refused(record: dict) -> dict:
    with pytest.raises(EngineError) as err:
        fold({"variant": "nanking", "players": NAMES, **record})
    return err.value.as_dict()


@pytest.mark.parametrize("lang", ["fr", "de", "uk"])
@pytest.mark.parametrize("record, rule", [
    ({"events": [{"type": "shuffle", "seat": "x"}]}, "field_type"),
    ({"events": [{"type": "undo"}]}, "nothing_to_undo"),
    ({"events": [{"type": "bogus"}]}, "unknown_type"),
    ({"options": {"hands": 0}, "events": []}, "option_int"),
    ({"options": {"pass_is_final": 1}, "events": []}, "option_bool"),
    ({"options": {"deal_method": "x"}, "events": []}, "option_choice"),
    ({"options": {"preset": "x"}, "events": []}, "unknown_preset"),
    ({"options": {"colour": 1}, "events": []}, "unknown_option"),
])  # fmt: skip
def test_the_refusals_every_game_shares_are_worded_from_their_rule(record, rule, lang):
    """The shared schema's, fold's and options' refusals (shared_refusals.py): their English message
    as it was, their words from the rule and parameters, in every language."""
    said = _refused(record)
    assert said["params"]["rule"] == rule
    english = refusal_words(said, NAMES)
    assert english  # filled: the error carries every parameter its template names
    translated = refusal_words(said, NAMES, lang)
    assert translated and translated != english


@pytest.mark.parametrize("event, rule", [(5, "not_object"), ({"type": 7}, "type_not_string")])
def test_the_folds_refusal_of_a_shapeless_event_is_worded(event, rule):
    said = _refusal(_state_before([], 0), event)
    assert said["params"] == {"rule": rule}
    assert {refusal_words(said, NAMES, lang) for lang in engine.LANGUAGES} >= {refusal_words(said, NAMES)}
    assert len({refusal_words(said, NAMES, lang) for lang in engine.LANGUAGES}) == 4
