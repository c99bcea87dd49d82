"""Benchmarks of dpderive; run with ``python3 bench/run.py``.  Prints figures, asserts nothing:
speed targets live here, never in unit tests (machines are shared and noisy).

1. Per-point cost of a spot check (compiled once through the bridge) against a hand-written
   mpmath function of the same step, both at 50 digits: goal <= 1.0x.
2. Cold wall time of ``dpderive check laplace-ratio`` (a fresh interpreter each run).
3. The optimal-composition oracle (Kairouz, Oh & Viswanath 2015) at k = 10 .. 10^4 at 50
   digits (goal <= 50 ms at 10^4) and its agreement in digits with an independent slow
   evaluation (per-term binomials at 2x the digits).
5. Certification (Arb, python-flint): per-box cost of branch-and-bound, plain (1-D) and
   with the mean-value form (2-D) (goals <= 15 us and <= 100 us); boxes and seconds per
   certified catalog step; the Arb point path against hand-written mpmath (goal <= 0.3x).
4. NumericSparse simulation throughput (runs per second at k = 1000) and the number of runs
   for which the Clopper-Pearson interval around a failure rate of 0.05 is +-0.005.
6. The mu-GDP privacy profile delta(eps) (Dong, Roth & Su Corollary 2.13): time per point
   and correct digits, ours at 50 digits (mpmath) and on Arb balls, against dp_accounting's
   analytic Gaussian delta (doubles) in the same run; the reference is the closed form at
   120 digits.  Goal: >= 3x the digits at <= 1x the time.  dp_accounting is optional
   (``pip install dp-accounting``); without it the section says so.
7. Claims typed from books with sums and integrals (``bench/claims.py``), the catalog cold
   with its table per derivation and each headline theorem cold (``bench/catalog.py``);
   the hardest certification steps (``bench/certifier.py``).
8. Inequalities users bring (``bench/user_steps.py``): verdict counts and the median time of
   a proved claim (goal < 1 s).
"""

from __future__ import annotations

import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

import mpmath

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from derivations.advanced_composition import advanced_eps  # noqa: E402
from derivations.catalog import get  # noqa: E402
from derivations.numeric_sparse import alpha_seed  # noqa: E402
from numeric_checks import CheckOptions  # noqa: E402
from numeric_checks.arb import compile_arb, precision  # noqa: E402
from numeric_checks.bridge import compile_exprs, evaluate, evaluate_many  # noqa: E402
from numeric_checks.certify import Box, certify  # noqa: E402
from numeric_checks.dp.composition import optimal_delta, optimal_delta_slow  # noqa: E402
from numeric_checks.dp.sparse import SparseParams, simulate, streams  # noqa: E402
from numeric_checks.dp.stats import clopper_pearson  # noqa: E402
from numeric_checks.plan import make_plan  # noqa: E402
from symbolic.evidence import words  # noqa: E402

DPS = 50
N = 2000


def _points(n: int) -> list[tuple[mpmath.mpf, ...]]:
    rng = random.Random(1)
    with mpmath.workdps(DPS):
        out = []
        for _ in range(n):
            eps, delta = mpmath.mpf(rng.uniform(0.01, 5)), mpmath.mpf(rng.uniform(0.1, 10))
            fx = mpmath.mpf(rng.uniform(-10, 10))
            fy = fx + delta * mpmath.mpf(rng.uniform(-1, 1))
            out.append((eps, delta, mpmath.mpf(rng.uniform(-20, 20)), fx, fy))
        return out


def hand_written(eps, delta, z, fx, fy):  # type: ignore[no-untyped-def]
    """Step 4 of laplace-ratio written directly in mpmath: both sides."""
    b = delta / eps
    return [mpmath.exp((abs(z - fy) - abs(z - fx)) / b), mpmath.exp(abs(fx - fy) / b)]


def per_point_cost() -> None:
    d = get("laplace-ratio")
    plan = make_plan(d, CheckOptions(points=10))
    left, _rel, right, _ = d.links()[3]
    lhs, rhs = plan.prepare(left), plan.prepare(right)
    fn = compile_exprs(plan.symbols, [lhs, rhs])
    points = _points(N)

    def batch() -> None:  # the spot check's first pass over all points
        evaluate_many(fn, points, DPS)

    def single() -> None:  # one point at a time (escalations, local search)
        for p in points:
            evaluate(fn, p, DPS)

    def hand() -> None:
        with mpmath.workdps(DPS):
            for p in points:
                hand_written(*p)

    for f in (batch, single, hand):  # warm up
        f()
    t_batch = min(_timed(batch) for _ in range(5)) / N
    t_single = min(_timed(single) for _ in range(5)) / N
    t_hand = min(_timed(hand) for _ in range(5)) / N
    print(f"spot check, step 4 of laplace-ratio at {DPS} digits, {N} points (best of 5):")
    print(f"  bridge, batched first pass:  {t_batch * 1e6:8.2f} us/point")
    print(f"  bridge, one point per call:  {t_single * 1e6:8.2f} us/point")
    print(f"  hand-written mpmath:         {t_hand * 1e6:8.2f} us/point")
    print(f"  ratio batched/hand:          {t_batch / t_hand:8.2f}x   (goal <= 1.0x)")
    print(f"  ratio single/hand:           {t_single / t_hand:8.2f}x")


def cold_check() -> None:
    times = []
    for _ in range(3):
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "derivations", "check", "laplace-ratio"],
            cwd=ROOT,
            check=True,
            capture_output=True,
        )
        times.append(time.perf_counter() - start)
    print("cold `dpderive check laplace-ratio` (fresh interpreter, 3 runs):")
    print(f"  min {min(times):.2f} s, median {statistics.median(times):.2f} s")


def cold_verify() -> None:
    """A user's 5-line proof (4 steps and the conclusion), cold: the aim is under 3 s."""
    proof = ROOT / "docs" / "examples" / "laplace_ratio.toml"
    times = []
    for _ in range(3):
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "derivations", "verify", str(proof)],
            cwd=ROOT,
            check=True,
            capture_output=True,
        )
        times.append(time.perf_counter() - start)
    print("cold `dpderive verify docs/examples/laplace_ratio.toml` (fresh interpreter, 3 runs):")
    print(f"  min {min(times):.2f} s, median {statistics.median(times):.2f} s")


def _timed(f) -> float:  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    f()
    return time.perf_counter() - start


def optimal_composition() -> None:
    print(
        "optimal composition delta(eps') at 50 digits, eps = 0.1, delta = 1e-6, "
        "eps' from Theorem 3.20 with delta' = 1e-5 (best of 5):"
    )
    with mpmath.workdps(DPS):
        eps, delta = mpmath.mpf("0.1"), mpmath.mpf("1e-6")
        for k in (10, 100, 1000, 10_000):
            eps_p = advanced_eps(k, eps, "1e-5")
            best = min(
                _timed(lambda k=k, e=eps_p: optimal_delta(k, eps, delta, e)) for _ in range(5)
            )
            fast = optimal_delta(k, eps, delta, eps_p)
            with mpmath.workdps(2 * DPS):
                slow = optimal_delta_slow(k, eps, delta, eps_p)
            digits = -mpmath.log10(abs(fast - slow) / slow) if fast != slow else mpmath.inf
            print(
                f"  k = {k:>6}: {best * 1e3:8.2f} ms   delta = {mpmath.nstr(fast, 12):>18}"
                f"   agrees with the slow sum to {mpmath.nstr(digits, 3)} digits"
            )


def sparse_simulation() -> None:
    print("NumericSparse simulation, k = 1000 queries (best of 3):")
    for eps, delta, c in ((1, 0, 5), (1, 0, 50), (1, "1e-6", 5)):
        p = SparseParams.make(eps, delta, c, 1000)
        alpha = float(alpha_seed(p, "0.05"))
        for s in streams(p, alpha, "last")[:2]:
            runs = 20_000
            best = min(
                _timed(lambda p=p, s=s, a=alpha, n=runs: simulate(p, s.values, a, n, seed=1))
                for _ in range(3)
            )
            print(
                f"  eps={eps} delta={delta} c={c:>2} stream {s.name:<10}: "
                f"{runs / best:9.0f} runs/s ({best:.2f} s for {runs} runs)"
            )
    print("runs for a Clopper-Pearson interval of +-0.005 around an observed rate of 0.05:")
    for confidence in (0.95, 0.99, 0.999):
        lo, hi = 1000, 200_000
        while hi - lo > 10:  # the half-width shrinks monotonically in the runs
            mid = (lo + hi) // 2
            a, b = clopper_pearson(round(0.05 * mid), mid, confidence)
            lo, hi = (mid, hi) if max(0.05 - a, b - 0.05) > 0.005 else (lo, mid)
        print(f"  at {confidence:.1%} confidence: {hi} runs")


def certification() -> None:
    import sympy as sp
    from flint import arb

    x, y = sp.Symbol("x", positive=True), sp.Symbol("y", positive=True)
    one = Box(("x",), (0.1,), (3.0,))
    cases = [
        ("1-D plain, exp(x) - 1 - x - x^2/2 >= 0", sp.exp(x) - 1 - x - x**2 / 2, [x], one, False),
        (
            "2-D mean-value, x (e^y - 1) - x tanh(y/2) >= 0",
            x * (sp.exp(y) - 1) - x * sp.tanh(y / 2),
            [x, y],
            Box(("x", "y"), (0.1, 1e-3), (2.0, 3.0)),
            True,
        ),
    ]
    print("certification, branch-and-bound on Arb balls (64 bits, best of 5):")
    for name, residual, syms, box, mv in cases:
        best, cert = None, None
        for _ in range(5):
            start = time.perf_counter()
            cert = certify(residual, False, syms, box, mean_value=mv, max_boxes=10**6)
            t = time.perf_counter() - start
            best = t if best is None else min(best, t)
        assert cert is not None and best is not None
        per_box = best * 1e6 / cert.boxes
        print(f"  {name}: {cert.status.value}, {cert.boxes} boxes, {per_box:6.1f} us/box")
    print("certified catalog steps (boxes, seconds):")
    for did in ("numeric-sparse-privacy-approx", "kl-tight-below-seed"):
        d = get(did)
        plan = make_plan(d, CheckOptions(points=5))
        for i, (left, rel, right, _) in enumerate(d.links(), start=1):
            if rel.value == "=":
                continue
            lhs, rhs = plan.prepare(left), plan.prepare(right)
            cert = certify(rhs - lhs, rel.strict, plan.symbols, plan.box)
            print(f"  {did} step {i}: {words(cert)}")
    # The Arb point path: both sides of laplace-ratio step 4 at ~50 digits (170 bits).
    d = get("laplace-ratio")
    plan = make_plan(d, CheckOptions(points=10))
    left, _rel, right, _ = d.links()[3]
    fn = compile_arb(plan.symbols, [plan.prepare(left), plan.prepare(right)])
    points = _points(N)
    with precision(170):
        balls = [[arb(str(v)) for v in p] for p in points]

        def arb_path() -> None:
            for p in balls:
                fn(*p)

        arb_path()
        t_arb = min(_timed(arb_path) for _ in range(5)) / N

    def hand() -> None:
        with mpmath.workdps(DPS):
            for p in points:
                hand_written(*p)

    t_hand = min(_timed(hand) for _ in range(5)) / N
    print(f"Arb point path, step 4 of laplace-ratio at 170 bits, {N} points (best of 5):")
    print(f"  Arb (rigorous balls):        {t_arb * 1e6:8.2f} us/point")
    print(f"  hand-written mpmath:         {t_hand * 1e6:8.2f} us/point")
    print(f"  ratio Arb/hand:              {t_arb / t_hand:8.2f}x   (goal <= 0.3x)")


GDP_POINTS = [
    (mu, eps) for mu in ("0.05", "0.3", "1", "3", "10") for eps in ("0", "0.5", "1", "2", "5", "10")
]


def _digits(got: object, ref: object) -> float:
    """Correct significant digits of ``got`` against ``ref`` (0 when ``ref`` is not 0 but
    ``got`` is), capped at 60."""
    with mpmath.workdps(130):
        if ref == 0:
            return 0.0
        err = abs(mpmath.mpf(got) - ref) / abs(ref)
        return 60.0 if err == 0 else min(max(float(-mpmath.log10(err)), 0.0), 60.0)


def gdp_profile() -> None:
    from numeric_checks.dp.gaussian import profile_ball, profile_closed_form

    with mpmath.workdps(120):
        refs = [profile_closed_form(m, e) for m, e in GDP_POINTS]

    def ours() -> list[object]:
        # 20 guard digits, as the catalog's oracle uses: Phi(a) - e^eps Phi(b) cancels
        # when mu is small (16 digits survive at mu = 0.05, eps = 10 without them).
        with mpmath.workdps(DPS + 20):
            return [+profile_closed_form(m, e) for m, e in GDP_POINTS]

    def arb_profile() -> list[object]:
        return [profile_ball(m, e) for m, e in GDP_POINTS]

    n = len(GDP_POINTS)
    t_ours = min(_timed(ours) for _ in range(5)) / n
    t_arb = min(_timed(arb_profile) for _ in range(5)) / n
    got = ours()
    d_ours = min(_digits(g, r) for g, r in zip(got, refs, strict=True))
    balls = arb_profile()
    with mpmath.workdps(120):
        d_arb = min(
            _digits(mpmath.mpf(b.mid().str(60, radius=False)), r)
            for b, r in zip(balls, refs, strict=True)
        )
        # what the balls themselves guarantee (radius/|midpoint|)
        g_arb = min(
            float(-mpmath.log10(mpmath.mpf(b.rad().str(5, radius=False)) / abs(r)))
            for b, r in zip(balls, refs, strict=True)
        )
    print(f"mu-GDP profile delta(eps), {n} points (mu 0.05..10, eps 0..10), best of 5:")
    print(
        f"  ours, mpmath at {DPS}+20 digits: {t_ours * 1e6:8.1f} us/point, >= {d_ours:.0f} digits"
    )
    print(
        f"  ours, Arb balls at 180 bits:   {t_arb * 1e6:8.1f} us/point, >= {d_arb:.0f} digits "
        f"(the balls guarantee >= {g_arb:.0f})"
    )
    try:
        from dp_accounting.pld import privacy_loss_mechanism as plm
    except ImportError:
        print("  dp_accounting: not installed (pip install dp-accounting to compare)")
        return
    losses = [
        plm.GaussianPrivacyLoss(standard_deviation=1 / float(m), sensitivity=1.0)
        for m, _ in GDP_POINTS
    ]

    def theirs() -> list[float]:
        return [
            loss.get_delta_for_epsilon(float(e))
            for loss, (_, e) in zip(losses, GDP_POINTS, strict=True)
        ]

    t_theirs = min(_timed(theirs) for _ in range(5)) / n
    digits = [_digits(mpmath.mpf(g), r) for g, r in zip(theirs(), refs, strict=True)]
    zero = sum(1 for g in theirs() if g == 0)
    print(
        f"  dp_accounting (doubles):       {t_theirs * 1e6:8.1f} us/point, "
        f">= {min(digits):.0f} digits (median {statistics.median(digits):.1f}; "
        f"{zero} points returned 0)"
    )
    print(
        f"  ratio of digits (ours/theirs, median): {d_ours / statistics.median(digits):.1f}x; "
        f"time ratio ours/theirs: {t_ours / t_theirs:.2f}x (Arb {t_arb / t_theirs:.2f}x)"
    )
    with mpmath.workdps(60):
        tiny = profile_closed_form("0.05", 2)
    their_tiny = plm.GaussianPrivacyLoss(standard_deviation=20.0, sensitivity=1.0)
    print(
        f"  mu = 0.05, eps = 2: ours {mpmath.nstr(tiny, 8)}, dp_accounting "
        f"{their_tiny.get_delta_for_epsilon(2.0)}"
    )


if __name__ == "__main__":
    per_point_cost()
    cold_check()
    cold_verify()
    optimal_composition()
    sparse_simulation()
    certification()
    __import__("bench.certifier").certifier.run()  # issue 16: hardest steps, before/after
    gdp_profile()
    __import__("bench.claims").claims.run()  # issue 17: claims with sums and integrals
    __import__("bench.catalog").catalog.run()  # issue 17: the catalog cold, per derivation
    __import__("bench.user_steps").user_steps.run()  # issue 26: users' inequalities
