"""The course notebook (notebooks/sgemm_course.ipynb) is well formed: nbformat 4 (validated with
nbformat where it is installed), committed without outputs, every cell has source, every code
cell is valid Python once its IPython lines (!shell, %magic) are set aside, what it edits or
reads in the repository is still there, and its links are absolute (a notebook opened on Colab has
no folder around it) and lead to files of the repository. The parts that need no GPU run here: the
clone cell's one-line stops, and the Numba cell's diagnosis of a driver older than Numba's
compiler. Running the rest needs a GPU: see python/README.md.

Part II (steps 11 and 12, TF32 tensor cores, sm_80 or newer) has its section: it links both
lessons, runs what sgemm_steps lists as not FP32, and on an older GPU shows the H100's results,
labelled as the H100's; that path needs no GPU and runs here against docs/results/.

The executed copies, docs/results/notebook_<gpu>.ipynb (tools/validate/run_notebook.py on a GPU),
say where they ran, ran every cell without an error, got every result of the cells they ran, and
hold the notebook's cells as they are now, except the cells NOT_RUN_YET names: cells added or
changed since a copy was made. Those must really be missing from the copy or differ there, so the
entry has to go once the copy is run again on the GPU; any other change to the notebook fails
here until then."""
import ast
import csv
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
NOTEBOOK = REPO / "notebooks" / "sgemm_course.ipynb"
EXECUTED = sorted((REPO / "docs" / "results").glob("notebook_*.ipynb"))
sys.path.insert(0, str(REPO / "tools" / "pages"))
import repository  # noqa: E402  (the course's GitHub address: python/pyproject.toml)
import sgemm_steps  # noqa: E402  (python/, through conftest.py: which steps are FP32 and which are Part II)

MARKDOWN_LINK = re.compile(r"\]\(([^)\s]+)\)")
COLAB_BADGE_IMAGE = "https://colab.research.google.com/assets/colab-badge.svg"
RESULTS = REPO / "docs" / "results"

# The notebook's cells (by id) that an executed copy has not run yet: added, or changed, since the
# copy was made. Each must be missing from that copy or differ there: once the copy is run again on
# the GPU (tools/validate/run_notebook.py), its entry fails until it is taken out.
NOT_RUN_YET = {
    # every executed copy has run the notebook as it is (the H100's, re-run at ad2b16e with Part II)
}


def load(path=NOTEBOOK):
    return json.loads(path.read_text(encoding="utf-8"))


def source(cell):
    s = cell.get("source", "")
    return "".join(s) if isinstance(s, list) else s


def code_cells(nb=None):
    return [c for c in (nb or load())["cells"] if c["cell_type"] == "code"]


def part_two():
    """The steps Part II runs: those sgemm_steps lists with an arithmetic other than FP32."""
    return [s for s in sgemm_steps.steps() if s.arithmetic != "FP32"]


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
    # Part II on an older GPU: the H100's speed (both cuBLAS baselines) and precision, at 2048
    with open(RESULTS / "h100-80gb-hbm3.csv", newline="") as f:
        bench = [r for r in csv.DictReader(f) if r["M"] == r["N"] == r["K"] == "2048"]
    for s in part_two():
        row = next((r for r in bench if r["step"] == s.name), None)
        assert row, f"h100-80gb-hbm3.csv has no {s.name} at 2048^3 (Part II shows it on an older GPU)"
        assert row["arithmetic"] == s.arithmetic and row["cublas_tf32_gflops"] and row["pct_of_cublas_tf32"], row
    methods = {r["method"] for r in precision_rows() if r["K"] == "2048"}
    assert {"step10", "cublas_fp32", "cublas_tf32"} | {s.name for s in part_two()} <= methods, methods


def precision_rows():
    with open(RESULTS / "precision_h100-80gb-hbm3.csv", newline="") as f:  # its first lines are # comments
        return list(csv.DictReader(l for l in f if not l.startswith("#")))


@pytest.mark.parametrize("path", [NOTEBOOK, *EXECUTED], ids=[p.name for p in [NOTEBOOK, *EXECUTED]])
def test_links_are_absolute_and_lead_to_the_repository(path):
    own = repository.url() + "/"
    links = 0
    for i, cell in enumerate(load(path)["cells"]):
        if cell["cell_type"] != "markdown":
            continue
        for target in MARKDOWN_LINK.findall(source(cell)):
            links += 1
            if target in (COLAB_BADGE_IMAGE, repository.colab("notebooks/sgemm_course.ipynb")):
                continue
            fix = ("write repository.blob(path), or run tools/pages/repository.py --write" if path == NOTEBOOK
                   else "run tools/validate/run_notebook.py again on the GPU")
            assert target.startswith(own), (
                f"{path.name}: cell {i} links to {target}, not a page of {repository.url()} (a notebook's links are "
                f"absolute, since on Colab a relative one leads nowhere, and name python/pyproject.toml's repository): {fix}")
            page = target.split("#")[0]
            rel = re.sub(rf"^(?:blob|tree)/{repository.BRANCH}/", "", page[len(own):])
            assert (REPO / rel).exists(), f"{path.name}: cell {i} links to {target}: there is no {rel}"
            assert page == repository.blob(rel), f"{path.name}: cell {i} links to {target}, not {repository.blob(rel)}"
    assert links, f"{path.name}: no links found (has the link pattern stopped matching?)"


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
    pending = NOT_RUN_YET.get(path.name, set())
    now_by_id, ran_by_id = {c["id"]: c for c in now}, {c.get("id"): c for c in ran}
    assert pending <= set(now_by_id), f"NOT_RUN_YET names cells the notebook lacks: {sorted(pending - set(now_by_id))}"
    for cell_id in sorted(pending):
        assert cell_id not in ran_by_id or source(ran_by_id[cell_id]) != source(now_by_id[cell_id]), \
            f"{path.name} has run cell {cell_id} as it is now: take it out of NOT_RUN_YET"
    as_run = [(c["cell_type"], source(c)) for c in ran if c.get("id") not in pending]
    as_now = [(c["cell_type"], source(c)) for c in now if c["id"] not in pending]
    assert as_run == as_now, \
        f"{path.name} is not the notebook as it is now: run tools/validate/run_notebook.py again on the GPU"


def cell_with(cells, text):
    """The one cell whose source holds `text`."""
    found = [c for c in cells if text in source(c)]
    assert len(found) == 1, f"{len(found)} cells hold {text!r}"
    return found[0]


def gpu_arch(printed):
    """The GPU's architecture (90 for sm_90) from what the first code cell printed."""
    m = re.search(r"^GPU: .*\(sm_(\d+)\)$", printed, re.M)
    assert m, "the first code cell did not print the GPU's architecture"
    return int(m[1])


def part_two_problem(printed, arch, names):
    """None when `printed` is what the Part II cell prints for the steps `names` (e.g. ["step11",
    "step12"]) on a GPU of sm_<arch>, else what is wrong: from sm_80 on, a verified row of this GPU's
    figures for step 10 and each step; before, the steps' one-line refusal, then the H100's figures,
    labelled as the H100's, for the same steps."""
    table = re.findall(r"^(step\d\d) +(FP32|TF32|3xTF32) +[\d,]+ .*  (pass|FAIL)$", printed, re.M)
    if [name for name, _, _ in table] != ["step10", *names]:
        return f"the rows are {[name for name, _, _ in table]}, not step10 and {names}"
    if any(verified != "pass" for _, _, verified in table):
        return f"a step failed its verification: {table}"
    cannot = re.findall(r"^This GPU cannot run Part II: (.*)$", printed, re.M)
    if arch >= 80:
        if cannot or not re.search(r"^This GPU, ", printed, re.M):
            return f"sm_{arch} runs Part II, but the cell did not say it ran here: {cannot}"
        return None
    if len(cannot) != 1 or "sm_80" not in cannot[0]:
        return f"on sm_{arch} the steps' one-line refusal naming sm_80 is not there: {cannot}"
    if re.search(r"^This GPU, ", printed, re.M) or \
            not re.search(r"^The NVIDIA H100 [^\n]*'s results, not this GPU's: ", printed, re.M):
        return "the figures are not labelled as the H100's (and not this GPU's)"
    headings = re.findall(r"^.*\(make (?:bench|precision)\):$", printed, re.M)
    if len(headings) != 2 or not all(h.startswith("NVIDIA H100 ") for h in headings):
        return f"each table must be headed with the H100's name: {headings}"
    return None


@pytest.mark.parametrize("path", EXECUTED, ids=[p.name for p in EXECUTED])
def test_executed_copy_ran_every_cell_and_got_every_result(path):
    nb = load(path)
    cells = code_cells(nb)
    for i, cell in enumerate(cells):
        assert cell.get("execution_count") is not None, f"{path.name}: code cell {i} did not run"
        errors = [o for o in cell.get("outputs", []) if o.get("output_type") == "error"]
        assert not errors, f"{path.name}: code cell {i} raised {errors[0].get('ename')}"
    printed = "\n".join(outputs_text(c) for c in cells)
    # section 3's table: a row for each step the copy's build cell built, in order (its own STEPS)
    built = definitions(source(cell_with(cells, "def find_course")), ["STEPS"])["STEPS"]
    table = re.findall(r"^(step\d\d) .*\s(pass|FAIL)$", outputs_text(cell_with(cells, '"--csv"')), re.M)
    assert built[:1] == ["step01"] and [n for n, _ in table] == built, f"{path.name}: not every step's row"
    assert all(v == "pass" for _, v in table), f"{path.name}: a step failed its verification"
    assert any("image/png" in o.get("data", {}) for c in cells for o in c.get("outputs", [])), \
        f"{path.name}: no plot"
    assert "PASS: all" in printed, f"{path.name}: the exercise's check did not pass"
    assert re.search(r"^Numba naive .*\n+Numba coalesced ", printed, re.M), f"{path.name}: the Numba cells did not run"
    assert "step 10 on " in printed and "verified: True" in printed, f"{path.name}: sgemm_steps did not run"
    if "part2-01" in NOT_RUN_YET.get(path.name, set()):
        return  # Part II's cell is newer than this copy (test_executed_copy_is_the_notebook_as_it_is_now)
    # Part II: the steps that sgemm_steps listed when the copy ran, as the cell printed them
    assert any("def h100_part2" in source(c) for c in cells), \
        f"{path.name} has not run Part II's cell: run tools/validate/run_notebook.py again on the GPU"
    part2 = outputs_text(cell_with(cells, "def h100_part2"))
    listed = re.findall(r"(step\d\d) \S+ \((\w+)\)", (re.findall(r"^Part II: (.*)$", part2, re.M) or [""])[0])
    assert {a for _, a in listed} == {"TF32", "3xTF32"}, f"{path.name}: Part II listed {listed}"
    problem = part_two_problem(part2, gpu_arch(printed), [n for n, _ in listed])
    assert problem is None, f"{path.name}: Part II: {problem}"


def code_cell_defining(name):
    """The source of the code cell that defines `name` (a function or class) at its top level."""
    for cell in code_cells():
        if re.search(rf"^(?:def|class) {name}\b", source(cell), re.M):
            return source(cell)
    pytest.fail(f"no code cell defines {name}")


def definitions(cell_source, names, namespace=None):
    """The named top-level functions, classes and assignments of a cell, with its imports of the
    standard library, run on their own (not the whole cell, which needs a GPU) in `namespace`."""
    keep = []
    for node in ast.parse(python_of(cell_source)).body:
        if isinstance(node, ast.Import) and all(a.name.split(".")[0] in sys.stdlib_module_names for a in node.names):
            keep.append(node)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in sys.stdlib_module_names:
            keep.append(node)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.name in names:
            keep.append(node)
        elif isinstance(node, ast.Assign) and any(getattr(t, "id", None) in names for t in node.targets):
            keep.append(node)
    found = {getattr(n, "name", None) for n in keep} | {getattr(t, "id", None) for n in keep if isinstance(n, ast.Assign) for t in n.targets}
    assert set(names) <= found, f"not found at the cell's top level: {set(names) - found}"
    namespace = {} if namespace is None else namespace
    exec(compile(ast.Module(body=keep, type_ignores=[]), "<notebook cell>", "exec"), namespace)
    return namespace


def clone_cell():
    """find_course() of the clone cell, ready to call, with what the first cell gives it (StopNotebook,
    and its imports of os, shutil and subprocess)."""
    ns = definitions(code_cell_defining("StopNotebook"), ["StopNotebook"])
    return definitions(code_cell_defining("find_course"), ["find_course", "REPO_URL"], ns)


def stop_line(ns):
    with pytest.raises(ns["StopNotebook"]) as stop:
        ns["find_course"]()
    line = str(stop.value)
    assert line and "\n" not in line, f"not one line: {line!r}"
    return line


@pytest.fixture
def elsewhere(tmp_path, monkeypatch):
    """A folder outside any clone, as Colab's /content is (the cell would clone into sgemm/ there)."""
    if Path("/content").is_dir():
        pytest.skip("/content exists here: the clone cell would clone into /content/sgemm")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_clone_cell_stops_in_one_line_at_the_placeholder(elsewhere):
    ns = clone_cell()
    ns["REPO_URL"] = "https://github.com/OWNER/REPO"
    line = stop_line(ns)
    assert "REPO_URL" in line and "python/pyproject.toml" in line and "repository.py" in line, line
    assert not (elsewhere / "sgemm").exists(), "it cloned (or began to) from the placeholder"


def test_clone_cell_asks_git_for_no_password_and_stops_in_one_line(elsewhere):
    ns = clone_cell()
    ns["REPO_URL"] = "https://github.com/someone/somewhere"
    seen = {}

    class FakeSubprocess:  # what git prints on Colab for a repository that asks for a login
        @staticmethod
        def run(cmd, **kwargs):
            seen["cmd"], seen["env"] = cmd, kwargs.get("env") or {}
            return subprocess.CompletedProcess(cmd, 128, "", "Cloning into 'sgemm'...\nfatal: could not read "
                                               "Username for 'https://github.com': terminal prompts disabled\n")

    ns["subprocess"] = FakeSubprocess
    line = stop_line(ns)
    assert seen["cmd"][:2] == ["git", "clone"] and seen["env"].get("GIT_TERMINAL_PROMPT") == "0", seen
    assert line.startswith("git clone https://github.com/someone/somewhere failed: fatal: could not read Username"), line
    assert "private" in line, line


def test_clone_cell_stops_in_one_line_when_git_fails(elsewhere):
    if shutil.which("git") is None:
        pytest.skip("git not installed")
    ns = clone_cell()
    ns["REPO_URL"] = (elsewhere / "no-such-repository").as_uri()  # a real git, failing at once, offline
    line = stop_line(ns)
    assert line.startswith(f"git clone {ns['REPO_URL']} failed: fatal:"), line


# What the T4 on Colab printed (numba-cuda#120): the driver's CUDA 12.4, Numba's NVVM from 12.5
COLAB_ERROR = ("[222] Call to cuLinkAddData results in CUDA_ERROR_UNSUPPORTED_PTX_VERSION\n"
               "ptxas application ptx input, line 9; fatal   : Unsupported .version 8.5; current version is '8.4'")


def test_numba_cell_diagnoses_a_driver_older_than_its_compiler():
    ns = definitions(code_cell_defining("numba_ptx_problem"), ["PTX_CUDA", "newest_ptx", "numba_ptx_problem"])
    problem = ns["numba_ptx_problem"]
    # from both versions, from the driver's message alone, and from both with the message
    for driver, ptx, error in (((12, 4), (8, 5), ""), (None, None, COLAB_ERROR), ((12, 4), (8, 5), COLAB_ERROR)):
        text = problem(driver, ptx, error)
        assert text, f"no diagnosis for driver {driver}, PTX {ptx}, error {error[:40]!r}"
        for words in ("driver supports CUDA 12.4", "PTX ISA up to 8.4", "writes PTX ISA 8.5",
                      "needs CUDA 12.5 or newer", 'pip install -U "numba-cuda[cu12]"', "Minor Version Compatibility",
                      "Restart session"):
            assert words in text, f"{words!r} not in: {text}"
    # not this case: the driver is new enough (12.6 brought no new PTX ISA), or another error
    assert problem((12, 6), (8, 5), "") is None
    assert problem((13, 0), (8, 8), "CUDA_ERROR_OUT_OF_MEMORY") is None
    assert problem(None, None, "CudaSupportError: Error at driver init") is None
    # a compiler of the next major version: minor version compatibility does not reach it
    text = problem((12, 8), (9, 0), "")
    assert "from CUDA 13" in text and "numba-cuda[cu12]" in text and "Minor Version" not in text, text
    assert ns["newest_ptx"]((12, 4)) == (8, 4) and ns["newest_ptx"]((12, 6)) == (8, 5) and ns["newest_ptx"]((99, 0)) is None


# --- Part II: steps 11 and 12 --------------------------------------------------------------------

def test_part_one_builds_every_fp32_step_and_part_two_runs_the_rest():
    fp32 = [s.name for s in sgemm_steps.steps() if s.arithmetic == "FP32"]
    assert definitions(code_cell_defining("find_course"), ["STEPS"])["STEPS"] == fp32, \
        "section 3's table is not every FP32 step"
    assert [(s.number, s.arithmetic) for s in part_two()] == [(11, "TF32"), (12, "3xTF32")]
    cell = code_cell_defining("h100_part2")
    assert 'PART2 = [s for s in sgemm_steps.steps() if s.arithmetic != "FP32"]' in cell, \
        "Part II's cell does not take its steps from sgemm_steps.steps()"
    assert "except sgemm_steps.SgemmError" in cell and "sgemm_steps.bench(" in cell and "sgemm_steps.run(" in cell


def test_part_two_section_links_both_lessons_and_says_what_an_older_gpu_gets():
    cells = load()["cells"]
    heading = cell_with(cells, "## 8. Part II: tensor cores")
    assert heading["cell_type"] == "markdown"
    after = cells[cells.index(heading) + 1]
    assert after["cell_type"] == "code" and "def h100_part2" in source(after), "Part II's cell is not under its heading"
    text = source(heading)
    for lesson in ("steps/11_tensor_cores/README.md", "steps/12_3xtf32/README.md",
                   "docs/results/h100-80gb-hbm3.csv", "docs/results/precision_h100-80gb-hbm3.csv"):
        assert f"]({repository.blob(lesson)})" in text, f"Part II does not link {lesson}"
    for words in ("`arithmetic`", "`sm_80`", "`SgemmError`", "T4", "labelled as the H100's"):
        assert words in text, f"Part II does not say {words}"
    assert "section 8 shows the H100's results" in source(cells[0]), "the first cell does not say where Part II is"


# What common/run/step.h's require_arch() says for step 11 on a T4 (Python raises it as SgemmError)
T4_REFUSAL = "step11 needs TF32 tensor cores (sm_80 or newer); this GPU, Tesla T4, is sm_75"


@pytest.mark.parametrize("size, shown", [(2048, 2048), (4096, 4096), (1000, 2048)])
def test_part_two_on_an_older_gpu_shows_the_h100s_results_labelled_as_such(size, shown):
    ns = definitions(code_cell_defining("h100_part2"), ["h100_part2", "H100"])
    names = ["step10"] + [s.name for s in part_two()]
    text = ns["h100_part2"](names, size, RESULTS)
    with open(RESULTS / f"{ns['H100']}.csv", newline="") as f:
        bench = {r["step"]: r for r in csv.DictReader(f) if r["M"] == r["N"] == r["K"] == str(shown)}
    error = {r["method"]: r for r in precision_rows() if r["K"] == str(shown)}
    lines = text.splitlines()
    for name in names:  # each figure as the H100 measured it, on its step's line
        b, e = bench[name], error[name]
        row = next(l for l in lines if l.startswith(f"{name}  {b['arithmetic']} "))
        for figure in (f"{float(b['gflops']):,.0f}", f"{float(b['cublas_gflops']):,.0f}",
                       f"{float(b['cublas_tf32_gflops']):,.0f}", f"{float(b['pct_of_cublas_tf32']):.1f}"):
            assert f" {figure} " in row, f"{figure} not in {row!r}"
        row = next(l for l in lines if l.startswith(f"{name} ") and "e-" in l)
        assert f"{float(e['max']):.2e}" in row and f"{float(e['fro']):.2e}" in row, row
    for method in ("cublas_fp32", "cublas_tf32"):
        assert any(l.startswith(method) and f"{float(error[method]['max']):.2e}" in l for l in lines), method
    assert (f"; it has no {size}^3, so {shown}^3" in lines[0]) == (size != shown), lines[0]
    # as the cell prints it on a T4: the refusal, then these figures, labelled as the H100's
    printed = f"This GPU cannot run Part II: {T4_REFUSAL}\n\n{text}\n"
    assert part_two_problem(printed, 75, names[1:]) is None, part_two_problem(printed, 75, names[1:])

