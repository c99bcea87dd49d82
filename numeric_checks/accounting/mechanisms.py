"""The mechanisms of ``dpderive account`` as frozen data: a kind and its parameters, an
optional Poisson sampling rate, and a composition of rounds (a mechanism run ``steps``
times).

Parameters are kept as the decimal text the user typed (``"1.1"``), so that Arb reads them
exactly as typed (a binary float would be a different number), and as floats for the
non-rigorous searches that only choose where to evaluate.
"""

from __future__ import annotations

from dataclasses import dataclass

from flint import arb

KINDS = ("gaussian", "laplace", "randomized_response")
"""The mechanism kinds: Gaussian noise N(0, sigma^2) on a query of L2 sensitivity Delta;
Laplace noise Lap(scale) on a query of L1 sensitivity Delta; binary randomized response
reporting the true bit with probability e^eps0/(1 + e^eps0)."""

MAX_STEPS = 100_000
"""The most steps a composition may have: the optimal composition of pure DP sums over
every step count, and the lattice of the lower bounds grows with the steps."""


@dataclass(frozen=True)
class Mechanism:
    """One mechanism: ``kind`` with its parameters as exact decimal strings; ``q`` the
    Poisson sampling rate ("1" for none)."""

    kind: str
    sigma: str = ""
    scale: str = ""
    sensitivity: str = "1"
    eps0: str = ""
    q: str = "1"

    @property
    def sampled(self) -> bool:
        return arb(self.q) < 1

    @property
    def pure(self) -> bool:
        """Whether the mechanism is eps0-DP with delta = 0 (Laplace, randomized response)."""
        return self.kind in ("laplace", "randomized_response")

    def pure_eps(self) -> arb:
        """eps0 of a pure mechanism as a ball: Delta/b for Laplace (Dwork & Roth 2014,
        Theorem 3.6), eps0 for randomized response."""
        if self.kind == "laplace":
            return arb(self.sensitivity) / arb(self.scale)
        if self.kind == "randomized_response":
            return arb(self.eps0)
        raise ValueError(f"{self.kind} is not a pure DP mechanism")

    def mu(self) -> arb:
        """Delta/sigma of a Gaussian round: it is exactly (Delta/sigma)-GDP (Dong, Roth & Su
        2022, Theorem 2.7)."""
        if self.kind != "gaussian":
            raise ValueError(f"{self.kind} is not a Gaussian mechanism")
        return arb(self.sensitivity) / arb(self.sigma)

    def describe(self) -> str:
        if self.kind == "gaussian":
            text = f"Gaussian sigma={self.sigma}, sensitivity={self.sensitivity}"
        elif self.kind == "laplace":
            text = f"Laplace scale={self.scale}, sensitivity={self.sensitivity}"
        else:
            text = f"randomized response eps0={self.eps0}"
        return text + (f", Poisson sampling q={self.q}" if self.sampled else "")


@dataclass(frozen=True)
class Round:
    """A mechanism run ``steps`` times."""

    mechanism: Mechanism
    steps: int


@dataclass(frozen=True)
class Composition:
    """The adaptive composition of the rounds, in order (the order does not change the
    privacy profile of a product of pairs)."""

    rounds: tuple[Round, ...]

    @property
    def steps(self) -> int:
        return sum(r.steps for r in self.rounds)

    @property
    def kinds(self) -> frozenset[str]:
        return frozenset(r.mechanism.kind for r in self.rounds)

    @property
    def all_gaussian_unsampled(self) -> bool:
        return all(r.mechanism.kind == "gaussian" and not r.mechanism.sampled for r in self.rounds)

    @property
    def all_pure_unsampled(self) -> bool:
        return all(r.mechanism.pure and not r.mechanism.sampled for r in self.rounds)

    @property
    def any_sampled(self) -> bool:
        return any(r.mechanism.sampled for r in self.rounds)

    def gdp_mu(self) -> arb:
        """mu of the composition of Gaussian rounds: sqrt(sum steps (Delta/sigma)^2)
        (Dong, Roth & Su 2022, Corollary 3.3)."""
        total = arb(0)
        for r in self.rounds:
            total += r.steps * r.mechanism.mu() ** 2
        return total.sqrt()

    def describe(self) -> str:
        return "; ".join(f"{r.steps} x {r.mechanism.describe()}" for r in self.rounds)
