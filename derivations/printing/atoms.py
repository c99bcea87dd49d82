"""z3's abstraction atoms put back as what they stand for, for readers.

The decision procedure replaces each transcendental subterm by a fresh variable (``_exp0``
for ``exp(eps)``, ``_recip2`` for ``1/(x + 1)``) and its evidence names them ("... _exp0*_min2
- _min1 >= 0; ... abstracting _exp0 = exp(eps), _min1 = Min(p, q*exp(eps))").  Those names are
the engine's, not the reader's: the book and the site printed them (issue 43).  Here each
atom is replaced by its definition, and the clause that defined them says which terms were
treated as variables.  The engine's evidence (and its JSON) keeps the atoms.

>>> readable_atoms("no enclosure for PhiInv in PhiInv(_t8)")
'no enclosure for PhiInv in PhiInv(t)'
>>> readable_atoms("z3: _exp0*_min2 - _min1 >= 0; abstracting _exp0 = exp(eps), "
...                "_min1 = Min(p, q), _min2 = p; with facts")
'z3: exp(eps)*p - Min(p, q) >= 0; treating exp(eps), Min(p, q), p as variables; with facts'
"""

from __future__ import annotations

import re

__all__ = ["readable_atoms"]

_ATOM = r"_[a-z]+-?\d+(?:_\d+)?"
"""``_exp0``, ``_recip2``, ``_pow1_20`` (sqrt), ``_pow-1_26`` (1/sqrt), ``_t8``."""
_CLAUSE = re.compile(rf"abstracting ((?:{_ATOM} = .*?)(?=; |$))")
_DEFINITION = re.compile(rf"({_ATOM}) = (.*?)(?=, {_ATOM} = |$)")


def _plain(value: str) -> bool:
    """A name, a number or one function call: no brackets needed around it."""
    m = re.fullmatch(r"[\w.]+(\(.*\))?", value)
    if m is None:
        return False
    depth = 0
    for i, c in enumerate(value):
        depth += (c == "(") - (c == ")")
        if depth == 0 and c == ")" and i != len(value) - 1:
            return False  # f(a)*g(b): two calls
    return True


def readable_atoms(text: str) -> str:
    """``text`` with every abstraction atom it defines replaced by its definition (in
    brackets where the definition is a sum or product and stands inside a larger term)."""
    # A bound variable renamed by the engine (PhiInv(_t8) of a quadrature) reads as its
    # letter: it is bound, so its name is the reader's choice.
    text = re.sub(r"(?<![\w])_([a-z])\d+(?![\w-])", r"\1", text)
    m = _CLAUSE.search(text)
    if m is None:
        return text
    definitions = dict(_DEFINITION.findall(m.group(1)))
    if not definitions:
        return text
    terms = ", ".join(definitions.values())
    text = text[: m.start()] + f"treating {terms} as variables" + text[m.end() :]

    def put_back(atom: re.Match[str]) -> str:
        value = definitions.get(atom.group(0))
        if value is None:
            return atom.group(0)
        return value if _plain(value) else f"({value})"

    return re.sub(rf"(?<![\w]){_ATOM}(?![\w-])", put_back, text)
