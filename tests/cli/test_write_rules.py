"""What every output obeys: never written through a symbolic link, at most one new folder
inside one that exists, never appended to a file this tool did not write, and no temporary
folder left behind when a run is killed."""
import os
import signal
import subprocess
import sys
import time

import pytest

from conftest import INSTANCES, ROOT, default_sigint, reaped
from puzzleplan.outputs import put
from puzzleplan.puzzle import PuzzleError

CARD = INSTANCES / "seeds/rushhour_card40_bmodel_v2.rh"
CARDS = INSTANCES / "rushhour/thinkfun40.rh"


def run(*args, **kw):
    return subprocess.run([sys.executable, "-m", "puzzleplan.cli", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=300, **kw)


def refused(proc, *words):
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert all(w in proc.stderr for w in words), proc.stderr


@pytest.mark.parametrize("name", ["domain.pddl", "problem.pddl"])
@pytest.mark.parametrize("dangling", [True, False])
def test_export_pddl_never_writes_through_a_link(tmp_path, name, dangling):
    target = tmp_path / "elsewhere.txt"
    if not dangling:
        target.write_text("keep me")
    out = tmp_path / "out"
    out.mkdir()
    (out / name).symlink_to(target)
    for force in ([], ["--force"]):
        refused(run("export", str(CARD), "--pddl", str(out), *force), "symbolic link")
    assert (target.read_text() == "keep me") if not dangling else not target.exists()


def test_export_pddl_makes_at_most_one_new_folder(tmp_path):
    refused(run("export", str(CARD), "--pddl", str(tmp_path / "a" / "b")), "no folder")
    assert not (tmp_path / "a").exists()
    proc = run("export", str(CARD), "--pddl", str(tmp_path / "a"))
    assert proc.returncode == 0 and (tmp_path / "a" / "domain.pddl").exists(), proc.stderr


def test_put_with_force_replaces_a_file_but_never_follows_a_link(tmp_path):
    target = tmp_path / "target"
    target.write_text("keep me")
    link = tmp_path / "link"
    link.symlink_to(target)
    with pytest.raises(PuzzleError, match="symbolic link"):
        put(link, "new", force=True)
    assert target.read_text() == "keep me"
    plain = tmp_path / "plain"
    plain.write_text("old")
    put(plain, "new", force=True)
    assert plain.read_text() == "new"


@pytest.mark.parametrize("kind", ["unrelated", "dangling link", "link"])
def test_bench_never_appends_to_a_meta_file_it_did_not_write(tmp_path, kind):
    out = tmp_path / "b.csv"
    meta = tmp_path / "b.csv.meta.jsonl"
    target = tmp_path / "notes.txt"
    if kind == "unrelated":
        meta.write_text("my own notes\n")
    else:
        if kind == "link":
            target.write_text("{}\n")
        meta.symlink_to(target)
    before = target.read_text() if target.exists() else None
    refused(run("bench", str(CARDS), "--levels", "1", "--methods", "bfs", "-o", str(out), "-q"),
            "meta" if kind == "unrelated" else "symbolic link")
    assert not out.exists()
    if kind == "unrelated":
        assert meta.read_text() == "my own notes\n"
    else:
        assert (target.read_text() if target.exists() else None) == before


def test_bench_appends_to_its_own_meta_file(tmp_path):
    out = tmp_path / "b.csv"
    for levels in ("1", "1-2"):
        assert run("bench", str(CARDS), "--levels", levels, "--methods", "bfs", "-o", str(out), "-q").returncode == 0
    assert len((tmp_path / "b.csv.meta.jsonl").read_text().splitlines()) == 2


def test_a_bench_killed_by_ctrl_c_leaves_no_temporary_folder(tmp_path):
    """ABC's runs keep their files in a temporary folder; Ctrl-C kills the runs, and the bench
    removes their folders."""
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    env = {**os.environ, "TMPDIR": str(scratch)}
    proc = subprocess.Popen([sys.executable, "-m", "puzzleplan.cli", "bench", str(INSTANCES / "seeds/klotski_seed000.slide"),
                             "--methods", "abc:pdr", "--time-limit", "60", "-o", str(tmp_path / "b.csv"), "-q"],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=default_sigint)
    with reaped(proc):
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not list(scratch.rglob("puzzleplan-abc-*")):
            time.sleep(0.1)
        assert list(scratch.rglob("puzzleplan-abc-*")), "no abc run started"
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert list(scratch.iterdir()) == []
