"""``dpderive account``'s mathematics that rests on the catalog: the upper bounds evaluated
from catalog derivations' own formulas (GDP composition and conversion, basic and advanced
composition), the catalog's standing of each theorem used, and the three-valued verdict
that puts them beside the rigorous lower bounds of :mod:`numeric_checks.accounting`."""

__all__: list[str] = []
