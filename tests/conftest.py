"""Fixtures shared by the save-format tests."""

from __future__ import annotations

from typing import Any

import pytest

from saves.journal import Deferred


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
