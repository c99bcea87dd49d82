"""What a sampled violation that was not confirmed is: dismissed (an evaluator failure) or a
suspect point (:class:`symbolic.evidence.Unconfirmed`, worded by the printing layer)."""

from __future__ import annotations

from symbolic.evidence import Unconfirmed, dismissed

__all__ = ["Unconfirmed", "dismissed"]
