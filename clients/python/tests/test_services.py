"""The one rule of which service a method goes to and which services answer it, as the client, the fake and the
generated typed calls follow it."""

from __future__ import annotations

from tally import models
from tally._services import answers, default_service, is_system


def test_a_domain_method_goes_to_its_areas_service_and_a_system_method_to_history() -> None:
    assert default_service("history.month") == "tally.history"
    assert default_service("workout.day") == "tally.workout"
    assert default_service("sleep.night") == "tally.sleep"  # a method this client does not know: still its area's
    assert default_service("system.ping") == "tally.history"
    assert is_system("system.describe") and not is_system("streak.summary") and not is_system("systems.ping")


def test_a_system_method_is_answered_on_every_service_and_a_domain_method_on_its_own() -> None:
    assert answers("tally.streak", "system.ping") and answers("tally.custom", "system.describe")
    assert answers("tally.streak", "streak.summary")
    assert not answers("tally.history", "streak.summary")


def test_the_generated_method_table_follows_the_rule() -> None:
    assert models.METHODS, "the models list the methods"
    for name, spec in models.METHODS.items():
        assert spec.service == default_service(name), name
