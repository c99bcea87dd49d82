"""The same claims written in LaTeX, as a user pastes them from a paper.

A claim field containing a backslash, a brace, ``^``, ``|`` or ``&`` is read by dpderive's
LaTeX reader; a claim written here in LaTeX means what its tree means (standard mathematical
reading, parenthesised wherever a reader could hesitate), so a verdict that differs from the
SymPy-syntax claim's truth is a misreading.  The spelling varies (``e^{a}`` or ``\\exp(a)``,
``\\frac`` or ``/``, ``\\cdot``, ``\\times`` or juxtaposition, ``\\left|`` or ``\\lvert``), so
the reader's alternatives are all exercised.
"""

from __future__ import annotations

from dataclasses import dataclass

from .expr import Rel, X

_ATOM, _POW, _NEG, _MUL, _ADD = 5, 4, 3, 2, 1


@dataclass(frozen=True)
class Style:
    """How to spell what LaTeX spells several ways."""

    exp: str = "e^"  # "e^", "\\exp\\left(", "\\exp("
    paren: str = "left"  # "left": \left( \right); "plain": ( )
    times: str = "\\cdot"  # "\\cdot", "\\times", " " (juxtaposition where safe)
    frac: str = "\\frac"  # "\\frac", "\\tfrac", "/"
    abs: str = "left"  # "left": \left| \right|; "bars": | |; "lvert": \lvert \rvert
    log: str = "\\ln"  # "\\ln", "\\log"
    le: str = "\\le"  # "\\le", "\\leq"

    def open(self) -> str:
        return "\\left(" if self.paren == "left" else "("

    def close(self) -> str:
        return "\\right)" if self.paren == "left" else ")"

    def group(self, text: str) -> str:
        return f"{self.open()}{text}{self.close()}"


_FUNCS = {
    "sinh": "\\sinh",
    "cosh": "\\cosh",
    "tanh": "\\tanh",
    "erf": "\\operatorname{erf}",
    "erfc": "\\operatorname{erfc}",
    "Phi": "\\Phi",
    "PhiInv": "\\Phi^{-1}",
    "gamma": "\\Gamma",
}
_NAMES = {"eps": "\\varepsilon"}


def latex_name(name: str) -> str:
    if name in _NAMES:
        return _NAMES[name]
    if len(name) > 1 and name[-1].isdigit():
        head = name.rstrip("0123456789")
        return f"{head}_{{{name[len(head) :]}}}"
    return name


def latex(x: X | Rel, s: Style) -> str:
    if isinstance(x, Rel):
        return relation(x, s)
    return _tex(x, s)[0]


def relation(r: Rel, s: Style) -> str:
    op = {"<=": s.le, ">=": s.le.replace("le", "ge"), "==": "=", "=": "="}.get(r.op, r.op)
    return f"{latex(r.lhs, s)} {op} {latex(r.rhs, s)}"


def _wrap(x: X | Rel, need: int, s: Style) -> str:
    if isinstance(x, Rel):
        return relation(x, s)
    text, prec = _tex(x, s)
    return s.group(text) if prec < need else text


def _call(name: str, arg: str, s: Style) -> str:
    return f"{name}{s.group(arg)}"


def _starts_with_digit(text: str) -> bool:
    return text[:1].isdigit() or text[:1] in "-."


def _tex(x: X, s: Style) -> tuple[str, int]:
    op, a = x.op, x.args
    if op == "var":
        return latex_name(x.name), _ATOM
    if op == "num":
        assert x.num is not None
        q = x.num
        if q.denominator == 1:
            return str(q.numerator), (_ATOM if q >= 0 else _NEG)
        body = f"{s.frac}{{{abs(q.numerator)}}}{{{q.denominator}}}"
        if s.frac == "/":
            body = f"{abs(q.numerator)}/{q.denominator}"
        return (body, _MUL) if q > 0 else ("-" + body, _NEG)
    if op == "const":
        return {"pi": "\\pi", "E": "e", "oo": "\\infty"}[x.name], _ATOM
    if op == "true":
        return "\\text{otherwise}", _ATOM
    if op == "alias":
        return _tex(a[0], s)  # type: ignore[arg-type]
    if op == "index":
        return f"{latex_name(x.name)}_{{{_tex(a[0], s)[0]}}}", _ATOM  # type: ignore[arg-type]
    if op == "add":
        parts = [_wrap(a[0], _ADD, s)]
        for t in a[1:]:
            parts.append("+ " + _wrap(t, _MUL, s))
        return " ".join(parts), _ADD
    if op == "sub":
        return f"{_wrap(a[0], _ADD, s)} - {_wrap(a[1], _MUL, s)}", _ADD
    if op == "mul":
        pieces = [_wrap(t, _POW if i else _NEG, s) for i, t in enumerate(a)]
        out = pieces[0]
        for piece in pieces[1:]:
            safe = (
                s.times == " "
                and not _starts_with_digit(piece)
                and not piece.startswith(("(", "\\left("))
                and out[-1:] not in "}"
            )
            out += (
                f" {piece}"
                if safe
                else f" {s.times if s.times != ' ' else chr(92) + 'cdot'} {piece}"
            )
        return out, _MUL
    if op == "div":
        num, den = _tex(a[0], s)[0], _tex(a[1], s)[0]  # type: ignore[arg-type]
        if s.frac == "/":
            return f"{s.group(num)}/{s.group(den)}", _MUL
        return f"{s.frac}{{{num}}}{{{den}}}", _ATOM
    if op == "neg":
        return f"-{_wrap(a[0], _MUL + 1, s)}", _NEG
    if op == "pow":
        base, expo = a
        base_text = _wrap(base, _ATOM, s)
        if (isinstance(base, X) and base.op not in ("var", "const")) or base_text.startswith("-"):
            base_text = s.group(_tex(base, s)[0])  # type: ignore[arg-type]
        return f"{{{base_text}}}^{{{_tex(expo, s)[0]}}}", _POW  # type: ignore[arg-type]
    if op == "call":
        return _call_tex(x, s)
    if op in ("sum", "prod"):
        word = "\\sum" if op == "sum" else "\\prod"
        lo, hi = (_tex(t, s)[0] for t in a[1:])  # type: ignore[arg-type]
        body = s.group(_tex(a[0], s)[0])  # type: ignore[arg-type]
        return s.group(f"{word}_{{{x.name}={lo}}}^{{{hi}}} {body}"), _ATOM
    if op == "integral":
        lo, hi = (_tex(t, s)[0] for t in a[1:])  # type: ignore[arg-type]
        body = s.group(_tex(a[0], s)[0])  # type: ignore[arg-type]
        return s.group(f"\\int_{{{lo}}}^{{{hi}}} {body} \\,d{x.name}"), _ATOM
    if op == "piecewise":
        rows = []
        for i in range(0, len(a), 2):
            cond = a[i + 1]
            cond_text = _tex(cond, s)[0] if isinstance(cond, X) else relation(cond, s)
            rows.append(f"{_tex(a[i], s)[0]} & {cond_text}")  # type: ignore[arg-type]
        return s.group("\\begin{cases} " + " \\\\ ".join(rows) + " \\end{cases}"), _ATOM
    raise ValueError(f"no LaTeX for {op}")


def _call_tex(x: X, s: Style) -> tuple[str, int]:
    name, a = x.name, x.args
    args = [_tex(t, s)[0] for t in a]  # type: ignore[arg-type]
    if name == "exp":
        if s.exp == "e^":
            return f"e^{{{args[0]}}}", _POW
        if s.exp == "\\exp(":
            return f"\\exp({args[0]})", _ATOM
        return _call("\\exp", args[0], s), _ATOM
    if name == "log":
        if len(args) == 2:
            return f"\\log_{{{args[1]}}}{s.group(args[0])}", _ATOM
        return _call(s.log, args[0], s), _ATOM
    if name == "sqrt":
        return f"\\sqrt{{{args[0]}}}", _ATOM
    if name == "Abs":
        if s.abs == "bars":
            return f"|{args[0]}|", _ATOM
        if s.abs == "lvert":
            return f"\\lvert {args[0]} \\rvert", _ATOM
        return f"\\left|{args[0]}\\right|", _ATOM
    if name in ("Max", "Min"):
        return f"\\{name.lower()}{s.group(', '.join(args))}", _ATOM
    if name == "floor":
        return f"\\lfloor {args[0]} \\rfloor", _ATOM
    if name == "ceiling":
        return f"\\lceil {args[0]} \\rceil", _ATOM
    if name == "binomial":
        return f"\\binom{{{args[0]}}}{{{args[1]}}}", _ATOM
    if name == "factorial":
        inner = a[0]
        text = args[0] if isinstance(inner, X) and inner.op == "var" else s.group(args[0])
        return f"{text}!", _POW
    if name == "expm1":
        return s.group(f"e^{{{args[0]}}} - 1"), _ATOM
    if name == "log1p":
        return _call(s.log, f"1 + {_wrap(a[0], _MUL, s)}", s), _ATOM
    if name == "loggamma":
        return _call(s.log, _call("\\Gamma", args[0], s), s), _ATOM
    if name == "beta":
        g = [_call("\\Gamma", t, s) for t in args]
        both = _call("\\Gamma", f"{_wrap(a[0], _ADD, s)} + {_wrap(a[1], _MUL, s)}", s)
        return f"\\frac{{{g[0]} {g[1]}}}{{{both}}}", _ATOM
    if name in _FUNCS:
        return _call(_FUNCS[name], args[0], s), _ATOM
    raise ValueError(f"no LaTeX for {name}")
