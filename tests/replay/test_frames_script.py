"""The replay's payload as script text (replay.frames.script) is escaped exactly as Django's public
``json_script`` filter escapes JSON (the escaping table is a private name of Django's, written out
in our module), so the text can neither close its script element nor open a comment, and it reads
back unchanged."""

from __future__ import annotations

import json

from django.core.serializers.json import DjangoJSONEncoder
from django.utils.html import json_script
from hypothesis import given
from hypothesis import strategies as st

from replay.frames import script

NASTY = ["</script><script>alert(1)</script>", "<!--", "-->", "a & b", "<>&", "\u2028\u2029", "'\""]
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text() | st.sampled_from(NASTY),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


@given(JSON)
def test_the_escaping_is_the_json_script_filters(value):
    """Same escapes as json_script (which uses its own separators and encoder: compared on its
    json.dumps), whatever the value."""
    ours = json.dumps(value, cls=DjangoJSONEncoder).translate(script.SCRIPT_ESCAPES)
    assert json_script(value, "x") == f'<script id="x" type="application/json">{ours}</script>'


@given(JSON)
def test_script_text_cannot_end_its_element_and_reads_back_unchanged(value):
    text = script.script_text(value)
    assert not {"<", ">", "&"} & set(text)
    assert json.loads(text) == value


def test_a_closing_tag_in_a_player_name_stays_inside_the_payload():
    text = script.script_text({"players": ["</script><b>x</b>"]})
    assert "</script" not in text.lower() and json.loads(text)["players"] == ["</script><b>x</b>"]
