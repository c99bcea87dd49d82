"""General mode: a derivation over indexed families checked for every length at once
(:mod:`.mode`), its general links proved under the plan of :mod:`.plan` and its instances
at fixed lengths (:mod:`.instances`, sampled by :mod:`.sampling`) combined into each link's
verdict by :mod:`.combine`."""

from numeric_checks.general.mode import (
    check_general_claim,
    check_general_derivation,
    general_plan,
    has_families,
)

__all__ = ["check_general_claim", "check_general_derivation", "general_plan", "has_families"]
