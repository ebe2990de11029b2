"""Tests of the course's tools that need no GPU and no NumPy: tools/exercises/exercise.py extracts
its student copy safely on every Python the course supports. tarfile's "data" filter exists only
from Python 3.11.4 (and 3.10.12); Debian 12's python3 is 3.11.2, so the tool checks the members
itself there. These tests force that path whatever the interpreter running them."""
import importlib.util
import io
import subprocess
import tarfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def load_tool(rel):
    spec = importlib.util.spec_from_file_location(Path(rel).stem, REPO / rel)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


exercise = load_tool("tools/exercises/exercise.py")


@pytest.fixture(params=["no filter", "filter"])
def interpreter(request, monkeypatch):
    """'no filter': tarfile as in Python 3.11.2, which has no data_filter and whose extractall()
    takes no filter argument. 'filter': the interpreter's own tarfile, where it has the filter."""
    if request.param == "filter":
        if not hasattr(tarfile, "data_filter"):
            pytest.skip("this Python's tarfile has no extraction filters")
        return request.param
    monkeypatch.delattr(tarfile, "data_filter", raising=False)
    extractall = tarfile.TarFile.extractall

    def extractall_without_filter(self, path=".", members=None, *, numeric_owner=False, **kwargs):
        if kwargs:  # 3.11.2's signature: a filter argument is a TypeError there
            raise TypeError(f"extractall() got an unexpected keyword argument {next(iter(kwargs))!r}")
        return extractall(self, path, members, numeric_owner=numeric_owner,
                          **({"filter": "fully_trusted"} if hasattr(tarfile, "fully_trusted_filter") else {}))

    monkeypatch.setattr(tarfile.TarFile, "extractall", extractall_without_filter)
    return request.param


def archive(*entries):
    """An in-memory tar of (name, kind, data-or-link-target) entries, read back for extraction."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        for name, kind, extra in entries:
            info = tarfile.TarInfo(name)
            info.mode = 0o775 if kind == "dir" else 0o664
            if kind == "file":
                info.size = len(extra)
                tar.addfile(info, io.BytesIO(extra))
                continue
            info.type = {"dir": tarfile.DIRTYPE, "symlink": tarfile.SYMTYPE, "hardlink": tarfile.LNKTYPE,
                         "device": tarfile.CHRTYPE, "fifo": tarfile.FIFOTYPE}[kind]
            info.linkname = extra or ""
            tar.addfile(info)
    buffer.seek(0)
    return tarfile.open(fileobj=buffer)


def extract(tmp_path, *entries):
    dest = tmp_path / "dest"
    dest.mkdir()
    with archive(*entries) as tar:
        exercise.extract(tar, dest, tar.getmembers())
    return dest


def test_a_normal_archive_extracts(tmp_path, interpreter):
    dest = extract(tmp_path, ("steps", "dir", None), ("steps/01/kernel.cuh", "file", b"// kernel\n"),
                   ("steps/01/same.cuh", "symlink", "kernel.cuh"), ("top.cuh", "symlink", "steps/01/kernel.cuh"))
    assert (dest / "steps/01/kernel.cuh").read_bytes() == b"// kernel\n"
    assert (dest / "steps/01/same.cuh").read_bytes() == (dest / "top.cuh").read_bytes() == b"// kernel\n"
    # git archive's 664 becomes 644, as the data filter makes it
    assert (dest / "steps/01/kernel.cuh").stat().st_mode & 0o777 == 0o644


@pytest.mark.parametrize("entries, bad, reason", [
    ([("../evil", "file", b"x")], "../evil", "its path has a '..' component"),
    ([("ok/../../evil", "file", b"x")], "ok/../../evil", "its path has a '..' component"),
    ([("/tmp/sgemm-course-evil", "file", b"x")], "/tmp/sgemm-course-evil", "it has an absolute path"),
    ([("escape", "symlink", "../evil")], "escape", "it links to '../evil', outside"),
    ([("escape", "symlink", "/etc/passwd")], "escape", "it links to '/etc/passwd', outside"),
    # each link inside on its own, but b goes through a: a -> the destination itself, b -> a/.. above it
    ([("a", "symlink", "."), ("b", "symlink", "a/..")], "b", "it links to 'a/..', outside"),
    ([("hard", "hardlink", "/etc/passwd")], "hard", "it is a hard link"),
    ([("dev", "device", None)], "dev", "it is a device file"),
    ([("pipe", "fifo", None)], "pipe", "it is a fifo"),
], ids=["dotdot", "dotdot-inside", "absolute", "link-up", "link-absolute", "link-chain", "hardlink",
        "device", "fifo"])
def test_an_unsafe_member_is_refused_with_one_line(tmp_path, interpreter, entries, bad, reason):
    with pytest.raises(SystemExit) as e:
        extract(tmp_path, ("fine.txt", "file", b"fine"), *entries)
    text = str(e.value)
    assert "\n" not in text, f"not one line: {text!r}"
    assert text.startswith(f"exercise.py: refusing to extract '{bad}': {reason}"), text
    assert not (tmp_path / "evil").exists() and not Path("/tmp/sgemm-course-evil").exists()


@pytest.mark.skipif(not (REPO / ".git").exists(), reason="not a git checkout: no git archive to copy")
def test_student_copy_without_extraction_filters(tmp_path, interpreter, capsys):
    if interpreter == "filter":
        pytest.skip("the student copy with the filter is what make test's exercise tests run")
    exercise.student_copy(tmp_path / "copy", [])
    copy = tmp_path / "copy"
    assert "docs/answers/ left out" in capsys.readouterr().out
    assert (copy / "Makefile").is_file() and not (copy / "docs" / "answers").exists()
    # what git tracks as a script stays runnable in the copy
    mode = subprocess.run(["git", "-C", str(REPO), "ls-files", "-s", "tools/exercises/exercise.py"],
                          capture_output=True, text=True, check=True).stdout.split()[0]
    assert bool((copy / "tools/exercises/exercise.py").stat().st_mode & 0o100) == (mode == "100755")
