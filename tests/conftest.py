"""Fixtures shared by the tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from saves.journal import Deferred


@pytest.fixture(autouse=True)
def _private_state_dir(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """Crash reports a test provokes go to a temporary folder, never to the
    real user state directory (a test may set its own)."""
    state = tmp_path_factory.mktemp("state")
    monkeypatch.setenv("COMBAT_TRACKER_STATE", str(state))
    return state


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """Every deferred section parsed (by calling its Deferred): a test that
    something was not parsed asserts this list is empty."""
    seen: list[bytes] = []
    real = Deferred.__call__

    def counting(self: Deferred) -> Any:
        seen.append(self.raw)
        return real(self)

    monkeypatch.setattr(Deferred, "__call__", counting)
    return seen
