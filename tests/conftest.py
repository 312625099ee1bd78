"""Fixtures shared by the tests."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _private_state_dir(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """Crash reports a test provokes go to a temporary folder, never to the
    real user state directory (a test may set its own)."""
    state = tmp_path_factory.mktemp("state")
    monkeypatch.setenv("COMBAT_TRACKER_STATE", str(state))
    return state
