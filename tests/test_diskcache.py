"""Tables computed once per machine (dragonlair/core/diskcache.py): kept, read back equal,
recomputed when unreadable, never in the way."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from dragonlair.core import diskcache
from dragonlair.core.diskcache import disk_cached
from dragonlair.games.farkle import policy
from dragonlair.games.farkle.policy import RecruitParams
from dragonlair.games.farkle.scoring import DEFAULT_TABLE


def counted(version: str = "v1") -> tuple[list[tuple[int, ...]], object]:
    calls: list[tuple[int, ...]] = []

    @disk_cached("test-square", version)
    def square(a: int, b: int) -> dict[str, int]:
        calls.append((a, b))
        return {"a": a * a, "b": b * b}

    return calls, square


def files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.is_file())


def test_a_table_is_computed_once_and_read_back(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DRAGONLAIR_CACHE_DIR", str(tmp_path))
    calls, square = counted()
    assert square(3, 4) == {"a": 9, "b": 16}  # type: ignore[operator]
    assert square(3, 4) == {"a": 9, "b": 16}  # type: ignore[operator]
    assert calls == [(3, 4)]
    assert len(files(tmp_path)) == 1 and not any(p.name.startswith(".tmp") for p in
                                                 files(tmp_path))
    assert square(5, 4) == {"a": 25, "b": 16}  # type: ignore[operator]
    assert calls == [(3, 4), (5, 4)]
    calls2, square2 = counted("v2")  # other code: other files
    assert square2(3, 4) == {"a": 9, "b": 16}  # type: ignore[operator]
    assert calls2 == [(3, 4)] and len(files(tmp_path)) == 3


def test_an_unreadable_file_is_computed_again_and_replaced(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DRAGONLAIR_CACHE_DIR", str(tmp_path))
    calls, square = counted()
    square(2, 2)  # type: ignore[operator]
    (kept,) = files(tmp_path)
    kept.write_bytes(kept.read_bytes()[:5])  # cut short
    assert square(2, 2) == {"a": 4, "b": 4}  # type: ignore[operator]
    assert calls == [(2, 2), (2, 2)]
    assert square(2, 2) == {"a": 4, "b": 4}  # type: ignore[operator]
    assert calls == [(2, 2), (2, 2)]  # the replaced file reads


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into a read-only directory")
def test_a_directory_that_cannot_be_written_is_no_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tmp_path.chmod(0o500)
    try:
        monkeypatch.setenv("DRAGONLAIR_CACHE_DIR", str(tmp_path / "sub"))
        calls, square = counted()
        assert square(1, 2) == {"a": 1, "b": 4}  # type: ignore[operator]
        assert square(1, 2) == {"a": 1, "b": 4}  # type: ignore[operator]
        assert calls == [(1, 2), (1, 2)]
    finally:
        tmp_path.chmod(0o700)


def test_a_file_where_the_directory_should_be_is_no_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "blocker"
    blocker.write_text("not a directory", encoding="utf-8")
    monkeypatch.setenv("DRAGONLAIR_CACHE_DIR", str(blocker))
    calls, square = counted()
    assert square(1, 2) == {"a": 1, "b": 4}  # type: ignore[operator]
    assert calls == [(1, 2)]
    assert blocker.read_text(encoding="utf-8") == "not a directory"


@pytest.mark.parametrize("value", ["off", "OFF", ""])
def test_off_keeps_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv("DRAGONLAIR_CACHE_DIR", value)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert diskcache.cache_dir() is None
    calls, square = counted()
    square(1, 1)  # type: ignore[operator]
    square(1, 1)  # type: ignore[operator]
    assert calls == [(1, 1), (1, 1)] and files(tmp_path) == []


def test_the_default_place_follows_xdg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DRAGONLAIR_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert diskcache.cache_dir() == tmp_path / "dragonlair"


def test_a_kept_farkle_programme_is_the_computed_one(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The Recruit DP read back from disk has the same values as the one computed here."""
    monkeypatch.setenv("DRAGONLAIR_CACHE_DIR", str(tmp_path))
    params = RecruitParams(event=False, tabby=False, item_worth=0)
    fresh = policy.RecruitDP(DEFAULT_TABLE, params)
    written = policy._recruit_dp.__wrapped__(DEFAULT_TABLE, params)  # computes and keeps
    read = policy._recruit_dp.__wrapped__(DEFAULT_TABLE, params)  # reads the file
    assert len(files(tmp_path)) == 1
    assert read is not written and read.V == written.V == fresh.V and read.cap == fresh.cap
    assert [read.threshold(n) for n in range(1, 7)] == [fresh.threshold(n) for n in range(1, 7)]
