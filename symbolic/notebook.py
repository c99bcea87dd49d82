"""Notebook display hooks: the data classes ask here for their renderer, and
:mod:`symbolic.printing` registers the renderers when it is imported (``import symbolic``
does).  Data modules therefore never import the printers, and the import graph has no
cycle.

>>> class Thing:
...     pass
>>> register(Thing, "text/plain", lambda t: "a thing")
>>> render(Thing(), "text/plain")
'a thing'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from symbolic.errors import NoRenderer

__all__ = ["register", "render"]

_RENDERERS: dict[tuple[type, str], Callable[[Any], str]] = {}


def register(cls: type, mime: str, renderer: Callable[[Any], str]) -> None:
    """Render instances of ``cls`` (and its subclasses) in format ``mime`` with ``renderer``."""
    _RENDERERS[(cls, mime)] = renderer


def render(obj: object, mime: str) -> str:
    """``obj`` rendered in format ``mime`` by the renderer registered for its class."""
    for cls in type(obj).__mro__:
        renderer = _RENDERERS.get((cls, mime))
        if renderer is not None:
            return renderer(obj)
    raise NoRenderer(f"no {mime} renderer for {type(obj).__name__}; import symbolic.printing")
