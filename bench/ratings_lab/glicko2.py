"""Glicko-2 for one player and one rating period, as in Glickman's "Example of the Glicko-2
system" (2013 revision, steps 1-8), with the Illinois iteration for the volatility.

Why our own module: the PyPI `glicko2` package's volatility step deviates from the paper (the
research guide, section 1.2/3.4), and no maintained package fits. This one is checked against
the paper's worked example (tests/ratings/test_glicko2.py).

Glicko-2 is not a team system; bench.ratings_lab.baselines.TeamGlicko2 uses it with a composite
opponent (the opposing side's mean rating and root-mean-square deviation), the usual workaround.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

SCALE = 173.7178  # Glicko-2's conversion between the Glicko scale and the internal one
EPSILON = 1e-6


@dataclass(frozen=True)
class Glicko2Rating:
    rating: float = 1500.0
    rd: float = 350.0
    vol: float = 0.06

    @property
    def mu(self) -> float:
        return (self.rating - 1500.0) / SCALE

    @property
    def phi(self) -> float:
        return self.rd / SCALE


def g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def expected(mu: float, mu_j: float, phi_j: float) -> float:
    """E(mu, mu_j, phi_j): the chance of beating opponent j (step 3)."""
    return 1.0 / (1.0 + math.exp(-g(phi_j) * (mu - mu_j)))


def _new_volatility(phi: float, vol: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the Illinois (regula falsi) iteration on f(x) = 0, x = ln(sigma'^2)."""
    a = math.log(vol * vol)
    d2, p2 = delta * delta, phi * phi

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (d2 - p2 - v - ex) / (2.0 * (p2 + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if d2 > p2 + v:
        big_b = math.log(d2 - p2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(c)
        if f_c * f_b <= 0:  # the paper's condition (<=, as online-go/goratings #11 found)
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = c, f_c
    return math.exp(big_a / 2.0)


def rate(player: Glicko2Rating, results: Sequence[tuple[Glicko2Rating, float]], tau: float = 0.5) -> Glicko2Rating:
    """The player's rating after one rating period with `results` = [(opponent, score)], score
    1 win, 0.5 draw, 0 loss. No games: only the deviation grows (step 6 with sigma unchanged)."""
    mu, phi, vol = player.mu, player.phi, player.vol
    if not results:
        return Glicko2Rating(player.rating, SCALE * math.sqrt(phi * phi + vol * vol), vol)
    inv_v = 0.0
    total = 0.0
    for opp, s in results:
        gj = g(opp.phi)
        e = expected(mu, opp.mu, opp.phi)
        inv_v += gj * gj * e * (1.0 - e)
        total += gj * (s - e)
    v = 1.0 / inv_v
    delta = v * total
    new_vol = _new_volatility(phi, vol, v, delta, tau)
    phi_star = math.sqrt(phi * phi + new_vol * new_vol)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * total
    return Glicko2Rating(1500.0 + SCALE * new_mu, SCALE * new_phi, new_vol)
