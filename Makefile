# SGEMM on CUDA cores, one idea per step.  `make help` lists the targets.
#
#   make step05 && ./step05 4096      build one step and run it
#   make test                         every test (GPU tests skip themselves without a GPU)
#   make ARCH=sm_86 step05            build for another GPU than the one detected

NVCC      ?= nvcc
CUDA_HOME ?= $(patsubst %/bin/nvcc,%,$(realpath $(shell command -v $(NVCC))))
PYTHON    ?= python3
# a Python that has matplotlib, for make plots (Debian's python3-matplotlib is /usr/bin's)
PLOT_PYTHON ?= $(firstword $(foreach p,$(PYTHON) /usr/bin/python3,$(shell $(p) -c 'import matplotlib' 2>/dev/null && echo $(p))))
# a Python that has pytest and NumPy, for python/tests (Debian's python3-pytest, python3-numpy are /usr/bin's)
PYTEST_PYTHON ?= $(firstword $(foreach p,$(PYTHON) /usr/bin/python3,$(shell $(p) -c 'import pytest, numpy' 2>/dev/null && echo $(p))))
CATCH2_HPP ?= /usr/include/catch2/catch.hpp
# the folder holding catch2/catch.hpp, as an include path unless it is the system's own
CATCH2_ROOT := $(patsubst %/,%,$(dir $(patsubst %/,%,$(dir $(abspath $(CATCH2_HPP))))))
CATCH2_INC  := $(if $(filter /usr/include,$(CATCH2_ROOT)),,-isystem $(CATCH2_ROOT))

# The GPU architecture: the machine's GPU, or sm_90 (H100) when there is none.
ifeq ($(origin ARCH), undefined)
ARCH := $(shell sh tools/compile/detect_arch.sh)
endif

BUILD := build
OBJ   := $(BUILD)/$(ARCH)

STEP_DIRS := $(sort $(wildcard steps/[0-9][0-9]_*))
STEP_IDS  := $(foreach d,$(STEP_DIRS),$(firstword $(subst _, ,$(notdir $(d)))))
STEP_BINS := $(addprefix step,$(STEP_IDS))

# Warnings fail the build: the course is kept warning-free with the CUDA release CI uses. `make
# WERROR=` only prints them (the notebook builds so, on whatever CUDA release Colab has).
WERROR    ?= -Werror=all-warnings
NVCCFLAGS := -std=c++17 -O3 -arch=$(ARCH) -lineinfo -I. -Icommon -I$(BUILD) \
             -Xcompiler=-Wall,-Wextra $(WERROR) -MMD -MP
# Step 08's tile sizes: the header `make tune STEP=08` wrote for this architecture, if any.
STEP08_TUNED := $(wildcard steps/08_autotuning/tuned/$(ARCH).cuh)
NVCCFLAGS += $(if $(STEP08_TUNED),-DSTEP08_TUNED='"tuned/$(ARCH).cuh"')
LDLIBS    := -lcublas -Xlinker -rpath=$(CUDA_HOME)/lib64

# common/ in layers (common/README.md): errors.h, then device/, gpu/, launch/ and run/.
COMMON_SRC := $(wildcard common/*.cpp common/*.cu common/*/*.cpp common/*/*.cu)
COMMON_OBJ := $(patsubst common/%,$(OBJ)/common/%.o,$(COMMON_SRC))
COMMON_LIB := $(OBJ)/libsgemm_common.a

TEST_SRC  := $(wildcard tests/*.cpp tests/*.cu)
TEST_OBJ  := $(patsubst tests/%,$(OBJ)/tests/%.o,$(TEST_SRC))
TEST_BIN  := $(OBJ)/run_tests
# The exercises (steps/NN_name/exercise.cu, tools/exercises/exercise.py) build like the steps, but a
# warning is not an error there (work in progress), and the untouched skeleton leaves some
# variables unused (nvcc's warning 177).
# No -MMD (it would leave .d files beside ./stepNN_exercise): they depend on every header.
EXERCISE_FLAGS := $(filter-out $(WERROR) -MMD -MP,$(NVCCFLAGS)) -diag-suppress 177
COMMON_HEADERS := $(wildcard common/*.h common/*.cuh common/*/*.h common/*/*.cuh common/*/*.def)
# For the tests: each step's untouched exercise and the same with kernel.cuh's code pasted in.
EXERCISE_TEST_BINS := $(foreach n,$(STEP_IDS),$(OBJ)/exercises/step$(n)_skeleton $(OBJ)/exercises/step$(n)_solution)
TILE_SWEEP := $(OBJ)/tile_sweep
PEAK       := $(OBJ)/peak
PRECISION  := $(OBJ)/precision
TC_VARIANTS := $(OBJ)/tc_variants
ALIGNMENT  := $(OBJ)/alignment

.PHONY: all help ab print-nvccflags print-ldlibs test test-build test-run check-pages check-generated check-includes stride docs clean regs sanitize gpu-check results precision ncu tiles splitk thin ladder variants tc-variants cutlass power alignment spread warp-tile tune peak bench plots check-catch2 \
        exercise check-exercise student-copy diff python check-pytest FORCE
.DEFAULT_GOAL := all

all: $(STEP_BINS) $(TILE_SWEEP) $(PEAK)

help:
	@echo "make stepNN        build ./stepNN (steps: $(STEP_IDS))"
	@echo "make all           build every step"
	@echo "make test          host tests, and GPU tests when a GPU is present; its last line says what ran"
	@echo "make check-pages   only the page checks (generated figures, links, Chinese terms, budgets)"
	@echo "make check-includes  common/'s include rule: includes point down its layers, no cycle"
	@echo "make python        $(PY_LIB): every step for Python (python/README.md)"
	@echo "make diff STEP=NN [COMMENTS=1]  what changed in kernel.cuh since the step before (step names"
	@echo "                   made alike, comments hidden unless COMMENTS=1, coloured in a terminal)"
	@echo "make regs [ARCH=all]  registers, spills and shared memory per kernel (fails on spills), and"
	@echo "                   the configuration each step runs on ARCH (ARCH=all: every architecture)"
	@echo "make sanitize      compute-sanitizer memcheck/racecheck/synccheck/initcheck on every step"
	@echo "make docs          Doxygen site under $(BUILD)/docs (warnings fail)"
	@echo "make gpu-check OUT=DIR [TUNE=1]   the whole GPU validation, logs to DIR (TUNE=1: make tune first)"
	@echo "make ncu STEP=NN [SIZE=S]   Nsight Compute metrics of one step"
	@echo "make tiles         steps 03-10 at other tile sizes: registers, occupancy, GFLOP/s"
	@echo "make stride        Nsight Compute: steps 01 and 02 at 4096^3, 4095^3 and 4064^3 (caches, stalls)"
	@echo "make ladder        Nsight Compute: step 10 with 3 and 2 stages, unrolled 32, 16 and 8 steps, beside cuBLAS's kernel"
	@echo "make warp-tile     Nsight Compute: step 09's kernel with each block tile and warp shape (its lesson's control)"
	@echo "make tc-variants   steps 11 and 12 beside the configurations and variants their lab notes compare"
	@echo "make alignment     steps 10-12 at sizes not a multiple of 4: 4-byte copies against packing"
	@echo "make ab STEP=NN BEFORE=REV [LEVER=name]  step NN's kernel against its kernel.cuh of revision REV, in turns"
	@echo "make spread        steps 05-10 run 7 times each, round by round: the run-to-run spread of GFLOP/s"
	@echo "make variants      step 10 beside its variants that did not pay (one patch each), at 4096^3 and 8192^3"
	@echo "make splitk        step 10 with K split into 1-16 slices at few-tile shapes: time, model, the sum's cost"
	@echo "make thin          step 10 at thin shapes (M or N of 64-256): every configuration and split against cuBLAS"
	@echo "make cutlass       steps 11 and 12 beside CUTLASS's mma.sync TF32 and 3xTF32 GEMMs and both cuBLAS"
	@echo "                   modes at 4096^3 and 8192^3, into docs/results/cutlass_<gpu>.txt (CUTLASS from PyPI)"
	@echo "make power         the same methods run for seconds at 8192^3: the SM clock and power draw each ran at"
	@echo "                   under the GPU's power limit, into docs/results/power_<gpu>.txt"
	@echo "make precision     steps 10-12 and cuBLAS (FP32, TF32) against an FP64 product at K = 1-16384,"
	@echo "                   into docs/results/precision_<gpu>.csv (sm_80 and newer)"
	@echo "make peak          measure the GPU's FP32 FFMA rate, device-memory and shared-memory bandwidth"
	@echo "make tune STEP=08 [CLASS=sm_XX]  search step 08's tile sizes on this GPU (CLASS: for that smaller"
	@echo "                   GPU class), write its entry in steps/08_autotuning/tuned/$(ARCH).cuh"
	@echo "make bench [BUDGET=s]  every step and cuBLAS over sizes 256-8192 and non-square shapes, into docs/results"
	@echo "make bench CLASS=sm_XX  steps 08-10 as for that GPU class (SGEMM_GPU_CLASS), into docs/results"
	@echo "make bench COLD=1  every step and cuBLAS at 256-2048 with the L2 cache flushed before each timed launch"
	@echo "make plots [GPU=slug]  images/benchmark_<gpu>.png, roofline_<gpu>.png, shapes_<gpu>.png and step 08's"
	@echo "                   search 08_autotuning_tune_<arch>.png from docs/results"
	@echo "                   (default: every GPU with a results set there), and the tables"
	@echo "make check-generated  make plots again; fails if a committed picture or page changed (CI runs it)"
	@echo "make results       make bench, then every report, ncu table, make peak, tiles and plots into docs/results"
	@echo "make exercise STEP=NN        build ./stepNN_exercise from steps/NN_*/exercise.cu (a lab exercise)"
	@echo "make check-exercise STEP=NN  check it at every awkward shape: what is wrong, and a hint"
	@echo "make student-copy DEST=DIR [BLANK=\"03 05\"]  the repository without docs/answers/ (BLANK: those"
	@echo "                   steps' kernel.cuh with the exercise parts taken out too)"
	@echo "make clean         remove build outputs"
	@echo "ARCH=$(ARCH)  CUDA_HOME=$(CUDA_HOME)"

$(OBJ)/common/%.o: common/%
	@mkdir -p $(@D)
	$(NVCC) $(NVCCFLAGS) -c $< -o $@

$(COMMON_LIB): $(COMMON_OBJ)
	rm -f $@ && ar rcs $@ $^

# One rule set per step folder: steps/NN_name -> ./stepNN. `make regs` reads ptxas's resource
# report (registers, spills, shared memory) of the step's device code alone, built as a cubin:
# the same ptxas run as the object's, without the host compile and link it does not need.
define STEP_RULES
$(OBJ)/step$(1).o: $(2)/main.cu | $(OBJ)
	$(NVCC) $(NVCCFLAGS) --resource-usage -c $$< -o $$@ 2> $(OBJ)/step$(1).res; \
	  status=$$$$?; grep -v -e '^ptxas info' -e 'bytes stack frame' $(OBJ)/step$(1).res >&2; exit $$$$status
step$(1): $(OBJ)/step$(1).o $(COMMON_LIB) $(BUILD)/arch
	$(NVCC) $(NVCCFLAGS) -o $$@ $(OBJ)/step$(1).o $(COMMON_LIB) $(LDLIBS)
$(OBJ)/regs/step$(1).res: $(2)/main.cu | $(OBJ)/regs
	$(NVCC) $(NVCCFLAGS) -MT $$@ --resource-usage -cubin $$< -o $(OBJ)/regs/step$(1).cubin 2> $$@.tmp \
	  || { cat $$@.tmp >&2; rm -f $$@.tmp; exit 1; }; mv $$@.tmp $$@
endef
$(foreach d,$(STEP_DIRS),$(eval $(call STEP_RULES,$(firstword $(subst _, ,$(notdir $(d)))),$(d))))

# The exercise of each step folder: steps/NN_name/exercise.cu -> ./stepNN_exercise; and, for
# the tests, the untouched skeleton and the solution that tools/exercises/exercise.py generates.
define EXERCISE_RULES
step$(1)_exercise: $(2)/exercise.cu $(COMMON_LIB) $(COMMON_HEADERS) $(BUILD)/arch | $(OBJ)
	$(NVCC) $(EXERCISE_FLAGS) -I$(2) -o $$@ $$< $(COMMON_LIB) $(LDLIBS)
$(BUILD)/exercises/step$(1)_%.cu: $(2)/kernel.cuh tools/exercises/exercise.py | $(BUILD)/exercises
	$(PYTHON) tools/exercises/exercise.py $$* $(1) $$@
$(OBJ)/exercises/step$(1)_%: $(BUILD)/exercises/step$(1)_%.cu $(COMMON_LIB) $(COMMON_HEADERS) | $(OBJ)/exercises
	$(NVCC) $(EXERCISE_FLAGS) -I$(2) -o $$@ $$< $(COMMON_LIB) $(LDLIBS)
endef
$(foreach d,$(STEP_DIRS),$(eval $(call EXERCISE_RULES,$(firstword $(subst _, ,$(notdir $(d)))),$(d))))
.SECONDARY: $(foreach n,$(STEP_IDS),$(BUILD)/exercises/step$(n)_skeleton.cu $(BUILD)/exercises/step$(n)_solution.cu)

exercise:
	@case " $(STEP_IDS) " in *" $(STEP) "*) ;; *) echo "usage: make $(or $(filter check-exercise,$(MAKECMDGOALS)),exercise) STEP=NN   (NN: $(STEP_IDS))"; exit 2;; esac
	@$(MAKE) --no-print-directory step$(STEP)_exercise

# Without a GPU the exercise compiled but nothing was checked: the program stops with exit status
# 2 and its `no usable CUDA device` line, and one more line says so and where to read on; the
# status stays 2. The program writes to stderr only as it stops, so holding stderr back to read
# it moves nothing out of order.
check-exercise: exercise
	@echo ./step$(STEP)_exercise --check; err=$$(mktemp) || exit 2; \
	  ./step$(STEP)_exercise --check 2> "$$err"; status=$$?; cat "$$err" >&2; \
	  if [ $$status -eq 2 ] && grep -q 'no usable CUDA device' "$$err"; then \
	    echo "step$(STEP)_exercise compiled; checking it needs a GPU: see docs/teaching.md, \"Without a GPU\"" >&2; fi; \
	  rm -f "$$err"; exit $$status

# The change from step NN-1 to step NN in kernel.cuh (tools/pages/kernel_diff.py): names that
# differ only by the step number made alike, comments left out unless COMMENTS=1.
diff:
	@test -n "$(STEP)" || { echo "usage: make diff STEP=NN [COMMENTS=1]   (NN: $(STEP_IDS))"; exit 2; }
	@$(PYTHON) tools/pages/kernel_diff.py $(STEP) $(if $(COMMENTS),--comments) $(if $(COLOR),--color $(COLOR))

student-copy:
	@test -n "$(DEST)" || { echo "usage: make student-copy DEST=DIR [BLANK=\"03 05\"]"; exit 2; }
	$(PYTHON) tools/exercises/exercise.py student-copy $(DEST) $(if $(BLANK),--blank $(BLANK))

# The steps from Python (python/README.md): one shared library with every step's kernel.cuh
# (python/sgemm_steps/capi.cu includes them through build/steps_registry.h) and common/'s
# sources compiled again as position-independent code, which a shared library needs.
PY_LIB     := $(OBJ)/libsgemm_steps.so
PY_PIC_OBJ := $(patsubst common/%,$(OBJ)/pic/common/%.o,$(COMMON_SRC))
PIC        := -Xcompiler -fPIC

python: $(PY_LIB)

$(OBJ)/pic/common/%.o: common/%
	@mkdir -p $(@D)
	$(NVCC) $(NVCCFLAGS) $(PIC) -c $< -o $@

$(OBJ)/pic/capi.o: python/sgemm_steps/capi.cu $(BUILD)/steps_registry.h | $(OBJ)/pic
	$(NVCC) $(NVCCFLAGS) $(PIC) -DSGEMM_BUILT_ARCH='"$(ARCH)"' -c $< -o $@

$(PY_LIB): $(OBJ)/pic/capi.o $(PY_PIC_OBJ)
	$(NVCC) $(NVCCFLAGS) -shared -o $@ $^ $(LDLIBS)

# The architecture the ./stepNN binaries in the root were linked for: rewritten when ARCH
# changes, so `make ARCH=sm_86 step01` followed by `make step01` relinks for the default.
$(BUILD)/arch: FORCE | $(BUILD)
	@echo $(ARCH) | cmp -s - $@ || echo $(ARCH) > $@

# The list of steps the tests cover, rewritten only when the set of step folders changes.
$(BUILD)/steps_registry.h: FORCE | $(BUILD)
	@sh tools/compile/gen_registry.sh $(STEP_DIRS) > $@.$$$$.tmp; \
	  if cmp -s $@.$$$$.tmp $@; then rm $@.$$$$.tmp; else mv $@.$$$$.tmp $@; fi

$(OBJ)/tests/%.o: tests/% $(BUILD)/steps_registry.h | $(OBJ)/tests check-catch2
	$(NVCC) $(NVCCFLAGS) $(CATCH2_INC) -DSGEMM_ROOT='"$(CURDIR)"' \
	  -DSGEMM_EXERCISES='"$(OBJ)/exercises"' -c $< -o $@

$(TEST_BIN): $(TEST_OBJ) $(COMMON_LIB)
	$(NVCC) $(NVCCFLAGS) -o $@ $^ $(LDLIBS)

check-catch2:
	@test -f $(CATCH2_HPP) || { \
	  echo "make test needs Catch2 v2, whose single header $(CATCH2_HPP) is missing."; \
	  if [ -f /usr/include/catch2/catch_all.hpp ]; then \
	    echo "Catch2 v3 is installed, and the tests are written for v2: put v2's catch.hpp in a folder"; \
	    echo "catch2/ and run: make test CATCH2_HPP=/that/folder/catch2/catch.hpp"; \
	  else \
	    echo "Install it with: sudo apt-get install catch2   (Debian 12, Ubuntu 22.04: Catch2 v2)"; \
	    echo "or point CATCH2_HPP at v2's catch.hpp: make test CATCH2_HPP=/path/to/catch2/catch.hpp"; \
	  fi; exit 2; }

# make test builds on every core unless the command line says -j itself, and ends with one
# line saying how long it took.
NPROC := $(shell nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
TEST_JOBS = $(if $(filter -j%,$(MAKEFLAGS)),,-j$(NPROC))
# The last line says what ran and what was skipped, and why (tools/validate/test_summary.py
# reads the run's log, $(BUILD)/test.log).
test: check-catch2 check-pytest
	@mkdir -p $(BUILD); start=$$(date +%s); \
	{ $(MAKE) --no-print-directory $(TEST_JOBS) test-build && $(MAKE) --no-print-directory test-run; \
	  echo $$? > $(BUILD)/test.status; } 2>&1 | tee $(BUILD)/test.log; \
	status=$$(cat $(BUILD)/test.status); \
	$(PYTHON) tools/validate/test_summary.py $(BUILD)/test.log $$status $$(( $$(date +%s) - start )) \
	  "$(or $(TEST_JOBS),the -j given)"; \
	exit $$status

test-build: $(STEP_BINS) $(TEST_BIN) $(EXERCISE_TEST_BINS) $(PY_LIB)

test-run: check-pages
	$(PYTHON) tools/compile/check_includes.py
	$(TEST_BIN)
	SGEMM_STEPS_LIB=$(CURDIR)/$(PY_LIB) $(PYTEST_PYTHON) -m pytest -q -rs python/tests

# The checks of the pages and of what is generated into them (no build, no GPU): every table and
# figure matches docs/results/, no measured figure typed by hand, links, twins and Chinese terms,
# lesson budgets, the repository's URL, the exercises and the variants in step with kernel.cuh.
PAGE_CHECKS := "tools/pages/results_table.py --check" tools/pages/check_docs.py tools/pages/check_figures.py \
               "tools/pages/lesson_words.py --check" "tools/pages/repository.py --check" \
               "tools/exercises/exercise.py check" "tools/measure/variants.py --check"
check-pages:
	@n=0; for c in $(PAGE_CHECKS); do echo "$(PYTHON) $$c"; $(PYTHON) $$c || exit 1; n=$$((n + 1)); done; \
	  echo "page checks: $$n passed"

# common/'s include rule (common/README.md): every include points down its layers, no cycle.
check-includes:
	$(PYTHON) tools/compile/check_includes.py

check-pytest:
	@test -n "$(PYTEST_PYTHON)" || { \
	  echo "make test runs python/tests with pytest and NumPy, and no Python here has both"; \
	  echo "($(PYTHON), /usr/bin/python3). Install them: apt-get install python3-pytest python3-numpy"; \
	  echo "or: $(PYTHON) -m pip install pytest numpy   (or name a Python that has them: make test PYTEST_PYTHON=...)"; \
	  exit 2; }

# Every architecture this CUDA release compiles for: common/gpu/archs.def, the one list that
# common/gpu/gpu.h's table reads too.
SUPPORTED_ARCHS := $(shell sed -n 's/^SGEMM_ARCH.\([0-9]*\),.*/sm_\1/p' common/gpu/archs.def)
CONFIGS := $(OBJ)/configs

ifeq ($(ARCH),all)
# make regs ARCH=all: every architecture (steps built, spills checked, configurations listed),
# as many at once as there are cores (or as -j says), each into build/regs_ARCH.log; the listing
# kept in docs/results/configs_by_arch.txt. Fails if any one fails, after all have run.
REGS_EACH := $(addprefix regs-,$(SUPPORTED_ARCHS))
regs: $(BUILD)/steps_registry.h
	@status=0; $(MAKE) --no-print-directory -k $(TEST_JOBS) $(REGS_EACH) || status=1; \
	{ echo "# make regs ARCH=all: the configuration each step runs on each architecture (* = chosen),"; \
	  echo "# from common/gpu/archs.def's table and each architecture's ptxas registers. No GPU measured this."; \
	  for a in $(SUPPORTED_ARCHS); do sed -n '/^sm_[0-9]* (/,$$p' $(BUILD)/regs_$$a.log | grep -v '^OK:'; done; } \
	  > docs/results/configs_by_arch.txt; \
	echo "wrote docs/results/configs_by_arch.txt"; exit $$status
$(REGS_EACH): regs-%:
	@$(MAKE) --no-print-directory regs ARCH=$* > $(BUILD)/regs_$*.log 2>&1; status=$$?; \
	  tail -n 1 $(BUILD)/regs_$*.log; exit $$status
else
# Registers, spills and shared memory of every step kernel for ARCH (fails on a spill), then
# which configuration each step runs on a GPU of ARCH (fails if one has none that fits).
regs: $(addprefix $(OBJ)/regs/,$(addsuffix .res,$(STEP_BINS))) $(CONFIGS)
	@sh tools/compile/regs.sh $(ARCH) $(addprefix $(OBJ)/regs/,$(addsuffix .res,$(STEP_BINS))) > $(OBJ)/regs.log; \
	  status=$$?; sed '$$d' $(OBJ)/regs.log; $(CONFIGS) $(ARCH) $(OBJ)/regs/regs.txt || status=1; \
	  tail -n 1 $(OBJ)/regs.log; exit $$status
endif

# configs runs on the host only: its device code (every step's kernels, through the registry) is
# never launched, so it is compiled without optimization, four times faster.
$(CONFIGS): tools/compile/configs.cu $(COMMON_LIB) $(BUILD)/steps_registry.h | $(OBJ)
	$(NVCC) $(NVCCFLAGS) -Xcicc -O0 -Xptxas -O0 -o $@ $< $(COMMON_LIB) $(LDLIBS)

sanitize: $(STEP_BINS) $(TEST_BIN)
	sh tools/validate/sanitize.sh --tests $(TEST_BIN) $(STEP_BINS)

gpu-check:
	@test -n "$(OUT)" || { echo "usage: make gpu-check OUT=DIR [TUNE=1]"; exit 2; }
	TUNE=$(TUNE) sh tools/validate/gpu_check.sh $(OUT)

# Only step 08 has a search; its result is a header the step includes for this ARCH.
tune: $(COMMON_LIB)
	@test "$(STEP)" = 08 || { echo "usage: make tune STEP=08 [CLASS=sm_XX]   (step 08 is the step whose tile sizes are searched)"; exit 2; }
	$(PYTHON) tools/measure/tune.py --arch $(ARCH) $(if $(CLASS),--gpu-class $(CLASS))

# Every step with cuBLAS over a sweep of shapes, with progress; DIR/<gpu>.csv and .meta.json.
bench: $(STEP_BINS)
	$(PYTHON) tools/measure/bench.py docs/results $(if $(BUDGET),--budget $(BUDGET)) \
	  $(if $(CLASS),--gpu-class $(CLASS) --steps 08 09 10 --shapes 512 1024 2048 4096 8192 4095 8192x1024x4096 1024x1024x8192) \
	  $(if $(COLD),--cold-l2 --shapes 256 512 1024 2048)

# The pictures of docs/results (matplotlib), then the tables in the Markdown pages.
plots:
	@test -n "$(PLOT_PYTHON)" || { echo "make plots needs matplotlib: sudo apt-get install python3-matplotlib"; exit 2; }
	$(PLOT_PYTHON) tools/pages/plots.py $(GPU)

# make plots again, failing if it changed a committed picture or page (tools/validate/check_generated.sh).
check-generated:
	@test -n "$(PLOT_PYTHON)" || { echo "make check-generated needs matplotlib: sudo apt-get install python3-matplotlib"; exit 2; }
	@sh tools/validate/check_generated.sh $(MAKE)

results: bench $(PEAK)
	sh tools/measure/save_reports.sh docs/results
	$(MAKE) plots

# The site is written afresh: Doxygen leaves the pages of renamed files behind, and their links fail.
docs: | $(BUILD)
	rm -rf $(BUILD)/docs
	doxygen docs/Doxyfile
	@echo "make docs: the site is $(CURDIR)/build/docs/html/index.html"
	$(PYTHON) tools/pages/check_site.py build/docs/html

$(BUILD) $(OBJ) $(OBJ)/tests $(OBJ)/exercises $(BUILD)/exercises $(OBJ)/pic $(OBJ)/regs:
	mkdir -p $@

clean:
	rm -rf $(BUILD) $(addprefix step,$(STEP_IDS)) $(addsuffix _exercise,$(addprefix step,$(STEP_IDS)))


# Steps 03-06 at other tile configurations than the ones they ship with (tools/measure/tile_sweep.cu).
$(TILE_SWEEP): tools/measure/tile_sweep.cu $(COMMON_LIB) | $(OBJ)
	$(NVCC) $(NVCCFLAGS) -o $@ $< $(COMMON_LIB) $(LDLIBS)

tiles: $(TILE_SWEEP)
	$(TILE_SWEEP)

# Step 10 with K cut into 1 to 16 slices: time, the wave model's estimate, the sum's own time.
splitk: $(TILE_SWEEP)
	$(TILE_SWEEP) splitk

# Step 10 at thin shapes (M or N of 64, 128, 256): every configuration, K cut into 1 to 16 slices.
thin: $(TILE_SWEEP)
	$(TILE_SWEEP) thin

# Nsight Compute's counters for step 10 unrolled 32, 16 and 8 steps, beside cuBLAS's kernel.
ladder: $(TILE_SWEEP)
	sh tools/profile/ladder.sh $(ARCH)

# Step 09's kernel with each block tile and each warp shape under Nsight Compute (tools/profile/warp_tile.sh).
warp-tile: $(TILE_SWEEP)
	sh tools/profile/warp_tile.sh $(ARCH)

# Steps 01 and 02 under Nsight Compute at 4096^3, 4095^3 and 4064^3: what the row stride costs.
stride: step01 step02
	sh tools/profile/stride.sh

# Step 10 beside the variants of it that did not pay, each one patch (tools/measure/variants/).
variants: $(COMMON_LIB)
	$(PYTHON) tools/measure/variants.py --arch $(ARCH) --build $(OBJ) --nvcc "$(NVCC)" \
		--flags "$(NVCCFLAGS)" --lib $(COMMON_LIB) --ldlibs "$(LDLIBS)"

$(PEAK): tools/measure/peak.cu $(COMMON_LIB) | $(OBJ)
	$(NVCC) $(NVCCFLAGS) -o $@ $< $(COMMON_LIB) $(LDLIBS)

# The GPU's measured ceilings: FP32 FFMA rate, device-memory and shared-memory bandwidth, and
# the mma.sync TF32 rate (sm_80 and newer).
peak: $(PEAK)
	$(PEAK)

$(PRECISION): tools/measure/precision.cu tools/measure/fp64_reference.cuh $(COMMON_LIB) | $(OBJ)
	$(NVCC) $(NVCCFLAGS) -o $@ $< $(COMMON_LIB) $(LDLIBS)

$(TC_VARIANTS): tools/measure/tc_variants.cu tools/measure/tc_variants.cuh $(COMMON_LIB) | $(OBJ)
	$(NVCC) $(NVCCFLAGS) -o $@ $< $(COMMON_LIB) $(LDLIBS)

# Steps 11 and 12 beside the variants of their kernel (lab notes); also their Nsight Compute counters.
tc-variants: $(TC_VARIANTS)
	sh tools/measure/save_tc_variants.sh $(TC_VARIANTS) docs/results

$(ALIGNMENT): tools/measure/alignment.cu $(COMMON_LIB) | $(OBJ)
	$(NVCC) $(NVCCFLAGS) -o $@ $< $(COMMON_LIB) $(LDLIBS)

# Steps 10-12 at sizes that are not multiples of 4: 4-byte copies against packing (docs/alignment.md).
alignment: $(ALIGNMENT)
	sh tools/measure/save_alignment.sh $(ALIGNMENT) docs/results

# The run-to-run spread of steps 05-10 (tools/measure/save_spread.sh): docs/results/spread_<gpu>.txt.
spread: $(STEP_BINS)
	sh tools/measure/save_spread.sh docs/results

# Steps 11 and 12 beside CUTLASS's mma.sync TF32 and 3xTF32 GEMMs and both cuBLAS modes, in one
# process (tools/measure/cutlass_compare.cu). CUTLASS's headers come from PyPI's nvidia-cutlass
# package into build/cutlass (tools/measure/get_cutlass.py), never into the repository; its
# headers' own warnings do not fail this build.
CUTLASS_VERSION := 4.2.0.0
CUTLASS_INC     := $(BUILD)/cutlass/include
CUTLASS_COMPARE := $(OBJ)/cutlass_compare
$(CUTLASS_INC)/cutlass/cutlass.h:
	$(PYTHON) tools/measure/get_cutlass.py $(CUTLASS_VERSION) $(BUILD)/cutlass
$(CUTLASS_COMPARE): tools/measure/cutlass_compare.cu tools/measure/fp64_reference.cuh $(COMMON_LIB) | $(CUTLASS_INC)/cutlass/cutlass.h $(OBJ)
	$(NVCC) $(filter-out $(WERROR),$(NVCCFLAGS)) -isystem $(CUTLASS_INC) -o $@ $< $(COMMON_LIB) $(LDLIBS)

# The flags a step is compiled and linked with, for a script that builds a step's other version
# (tools/measure/ab.sh).
print-nvccflags:
	@echo $(filter-out -MMD -MP,$(NVCCFLAGS))
print-ldlibs:
	@echo $(LDLIBS)

# One lever, measured: STEP's kernel.cuh of now against the one of git revision BEFORE, timed in
# turns beside cuBLAS FP32 (tools/measure/ab.sh), into docs/results/ab_stepNN[_LEVER]_<gpu>.txt.
ab:
	@test -n "$(STEP)" && test -n "$(BEFORE)" || { echo "usage: make ab STEP=NN BEFORE=REV   (REV: a git revision)"; exit 2; }
	@mkdir -p $(BUILD)/ab && git show $(BEFORE):$$(ls -d steps/$(STEP)_*)/kernel.cuh > $(BUILD)/ab/kernel_before.cuh
	LEVER=$(LEVER) sh tools/measure/ab.sh $(STEP) $(BUILD)/ab/kernel_before.cuh "$$(git rev-parse --short=12 $(BEFORE))" docs/results

cutlass: $(CUTLASS_COMPARE)
	sh tools/measure/save_table.sh cutlass $(CUTLASS_COMPARE) docs/results
	sh tools/profile/ncu_cutlass.sh $(CUTLASS_COMPARE) docs/results

# The same methods under a sustained load: the clock and power draw each runs at (tools/measure/save_power.sh).
power: $(CUTLASS_COMPARE)
	sh tools/measure/save_power.sh $(CUTLASS_COMPARE) docs/results

# The error of steps 10-12 and of cuBLAS in both modes against an FP64 product (docs/precision.md).
precision: $(PRECISION)
	sh tools/measure/save_table.sh precision $(PRECISION) docs/results

# STEP=NN profiles ./stepNN; STEP=NN_exercise profiles the exercise.
ncu:
	@test -n "$(STEP)" || { echo "usage: make ncu STEP=NN [SIZE=S]   (or STEP=NN_exercise)"; exit 2; }
	@$(MAKE) --no-print-directory step$(STEP)
	sh tools/profile/ncu.sh $(STEP) $(SIZE) > $(BUILD)/ncu_step$(STEP).txt 2>&1; status=$$?; \
	  $(PYTHON) tools/profile/ncu_table.py < $(BUILD)/ncu_step$(STEP).txt; \
	  echo "(ncu's own output: $(BUILD)/ncu_step$(STEP).txt)"; exit $$status

# A source file that moved (tools/*.cu went into tools/measure/ and tools/compile/) is still
# named by the dependency files of an older build; -MP covers headers, not the file compiled.
# Such a name is taken as changed, so its target is rebuilt instead of make stopping at
# "No rule to make target".
$(addprefix tools/,tile_sweep.cu peak.cu configs.cu tune_step08.cu):
	@:

-include $(COMMON_OBJ:.o=.d) $(PY_PIC_OBJ:.o=.d) $(OBJ)/pic/capi.d $(TEST_OBJ:.o=.d) $(addprefix $(OBJ)/,$(addsuffix .d,$(STEP_BINS))) $(addprefix $(OBJ)/regs/,$(addsuffix .d,$(STEP_BINS))) $(TILE_SWEEP).d $(PEAK).d $(PRECISION).d $(TC_VARIANTS).d $(ALIGNMENT).d $(CONFIGS).d $(CUTLASS_COMPARE).d
