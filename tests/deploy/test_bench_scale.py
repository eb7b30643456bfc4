"""bench/scale.py's arithmetic (the run itself needs PostgreSQL and minutes: `make bench`): the
archive's shape at each size, the extrapolation to 10^7 events and the plot."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from hypothesis import given
from hypothesis import strategies as st

from bench import scale


def test_the_archive_grows_from_10_to_1000_clubs_and_100_to_100000_players():
    assert scale.shape(10**4) == (10, 100)
    assert scale.shape(10**7) == (1000, 100_000)
    clubs, players = zip(*(scale.shape(10**p) for p in range(4, 8)))
    assert list(clubs) == sorted(clubs) and list(players) == sorted(players)


@given(st.floats(0.0, 1.0), st.floats(0.5, 3.0))
def test_a_power_law_is_extrapolated_as_itself(b, first):
    points = [(10**p, first * (10**p / 10**4) ** b) for p in (4, 5, 6)]
    assert abs(scale.growth_exponent(points) - b) < 1e-6
    assert abs(scale.extrapolate(points, 10**7) - first * 1000**b) < 1e-6 * first * 1000**b


def test_a_read_getting_cheaper_is_not_extrapolated_below_its_last_measure():
    points = [(10**4, 1.0), (10**5, 0.8), (10**6, 0.7)]
    assert scale.growth_exponent(points) == 0.0
    assert scale.extrapolate(points, 10**7) == 0.7


def test_the_plot_is_svg_with_every_measure_and_the_target():
    sizes = [
        {"events": 10**p, "ratio": {name: 1.0 + 0.1 * i * (p - 4) for i, name in enumerate(scale.MEASURES)}}
        for p in (4, 5, 6)
    ]
    figures = {"sizes": sizes, "extrapolated": {name: 1.2 for name in scale.MEASURES}}
    root = ET.fromstring(scale.svg(figures))
    texts = {t.text for t in root.iter("{http://www.w3.org/2000/svg}text")}
    assert set(scale.MEASURES) <= texts
    assert "target 1.5" in texts
