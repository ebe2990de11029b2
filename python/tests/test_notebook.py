"""The course notebook (notebooks/sgemm_course.ipynb) is well formed: nbformat 4 (validated with
nbformat where it is installed), committed without outputs, every cell has source, every code
cell is valid Python once its IPython lines (!shell, %magic) are set aside, and what it edits or
reads in the repository is still there, and its links lead somewhere. Running it needs a GPU: see
python/README.md.

The executed copies, docs/results/notebook_<gpu>.ipynb (tools/validate/run_notebook.py on a GPU),
say where they ran, ran every cell without an error, and hold the notebook's cells as they are
now: a change to the notebook fails here until it is run again on the GPU."""
import json
import re
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
NOTEBOOK = REPO / "notebooks" / "sgemm_course.ipynb"
EXECUTED = sorted((REPO / "docs" / "results").glob("notebook_*.ipynb"))
sys.path.insert(0, str(REPO / "tools" / "validate"))
from run_notebook import RELATIVE_LINK, rebase_links  # noqa: E402  (the links, as the executed copy rewrites them)


def load(path=NOTEBOOK):
    return json.loads(path.read_text(encoding="utf-8"))


def source(cell):
    s = cell.get("source", "")
    return "".join(s) if isinstance(s, list) else s


def code_cells(nb=None):
    return [c for c in (nb or load())["cells"] if c["cell_type"] == "code"]


def outputs_text(cell):
    """What a code cell printed (its streams and plain-text results), as one string."""
    parts = []
    for o in cell.get("outputs", []):
        if o.get("output_type") == "stream":
            parts.append(source({"source": o.get("text", "")}))
        elif "text/plain" in o.get("data", {}):
            parts.append(source({"source": o["data"]["text/plain"]}))
    return "".join(parts)


def test_format_is_nbformat_4():
    nb = load()
    assert nb["nbformat"] == 4 and isinstance(nb.get("nbformat_minor"), int)
    assert nb["metadata"]["kernelspec"]["language"] == "python"
    assert nb["cells"], "no cells"
    for i, cell in enumerate(nb["cells"]):
        assert cell["cell_type"] in ("code", "markdown"), f"cell {i}: type {cell['cell_type']}"
        assert source(cell).strip(), f"cell {i} is empty"


def test_nbformat_validates():
    nbformat = pytest.importorskip("nbformat", reason="nbformat not installed: only the JSON checks ran")
    nbformat.validate(nbformat.read(str(NOTEBOOK), as_version=4))


def test_committed_without_outputs():
    for i, cell in enumerate(code_cells()):
        assert cell.get("outputs") == [], f"code cell {i} has outputs (clear them before committing)"
        assert cell.get("execution_count") is None, f"code cell {i} has an execution count"
        assert not any(o.get("output_type") == "error" for o in cell.get("outputs", []))


def python_of(cell_source):
    """The cell with each IPython-only line (!cmd, %magic) replaced by `pass`, indentation kept."""
    lines = []
    for line in cell_source.splitlines():
        stripped = line.lstrip()
        lines.append(line[:len(line) - len(stripped)] + "pass" if stripped[:1] in ("!", "%") else line)
    return "\n".join(lines)


def test_code_cells_are_python():
    for i, cell in enumerate(code_cells()):
        text = source(cell)
        if text.lstrip().startswith("%%"):
            continue  # a cell magic (%%writefile, %%bash): not Python
        compile(python_of(text), f"{NOTEBOOK.name} code cell {i}", "exec")


def test_first_code_cell_checks_gpu_and_nvcc_and_stops():
    first = source(code_cells()[0])
    assert "nvidia-smi" in first and "nvcc" in first and "sm_75" in first
    assert "raise StopNotebook" in first


def test_what_it_reads_and_edits_is_in_the_repository():
    text = "\n".join(source(c) for c in code_cells())
    # section 4 prints between these markers of step 05; section 5 replaces what stands between
    # them in step 02's exercise with kernel.cuh's lines (or the student's)
    kernel05 = (REPO / "steps/05_2d_blocktiling/kernel.cuh").read_text()
    assert "// exercise begin: the outer product" in kernel05 and "// exercise end" in kernel05
    for name in ("exercise.cu", "kernel.cuh"):
        text02 = (REPO / "steps/02_coalescing" / name).read_text()
        assert len(re.findall(r"^ *// exercise begin", text02, re.M)) == 1, f"{name}: one exercise begin line"
        assert len(re.findall(r"^ *// exercise end", text02, re.M)) == 1, f"{name}: one exercise end line"
    assert "const int row = 0, col = 0;" in (REPO / "steps/02_coalescing/exercise.cu").read_text()
    for step in range(1, 11):
        assert list(REPO.glob(f"steps/{step:02d}_*")), f"the notebook runs step{step:02d}"
    assert '"check-exercise", "STEP=02"' in text and "sgemm_steps.run" in text and "--csv" in text


@pytest.mark.parametrize("path", [NOTEBOOK, *EXECUTED], ids=[p.name for p in [NOTEBOOK, *EXECUTED]])
def test_links_lead_somewhere(path):
    for i, cell in enumerate(load(path)["cells"]):
        if cell["cell_type"] != "markdown":
            continue
        for target in RELATIVE_LINK.findall(source(cell)):
            assert (path.parent / target).resolve().exists(), f"{path.name}: cell {i} links to {target}, which is not there"


def test_an_executed_copy_is_committed():
    assert EXECUTED, "no docs/results/notebook_<gpu>.ipynb: run tools/validate/run_notebook.py on a GPU"


@pytest.mark.parametrize("path", EXECUTED, ids=[p.name for p in EXECUTED])
def test_executed_copy_says_where_it_ran(path):
    nb = load(path)
    run = nb["metadata"].get("sgemm_run", {})
    for key in ("gpu", "driver", "cuda", "date", "commit"):
        assert run.get(key) not in (None, "", "unknown"), f"{path.name}: sgemm_run has no {key}"
    assert run.get("ran_to_the_end") is True, f"{path.name}: the run stopped at a failing cell"
    label = source(nb["cells"][0])
    assert nb["cells"][0]["cell_type"] == "markdown" and run["gpu"] in label and "not a T4" in label, \
        f"{path.name}: the first cell does not say which GPU the outputs are from"


@pytest.mark.parametrize("path", EXECUTED, ids=[p.name for p in EXECUTED])
def test_executed_copy_is_the_notebook_as_it_is_now(path):
    ran, now = load(path)["cells"][1:], load()["cells"]
    as_run = [(c["cell_type"], source(c)) for c in ran]
    as_now = [(c["cell_type"], rebase_links(source(c), NOTEBOOK.parent, path.parent)
               if c["cell_type"] == "markdown" else source(c)) for c in now]
    assert as_run == as_now, \
        f"{path.name} is not the notebook as it is now: run tools/validate/run_notebook.py again on the GPU"


@pytest.mark.parametrize("path", EXECUTED, ids=[p.name for p in EXECUTED])
def test_executed_copy_ran_every_cell_and_got_every_result(path):
    nb = load(path)
    cells = code_cells(nb)
    for i, cell in enumerate(cells):
        assert cell.get("execution_count") is not None, f"{path.name}: code cell {i} did not run"
        errors = [o for o in cell.get("outputs", []) if o.get("output_type") == "error"]
        assert not errors, f"{path.name}: code cell {i} raised {errors[0].get('ename')}"
    printed = "\n".join(outputs_text(c) for c in cells)
    table = re.findall(r"^step(\d\d) .*\s(pass|FAIL)$", printed, re.M)
    assert [n for n, _ in table] == [f"{n:02d}" for n in range(1, 11)], f"{path.name}: not every step's row"
    assert all(v == "pass" for _, v in table), f"{path.name}: a step failed its verification"
    assert any("image/png" in o.get("data", {}) for c in cells for o in c.get("outputs", [])), \
        f"{path.name}: no plot"
    assert "PASS: all" in printed, f"{path.name}: the exercise's check did not pass"
    assert re.search(r"^Numba naive .*\n+Numba coalesced ", printed, re.M), f"{path.name}: the Numba cells did not run"
    assert "step 10 on " in printed and "verified: True" in printed, f"{path.name}: sgemm_steps did not run"
