"""``combat-tracker roll`` through the real console entry (RULES.md §1–§3)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tracker.cli import main

ROOT = Path(__file__).resolve().parents[2]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        status = main(list(argv))
    except SystemExit as exc:  # argparse errors exit 2
        status = int(exc.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    status, out, err = run(capsys, "roll", *argv, "--json")
    assert (status, err) == (0, "")
    record = json.loads(out)
    assert isinstance(record, dict)
    return record


def test_json_has_every_field(capsys: pytest.CaptureFixture[str]) -> None:
    record = run_json(capsys, "2d20kh1+5", "--seed", "3")
    assert set(record) >= {"expression", "total", "dice", "natural", "modifier", "degree"}
    assert record["expression"] == "2d20kh1+5"
    assert record["modifier"] == 5
    assert record["degree"] is None
    assert len(record["dice"]) == 2
    assert all(set(d) == {"sides", "value", "kept"} for d in record["dice"])
    kept = [d["value"] for d in record["dice"] if d["kept"]]
    assert kept == [max(d["value"] for d in record["dice"])]
    assert record["natural"] == kept[0]
    assert record["total"] == kept[0] + 5


def test_no_d20_means_natural_null(capsys: pytest.CaptureFixture[str]) -> None:
    record = run_json(capsys, "2d6+3", "--seed", "1")
    assert record["natural"] is None
    assert record["modifier"] == 3
    assert 5 <= record["total"] <= 15


def test_advantage_dice_and_alternate_bonus_in_json(capsys: pytest.CaptureFixture[str]) -> None:
    # §2 alternate (core): 2nd advantage → 2d20 keep highest, +2 in modifier.
    record = run_json(capsys, "1d20+5", "--adv", "2", "--seed", "8")
    assert [d["sides"] for d in record["dice"]] == [20, 20]
    assert record["modifier"] == 7
    assert record["total"] == record["natural"] + 7
    forge = run_json(capsys, "1d20+5", "--adv", "2", "--ruleset", "forge", "--seed", "8")
    assert len(forge["dice"]) == 3 and forge["modifier"] == 5


def test_dc_and_named_dl_give_a_degree(capsys: pytest.CaptureFixture[str]) -> None:
    # §3: degree of success against a DC or a named Difficulty Level.
    labels = {"critical success", "success", "failure", "critical failure"}
    for seed in range(5):
        record = run_json(capsys, "1d20+4", "--dc", "15", "--seed", str(seed))
        assert record["degree"] in labels
        by_name = run_json(capsys, "1d20+4", "--dl", "challenging", "--seed", str(seed))
        assert by_name["degree"] == record["degree"]  # Challenging is DL 15


def test_degree_matches_the_rules(capsys: pytest.CaptureFixture[str]) -> None:
    from rules.checks import apply_natural, degree_of

    for seed in range(20):
        record = run_json(capsys, "1d20+2", "--dc", "12", "--seed", str(seed))
        expected = apply_natural(degree_of(record["total"], 12), record["natural"], "step")
        assert record["degree"] == expected.label


def test_flat_check_needs_no_expression(capsys: pytest.CaptureFixture[str]) -> None:
    # §3 flat check: a bare d20, success when the face ≥ DC.
    record = run_json(capsys, "--flat", "11", "--seed", "2")
    assert record["modifier"] == 0
    assert record["dice"] == [{"sides": 20, "value": record["total"], "kept": True}]
    assert record["degree"] == ("success" if record["total"] >= 11 else "failure")
    status, out, _ = run(capsys, "roll", "--flat", "11", "--seed", "2")
    assert status == 0
    assert out.startswith(f"flat check d20 ({record['total']}) vs DC 11: ")


def test_seed_gives_identical_output(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("roll", "4d6kh3+1d8", "--adv", "0", "--seed", "99")
    first = run(capsys, *args)
    assert first[0] == 0 and first[1]
    assert run(capsys, *args) == first
    # --seed before the subcommand works the same way
    assert run(capsys, "--seed", "99", "roll", "4d6kh3+1d8") == first


def test_human_output_shows_the_breakdown(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "roll", "1d20+5", "--adv", "1", "--dc", "10", "--seed", "4")
    assert (status, err) == (0, "")
    record = run_json(capsys, "1d20+5", "--adv", "1", "--dc", "10", "--seed", "4")
    faces = ", ".join(str(d["value"]) for d in record["dice"])
    assert out.startswith(f"2d20kh1 ({faces}) + 5 = {record['total']} vs DC 10: ")
    assert record["degree"] in out
    assert "**" not in out  # kept dice are styled, not starred


def test_expression_may_be_split_over_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    record = run_json(capsys, "2d6", "+", "3", "--seed", "1")
    assert record["expression"] == "2d6+3"


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["3d0"], '"3d0": a die needs at least 2 sides'),
        (["2d6+"], '"2d6+": a term is missing after "+"'),
        (["d20kh3"], '"d20kh3": cannot keep 3 of 1 die'),
        (["99999d6"], "too many dice"),
        ([""], "empty dice expression"),
        (["1d6+" * 2500], "too long (10000 characters"),
        (["1d20", "--dl", "hard"], "unknown difficulty level 'hard'"),
        (["1d20", "--ruleset", "homebrew"], "invalid choice: 'homebrew'"),
        (["2d6", "--adv", "1"], "need a d20"),
        (["1d20", "--adv", "-1"], "cannot be negative"),
        (["1d20", "--dc", "ten"], "invalid int value"),
        # the action language's bounds and digits (``roll d20 adv 101`` is refused too)
        (["1d20", "--adv", "99999999999999999999999"], "out of range (0 to 100)"),
        (["1d20", "--dis", "101"], "out of range (0 to 100)"),
        (["1d20", "--dc", "99999999999999"], "out of range (-1,000 to 1,000)"),
        (["--flat", "1001"], "out of range (-1,000 to 1,000)"),
        (["1d20", "--adv", "\u0661"], "invalid int value"),
        (["1d20", "--dc", "1_0"], "invalid int value"),
        (["1d20", "--dc=-+5"], "invalid int value"),  # one sign, as the action language reads
        (["1d20", "--dc", "9" * 5000], "9999…' is out of range"),
        ([], "give a dice expression"),
        (["1d20", "--flat", "12"], "--flat rolls a bare d20"),
        (["1d20", "--dc", "5", "--dl", "Simple"], "not allowed with"),
    ],
)
def test_bad_input_exits_2_with_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], needle: str
) -> None:
    status, out, err = run(capsys, "roll", *argv)
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1 and err.endswith("\n") and len(err) < 300
    assert needle in err
    assert "Traceback" not in err


def test_real_subprocess(tmp_path: Path) -> None:
    # The console entry as a GM runs it: python -m tracker roll …
    def call(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "tracker", "roll", *argv],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )

    good = call("3d6+2", "--seed", "5", "--json")
    assert good.returncode == 0, good.stderr
    record = json.loads(good.stdout)
    assert record["expression"] == "3d6+2"
    assert call("3d6+2", "--seed", "5", "--json").stdout == good.stdout
    bad = call("3d0")
    assert bad.returncode == 2
    assert bad.stdout == ""
    assert bad.stderr.strip().splitlines() == [
        'combat-tracker: "3d0": a die needs at least 2 sides'
    ]


def test_an_expression_starting_with_minus_is_rolled_not_taken_for_an_option(
    capsys: pytest.CaptureFixture[str],
) -> None:
    record = run_json(capsys, "-1d6+10", "--seed", "3")
    assert record["expression"] == "-1d6+10"
    assert 4 <= record["total"] <= 9
    # options still take negative numbers, and an unknown option is still one
    assert run_json(capsys, "1d20", "--dc", "-2", "--seed", "3")["degree"] is not None
    status, _, err = run(capsys, "roll", "1d20", "-x")
    assert status == 2 and "unrecognized arguments: -x" in err
