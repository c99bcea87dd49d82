"""The symbolic stage with and without the point witness (symbolic/assumed_point.py): CPU
seconds of the tactics and rules on catalog links whose searches fail or run long, each
link proved once with the witness and once with it switched off (every cache cleared
before each, the order alternating), and whether the traces agree.  Figures only.

Run alone with ``python3 bench/symbolic_witness.py``."""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

LINKS = (
    ("numeric-sparse-privacy-approx", 0),
    ("numeric-sparse-privacy-approx", 2),
    ("kl-bound", 1),
    ("kl-bound", 5),
    ("hoeffding-lemma", 4),
    ("tradeoff-eps-delta-split", 1),
)


def main() -> None:
    import symbolic.assumed_point as assumed_point
    import symbolic.rules.bounds as bounds
    import symbolic.rules.hypotheses as hypotheses
    import symbolic.rules.prover as prover
    import symbolic.tactics as tactics
    from derivations.catalog import catalog
    from numeric_checks.general import has_families
    from numeric_checks.general.plan import general_plan
    from numeric_checks.plan import CheckOptions, make_plan
    from numeric_checks.stages import Link, prove
    from symbolic.derivation import Justification

    switches = (tactics.nonzero_somewhere, prover.negative_somewhere)

    def witness(on: bool) -> None:
        tactics.nonzero_somewhere = switches[0] if on else (lambda e: False)  # type: ignore[assignment]
        prover.negative_somewhere = switches[1] if on else (lambda e: False)  # type: ignore[assignment]

    def clear() -> None:
        from sympy.core.cache import clear_cache

        clear_cache()  # SymPy's own memo too: each run starts as cold as the other
        for f in (
            prover._assumed_sign,
            prover._forms,
            prover._expanded,
            tactics._doit_expanded,
            hypotheses._ratio,
            bounds._cancelled,
            assumed_point.enclosure_at_point,
        ):
            f.cache_clear()

    for k, (ident, index) in enumerate(LINKS):
        d = catalog()[ident]
        plan = (general_plan if has_families(d) else make_plan)(d, CheckOptions(seed=0))
        claim = (d.claim.lhs, d.claim.relation, d.claim.rhs, Justification("conclusion"))
        left, rel, right, why = [claim, *d.links()][index]
        link = Link.of(plan, index, left, rel, right, why.text, why.rules)
        seconds, traces = {}, {}
        for on in (True, False) if k % 2 == 0 else (False, True):
            witness(on)
            clear()
            cpu = time.process_time()
            traces[on] = prove(plan, link, cheap=False).trace
            seconds[on] = time.process_time() - cpu
        witness(True)
        same = "same trace" if traces[True] == traces[False] else "TRACES DIFFER"
        verdict = "proved" if traces[True] else "not proved"
        print(
            f"{ident} link {index}: {seconds[False]:.2f} s -> {seconds[True]:.2f} s "
            f"with the witness ({verdict}, {same})"
        )


if __name__ == "__main__":
    main()
