"""Which MDP service a method goes to, and which services answer it: the one rule, which the client and the fake
follow and the models' generator (``tools/generate_models.py``) writes into ``METHODS`` and the typed calls.
Standard library only, so that the generator can read it without the package."""

from __future__ import annotations

SYSTEM_AREA = "system"
"""The area of the methods every service answers (``system.ping``, ``system.describe``)."""


def is_system(method: str) -> bool:
    """Whether ``method`` is one that every service answers."""
    return method.split(".", 1)[0] == SYSTEM_AREA


def area_service(method: str) -> str:
    """The service of ``method``'s area, ``tally.<area>``: the one that serves a method of the domain."""
    return f"tally.{method.split('.', 1)[0]}"


def answers(service: str, method: str) -> bool:
    """Whether ``service`` answers ``method``: a system method on every service, any other on its area's."""
    return is_system(method) or area_service(method) == service


def default_service(method: str) -> str:
    """The service a request for ``method`` goes to unless the caller names one: its area's; a system method,
    which every service answers, goes to ``tally.history``, which every worker serves by default."""
    return "tally.history" if is_system(method) else area_service(method)
