"""The course notebook (notebooks/sgemm_course.ipynb) is well formed: nbformat 4 (validated with
nbformat where it is installed), committed without outputs, every cell has source, every code
cell is valid Python once its IPython lines (!shell, %magic) are set aside, and what it edits or
reads in the repository is still there. Running it needs a GPU: see python/README.md."""
import json
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
NOTEBOOK = REPO / "notebooks" / "sgemm_course.ipynb"


def load():
    return json.loads(NOTEBOOK.read_text(encoding="utf-8"))


def source(cell):
    s = cell.get("source", "")
    return "".join(s) if isinstance(s, list) else s


def code_cells():
    return [c for c in load()["cells"] if c["cell_type"] == "code"]


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
    # section 5 replaces this line of the step 02 exercise, section 4 prints between these markers
    skeleton = re.search(r'SKELETON_LINE = "([^"]+)"', text).group(1)
    assert skeleton in (REPO / "steps/02_coalescing/exercise.cu").read_text()
    kernel05 = (REPO / "steps/05_2d_blocktiling/kernel.cuh").read_text()
    assert "// exercise begin: the outer product" in kernel05 and "// exercise end" in kernel05
    for step in range(1, 11):
        assert list(REPO.glob(f"steps/{step:02d}_*")), f"the notebook runs step{step:02d}"
    assert "make check-exercise STEP=02" in text and "sgemm_steps.run" in text and "--csv" in text
