"""Notebook display hooks: the data classes ask here for their renderer, and the printing
layer (:data:`PRINTERS`) registers the renderers when it is imported.  The engine never
imports the printers (issue 42); a record asked to render itself before any printer is
loaded (``print(report)`` in a script that imported only the engine) has the printing layer
loaded by its name, once -- the one place the engine names it, as a plug-in.

>>> class Thing:
...     pass
>>> register(Thing, "text/plain", lambda t: "a thing")
>>> render(Thing(), "text/plain")
'a thing'
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from symbolic.errors import NoRenderer

__all__ = ["PRINTERS", "register", "render"]

PRINTERS = "derivations.printing"
"""The package of the printers, loaded by name when a renderer is first wanted."""

_RENDERERS: dict[tuple[type, str], Callable[[Any], str]] = {}


def register(cls: type, mime: str, renderer: Callable[[Any], str]) -> None:
    """Render instances of ``cls`` (and its subclasses) in format ``mime`` with ``renderer``."""
    _RENDERERS[(cls, mime)] = renderer


def render(obj: object, mime: str) -> str:
    """``obj`` rendered in format ``mime`` by the renderer registered for its class."""
    for loaded in (False, True):
        for cls in type(obj).__mro__:
            renderer = _RENDERERS.get((cls, mime))
            if renderer is not None:
                return renderer(obj)
        if not loaded:
            importlib.import_module(PRINTERS)  # registers the printers' renderers
    raise NoRenderer(f"no {mime} renderer for {type(obj).__name__}")
