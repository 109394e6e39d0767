# breakeven — hand-written Makefile.
#
#   make            build ./breakeven
#   make check      install missing packages, build, run every test
#   make report     install missing packages, build, run the default sweep, write out/
#   make bench      side-by-side speed ratios (ours vs OpenBLAS)
#   make bench-compare  the power study of `compare` on real runs of this machine
#                   (docs/compare.md; its runs are cached in build/bench-compare/)
#   make bench-torch breakeven's torch:cpu beside torch.utils.benchmark's
#                   Timer on the same step (docs/benchmarks.md)
#   make bench-torch-blas  PyTorch alone with its default BLAS threads, one
#                   BLAS thread and OpenBLAS's OpenMP build (docs/devices.md)
#   make bench-ab   the power of the paired command `ab` on real runs of real
#                   changes of known size (docs/compare.md; build/bench-ab/)
#   make bench-sharpness  N default runs back to back into one OUT (BENCH_RUNS,
#                   3), after BENCH_WARM (2) not analysed, so that the runs
#                   learn their run-to-run band from the archive: per
#                   device the share of uninformative intervals, their median
#                   hi/lo, summaries on a contradicted minority, cross-run
#                   coverage (docs/statistics.md)
#   make bench-alone  each device's time alone against the interleaved sweep
#                   (docs/statistics.md: no library slows another)
#   make bench-history  whether the history finds the step compare finds, on
#                   real series with a slower BLAS interposed (docs/compare.md;
#                   build/bench-history/)
#   make bench-archive  reports of archives of 100 and 1,000 runs, timed
#   make fuzz       fuzz every parser (FUZZ_SECONDS each, default 600, one core)
#   make deps       install the Debian packages pkg-config cannot find
#   make install    PREFIX=/usr/local DESTDIR=
#   make clean
#
# SANITIZE=address,undefined builds everything with those sanitizers, in a
# separate object directory (build-san/) so the two never mix.

PREFIX  ?= /usr/local
DESTDIR ?=
CC      ?= cc
PKGS    := openblas OpenCL cairo libxml-2.0 libxslt zlib
TESTPKGS := cmocka

BUILD   := build$(if $(SANITIZE),-san)
# Messages and names are cut to their buffers on purpose, so truncation is no error.
WARN    := -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion \
           -Wmissing-prototypes -Wstrict-prototypes -Werror -Wno-format-truncation
CFLAGS  ?= -O2 -g
SANFLAGS := $(if $(SANITIZE),-fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all)
# Where `make install` puts templates/ and assets/; the report looks there
# after $BREAKEVEN_DATA and the executable's own directory.
DATADIR := $(PREFIX)/share/breakeven
MANDIR  := $(PREFIX)/share/man/man1
ALL_CFLAGS = -std=c11 $(WARN) $(CFLAGS) $(SANFLAGS) -MMD -MP $(addprefix -I,$(SRCDIRS)) -I$(BUILD) \
             $(shell pkg-config --cflags $(PKGS))
LIBS     = $(shell pkg-config --libs $(PKGS)) -lm
TESTLIBS = $(shell pkg-config --libs $(TESTPKGS))

# src/ holds a folder per stage of the pipeline, bottom to top, and the
# commands on top (docs/layout.md); tests/layers checks that each calls only
# the stages below.  Every header is found by its name alone.
STAGES  := base machine results measure analyse answers figures pages
SRCDIRS := src $(addprefix src/,$(STAGES))
SRC     := $(filter-out src/main.c,$(wildcard $(addsuffix /*.c,$(SRCDIRS))))
OBJ     := $(addprefix $(BUILD)/,$(notdir $(SRC:.c=.o))) $(BUILD)/embed.o
EMBED   := src/results/results.rng $(wildcard kernels/*.cl)
# The files of modules given by name, wherever their stage keeps them.
srcof    = $(foreach m,$(1),$(firstword $(wildcard $(addsuffix /$(m).c,$(SRCDIRS)))))
vpath %.c $(addprefix src/,$(STAGES)) src
BIN     := $(if $(SANITIZE),$(BUILD)/breakeven,breakeven)
TESTS   := $(BUILD)/test_unit $(BUILD)/test_hostile $(BUILD)/test_fit $(BUILD)/test_chart \
           $(BUILD)/test_cl $(BUILD)/test_report $(BUILD)/test_xover $(BUILD)/test_synth \
           $(BUILD)/test_e2e $(BUILD)/test_telemetry $(BUILD)/test_faults $(BUILD)/test_signals \
           $(BUILD)/test_net $(BUILD)/test_archive $(BUILD)/test_decide $(BUILD)/test_share \
           $(BUILD)/test_devices $(BUILD)/test_stack

# Debian packages: what `make deps` installs when pkg-config misses something.
# clang and its runtimes (libFuzzer) are for `make fuzz` only, clang-format
# for the format check of `make check`, cmark-gfm for the hostile tests
# (summary.md rendered as GitHub renders it), python3-jsonschema for
# tests/test_dash (Bencher's BMF schema), python3-torch for the device torch:cpu
# (devices/torch_adapter.py, tests/test_devices).
DEBS := pkg-config libopenblas-dev ocl-icd-opencl-dev opencl-headers pocl-opencl-icd \
        libcairo2-dev libxml2-dev libxslt1-dev zlib1g-dev libcmocka-dev fonts-dejavu-core valgrind \
        clang libclang-rt-14-dev clang-format cmark-gfm python3-onnx python3-jsonschema \
        python3-torch

# The fuzzers, one per parser of untrusted input (tests/fuzz/fuzz_NAME.c),
# each with what it links, built by clang with libFuzzer, ASan and UBSan:
#   results   the results loader (RESULTS_LOAD_SRC: XML, schema, sense checks)
#   siteconf  OUT/site.conf and prices files (infile.c's text check, site.c,
#             price.c)
#   compare   what reads loaded runs: compare (text, Markdown, JSON), the
#             exports (summary.md, results.json, CSV) and the history
#   netlist   --net-file and --net values (net.c)
#   cache     the report's cache entries in OUT/.cache (cache.c), sealed
#             with a valid checksum so that the parsing behind it is reached
# `make fuzz` runs each for FUZZ_SECONDS; `make check` splits
# FUZZ_CHECK_SECONDS among them.
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 600
FUZZ_CHECK_SECONDS ?= 60
FUZZ_DIR     := build-fuzz
FUZZERS      := results siteconf compare netlist cache
# the results loader's files, which every fuzzer that loads results links
RESULTS_LOAD_SRC := $(call srcof,results_load results_xml results_read results_schema results_check)
FUZZ_SRC_results  := $(call srcof,results results_write devinfo utf8 err fsx infile fmt stats net gz) \
                                  $(RESULTS_LOAD_SRC)
FUZZ_SRC_siteconf := $(call srcof,site price fmt utf8 err fsx infile grow)
FUZZ_SRC_netlist  := $(call srcof,net infile utf8 err fsx)
FUZZ_SRC_cache    := $(call srcof,cache results results_write devinfo utf8 err fsx infile fmt stats net gz) \
                                  $(RESULTS_LOAD_SRC)
FUZZ_SRC_compare  := $(call srcof,cachehop changes chart png compare compare_gate compare_lost compare_pair \
                                  compare_prov compare_run csv devinfo err export dash archive \
                                  runcharts figure figure_bars figure_curves figure_history \
                                  figure_map figure_net findings fit fit_cross fit_words fmt fsx \
                                  history host infile json list net netfit prose prose_run \
                                  prose_warn query query_ratio telemetry results results_write rng stats utf8 \
                                  workload xover gz) $(RESULTS_LOAD_SRC)
# the seeds and every input that once failed, per fuzzer
FUZZ_CORPUS_results  := tests/fuzz/corpus
FUZZ_CORPUS_siteconf := tests/fuzz/corpus-siteconf
FUZZ_CORPUS_compare  := tests/fuzz/corpus-compare
FUZZ_CORPUS_netlist  := tests/fuzz/corpus-netlist
FUZZ_CORPUS_cache    := tests/fuzz/corpus-cache
FUZZ_DICT_results  := tests/fuzz/results.dict
FUZZ_DICT_siteconf := tests/fuzz/siteconf.dict
FUZZ_DICT_compare  := tests/fuzz/results.dict
FUZZ_DICT_netlist  := tests/fuzz/netlist.dict
FUZZ_DICT_cache    := tests/fuzz/cache.dict

.PHONY: all check test test-programs fuzzers report bench bench-compare bench-ab bench-history bench-torch \
        bench-torch-blas bench-sharpness bench-alone \
        bench-archive fuzz deps install clean format format-check FORCE
.DELETE_ON_ERROR:

all: $(BIN)

$(BIN): $(BUILD)/main.o $(BUILD)/libbreakeven.a
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/libbreakeven.a: $(OBJ)
	rm -f $@
	ar rcs $@ $^

$(BUILD)/%.o: %.c | $(BUILD) $(BUILD)/commit.h $(BUILD)/datadir.h
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/%.o: tests/%.c | $(BUILD)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

# The schema and the OpenCL kernels are compiled into the binary, so it
# runs from any directory; each file becomes `const char embed_<name>[]`.
$(BUILD)/embed.c: $(EMBED) | $(BUILD)
	{ for f in $(EMBED); do \
	    n=$$(basename $$f | tr -c 'a-zA-Z0-9\n' '_'); \
	    echo "extern const char embed_$$n[]; const char embed_$$n[] = {"; \
	    od -An -v -tx1 $$f | sed 's/ *\([0-9a-f][0-9a-f]\)/(char)0x\1,/g'; \
	    echo "0x00};"; \
	  done; } > $@

$(BUILD)/embed.o: $(BUILD)/embed.c
	$(CC) $(ALL_CFLAGS) -Wno-pedantic -c -o $@ $<

# Rewritten only when the commit changes, so a rebuild stays incremental.
$(BUILD)/commit.h: FORCE | $(BUILD)
	@c=$$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown); \
	 [ -z "$$(git status --porcelain --untracked-files=no 2>/dev/null)" ] || c="$$c-dirty"; \
	 l="#define BE_COMMIT \"$$c\""; \
	 [ -f $@ ] && [ "$$(cat $@)" = "$$l" ] || echo "$$l" > $@

# Where the installed templates are; rewritten only when PREFIX changes, so
# that `make install PREFIX=...` rebuilds what depends on it.
$(BUILD)/datadir.h: FORCE | $(BUILD)
	@l="#define BE_DATADIR \"$(DATADIR)\""; \
	 [ -f $@ ] && [ "$$(cat $@)" = "$$l" ] || echo "$$l" > $@

$(BUILD):
	mkdir -p $@

$(BUILD)/test_unit: $(BUILD)/test_unit.o $(BUILD)/libbreakeven.a
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LIBS) $(TESTLIBS)

$(BUILD)/test_hostile: $(BUILD)/test_hostile.o $(BUILD)/libbreakeven.a
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LIBS) $(TESTLIBS)

# Fault injection: breakeven's own calls of these functions go through the
# test's injectors (tests/test_faults.c).
FAULT_WRAP := -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=strdup,--wrap=write \
              -Wl,--wrap=fsync,--wrap=rename,--wrap=renameat
$(BUILD)/test_faults: $(BUILD)/test_faults.o $(BUILD)/libbreakeven.a
	$(CC) $(ALL_CFLAGS) $(FAULT_WRAP) -o $@ $^ $(LIBS) $(TESTLIBS)

$(BUILD)/test_signals: $(BUILD)/test_signals.o $(BUILD)/libbreakeven.a
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LIBS) $(TESTLIBS)

# test_e2e and tests/bench_ab make one side of `ab` slower with a real
# slower BLAS in front of OpenBLAS (tests/slowblas.c, through LD_PRELOAD;
# a plain build, as it is loaded into a plain or a sanitized breakeven).
$(BUILD)/test_e2e: $(BUILD)/test_e2e.o $(BUILD)/libbreakeven.a $(BUILD)/libslowblas.so
	$(CC) $(ALL_CFLAGS) -o $@ $(BUILD)/test_e2e.o $(BUILD)/libbreakeven.a $(LIBS) $(TESTLIBS)

$(BUILD)/libslowblas.so: tests/slowblas.c | $(BUILD)
	$(CC) -std=c11 $(WARN) -O2 -shared -fPIC $(shell pkg-config --cflags openblas) -o $@ $< -ldl

# test_devices runs the reference adapter of the device protocol, a plain
# program of its own beside it (docs/devices.md).
$(BUILD)/test_devices: $(BUILD)/test_devices.o $(BUILD)/libbreakeven.a $(BUILD)/ref_adapter
	$(CC) $(ALL_CFLAGS) -o $@ $(BUILD)/test_devices.o $(BUILD)/libbreakeven.a $(LIBS) $(TESTLIBS)

$(BUILD)/ref_adapter: tests/ref_adapter.c | $(BUILD)
	$(CC) -std=c11 $(WARN) -O2 -o $@ $< -lm -pthread

$(BUILD)/test_fit: $(BUILD)/test_fit.o $(BUILD)/libbreakeven.a
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LIBS) $(TESTLIBS)

$(BUILD)/test_chart: $(BUILD)/test_chart.o $(BUILD)/libbreakeven.a
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LIBS) $(TESTLIBS)

$(BUILD)/test_report: $(BUILD)/test_report.o $(BUILD)/libbreakeven.a
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LIBS) $(TESTLIBS)

$(BUILD)/test_stack: $(BUILD)/test_stack.o $(BUILD)/libbreakeven.a
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LIBS) $(TESTLIBS)

$(BUILD)/test_archive: $(BUILD)/test_archive.o $(BUILD)/libbreakeven.a
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LIBS) $(TESTLIBS)

$(BUILD)/test_share: $(BUILD)/test_share.o $(BUILD)/libbreakeven.a
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LIBS) $(TESTLIBS)

# test_telemetry loads the fake NVML beside it (a plain build: it is
# loaded by the test, not linked, and needs no sanitizer of its own).
$(BUILD)/test_telemetry: $(BUILD)/test_telemetry.o $(BUILD)/libbreakeven.a $(BUILD)/libfakenvml.so
	$(CC) $(ALL_CFLAGS) -o $@ $(BUILD)/test_telemetry.o $(BUILD)/libbreakeven.a $(LIBS) $(TESTLIBS)

$(BUILD)/libfakenvml.so: tests/fake_nvml.c | $(BUILD)
	$(CC) -std=c11 $(WARN) -O2 -shared -fPIC -o $@ $<

$(BUILD)/test_xover: $(BUILD)/test_xover.o $(BUILD)/libbreakeven.a
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LIBS) $(TESTLIBS)

$(BUILD)/test_synth: $(BUILD)/test_synth.o $(BUILD)/libbreakeven.a
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LIBS) $(TESTLIBS)

$(BUILD)/test_cl: $(BUILD)/test_cl.o $(BUILD)/libbreakeven.a
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LIBS) $(TESTLIBS)

$(BUILD)/test_net: $(BUILD)/test_net.o $(BUILD)/libbreakeven.a
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LIBS) $(TESTLIBS)

$(BUILD)/test_decide: $(BUILD)/test_decide.o $(BUILD)/libbreakeven.a
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LIBS) $(TESTLIBS)

$(BUILD)/bench: $(BUILD)/bench.o $(BUILD)/libbreakeven.a
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LIBS) $$(pkg-config --libs clblast)

# `make check` = the packages and the format, every program built first (on
# CHECK_JOBS cores, unless make was given its own -j), then the tests one
# after the other (they measure: nothing else runs beside them): every test
# under ASan/UBSan; the plain build's unit, hostile-input and fault tests
# and one sweep under valgrind for the leak check, and tests/same_output;
# then a minute of fuzzing, split among the fuzzers (a finding fails the
# check).  The other tests run once, sanitized: the plain build would run
# the same code with fewer checks.  A failed pass does not stop the others;
# the closing line counts every pass, skip and failure of them all.
CHECK_JOBS ?= $(shell nproc 2>/dev/null || echo 1)
CHECK_J = $(if $(filter -j%,$(MAKEFLAGS)),,-j$(CHECK_JOBS))
CHECK_SANITIZE := address,undefined
CHECK_TALLIES := build/check-sanitized.tally build/check-plain.tally build/check-fuzz.tally
check: deps format-check
	@mkdir -p build && rm -f build/check-*.tally
	$(MAKE) --no-print-directory $(CHECK_J) SANITIZE=$(CHECK_SANITIZE) test-programs
	$(MAKE) --no-print-directory $(CHECK_J) VALGRIND=1 test-programs
	$(MAKE) --no-print-directory $(CHECK_J) fuzzers
	@$(call check_pass,sanitized,SANITIZE=$(CHECK_SANITIZE) test)
	@$(call check_pass,plain,test VALGRIND=1)
	@if $(MAKE) --no-print-directory fuzz FUZZ_SECONDS=$$(( $(FUZZ_CHECK_SECONDS) / $(words $(FUZZERS)) )); \
	 then echo "pass $(words $(FUZZERS))"; else echo "fail fuzz: an input failed (see $(FUZZ_DIR)/crashes-*)"; \
	 fi >build/check-fuzz.tally
	@tests/run --total $(CHECK_TALLIES)

# check_pass NAME,MAKE ARGS: one pass, its counts in build/check-NAME.tally;
# a pass that failed before its tests could count (tests/layers) says so.
define check_pass
t=$(CURDIR)/build/check-$(1).tally; \
 $(MAKE) --no-print-directory CHECK_TALLY=$$t $(2) || grep -q '^fail' $$t 2>/dev/null || \
 echo "fail the $(1) pass: make $(2) failed before its tests" >>$$t
endef

# The C sources as .clang-format lays them out; `make format` rewrites them.
CLANG_FORMAT ?= clang-format
FORMATTED := $(wildcard $(addsuffix /*.[ch],$(SRCDIRS)) tests/*.c tests/fuzz/*.c)
format-check:
	@bad=$$(for f in $(FORMATTED); do $(CLANG_FORMAT) --style=file "$$f" | cmp -s - "$$f" \
	    || echo "$$f"; done); \
	 if [ -n "$$bad" ]; then echo "format-check: not as .clang-format lays them out (make format):" $$bad; exit 1; fi

format:
	$(CLANG_FORMAT) -i --style=file $(FORMATTED)

# What each pass of make check runs (a plain `make test` runs the sanitized
# pass's list on the plain build).  tests/same_output compares with
# SAME_OUTPUT_REV: by default "self", the binary twice (its output depends
# on nothing but its input); a refactoring branch passes SAME_OUTPUT_REV=main
# (that commit's binary, kept by commit in build/same_output/).
VG_TESTS  := $(BUILD)/test_unit $(BUILD)/test_hostile $(BUILD)/test_faults
RUN_ALL   := tests/test_run tests/test_bench tests/test_same_output $(TESTS) \
             tests/test_onnx2net tests/test_dash tests/prose_lint tests/claims_audit tests/fullfs \
             tests/orphans \
             tests/check_pages tests/check_install tests/slurm
RUN_VG    := $(VG_TESTS) tests/valgrind_sweep tests/same_output
SAME_OUTPUT_REV ?= self
ORT_NODE  := build/node-ort
test-programs: $(BIN) $(if $(VALGRIND),$(VG_TESTS),$(TESTS) $(ORT_NODE)/.installed)

# npm's onnxruntime-node for ort:cpu's test (tests/test_devices.c),
# installed with --ignore-scripts (its install script fetches GPU parts from
# a host these machines cannot reach) and found through NODE_PATH; where npm
# cannot install it, that test says it was skipped.
$(ORT_NODE)/.installed:
	@mkdir -p $(ORT_NODE); \
	 if command -v npm >/dev/null 2>&1 && npm install --prefix $(ORT_NODE) --ignore-scripts \
	    --no-save --no-audit --no-fund --loglevel=error onnxruntime-node@1 >$(ORT_NODE)/npm.log 2>&1; \
	 then touch $@; \
	 else echo "onnxruntime-node not installed (see $(ORT_NODE)/npm.log): ort:cpu's test is skipped"; fi

test: test-programs
	tests/layers $(BUILD)
	BREAKEVEN=./$(BIN) SAME_OUTPUT_REV=$(SAME_OUTPUT_REV) $(if $(VALGRIND),VALGRIND=1) \
	    NODE_PATH=$(CURDIR)/$(ORT_NODE)/node_modules$(if $(NODE_PATH),:$(NODE_PATH)) \
	    tests/run $(if $(VALGRIND),$(RUN_VG),$(RUN_ALL))

report: deps
	$(MAKE) --no-print-directory breakeven
	./breakeven all --out out

# CLBlast is for the benchmark only; breakeven never links it.
bench: deps
	@pkg-config --exists clblast || $(MAKE) --no-print-directory deps DEBS=libclblast-dev FORCE_DEPS=1
	$(MAKE) --no-print-directory $(BUILD)/bench
	$(BUILD)/bench

# 44 real runs the first time (10 to 20 minutes), reused afterwards.
bench-compare: $(BIN)
	tests/bench_compare --binary ./$(BIN)

# The power of `ab` on real runs of real changes (docs/compare.md): 12
# paired commands a row, a row after the other, about 80 s each.
bench-ab: $(BIN) $(BUILD)/libslowblas.so
	tests/bench_ab --binary ./$(BIN) --slowblas $(BUILD)/libslowblas.so

# The history on a real change (docs/compare.md): 2 series of 12 runs, then
# 8 with cblas_sgemm x1.25, the series taking turns (about 40 runs of 20 to
# 100 s, made once and cached); then compare and report of each.
bench-history: $(BIN) $(BUILD)/libslowblas.so
	tests/bench_history --binary ./$(BIN) --slowblas $(BUILD)/libslowblas.so

# The target "the protocol costs nothing a user would not pay" (issue 39,
# docs/benchmarks.md): breakeven's torch:cpu beside PyTorch's own Timer on
# the same step, interleaved, 5 rounds a mode (about 15 minutes here).
bench-torch: $(BIN)
	tests/bench_torch --binary ./$(BIN)

BENCH_RUNS ?= 3
BENCH_WARM ?= 2
bench-sharpness: $(BIN)
	tests/bench_sharpness --runs $(BENCH_RUNS) --warm $(BENCH_WARM) --binary ./$(BIN)

bench-alone: $(BIN)
	tests/bench_alone --binary ./$(BIN)

# Whether PyTorch's OpenMP threads and its OpenBLAS's contend (issue 45,
# docs/devices.md): PyTorch alone with the defaults, OPENBLAS_NUM_THREADS=1
# and, where libopenblas0-openmp is installed, the OpenMP build (12 rounds,
# about 12 minutes on the 2-core VM); the table pools the rounds others
# left quiet.
OPENBLAS_OPENMP := /usr/lib/x86_64-linux-gnu/openblas-openmp
bench-torch-blas:
	tests/bench_torch_blas --rounds 12 $(if $(wildcard $(OPENBLAS_OPENMP)),--openmp-dir $(OPENBLAS_OPENMP))

# The archive at scale (docs/archive.md): one real default-sized run of
# this machine, made once and kept in $(BENCH_ARCHIVE)/real/, and the
# committed H100 run, copied into archives of 100 and 1,000 nights
# (BENCH_ARCHIVE_SIZES), each reported in full, again, with one more run,
# and with --full: times, peak RSS, disk per run.
BENCH_ARCHIVE ?= build/bench-archive
bench-archive: $(BIN) $(BUILD)/bench_archive
	@real=$$(ls $(BENCH_ARCHIVE)/real/runs/*/results.xml* 2>/dev/null | head -n 1); \
	 if [ -z "$$real" ]; then \
	   echo "bench-archive: making one real default-sized run (once; kept in $(BENCH_ARCHIVE)/real)"; \
	   ./$(BIN) run --quiet --out $(BENCH_ARCHIVE)/real >/dev/null || exit 1; \
	   real=$$(ls $(BENCH_ARCHIVE)/real/runs/*/results.xml* | head -n 1); \
	 fi; \
	 $(BUILD)/bench_archive ./$(BIN) $(BENCH_ARCHIVE) "$$real" $(wildcard tests/data/gpu/h100-*.xml)

$(BUILD)/bench_archive: $(BUILD)/bench_archive.o $(BUILD)/libbreakeven.a
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LIBS)

# One core, one fuzzer after the other; new inputs kept in
# $(FUZZ_DIR)/corpus-NAME, failures in $(FUZZ_DIR)/crashes-NAME/ (add each
# to the fuzzer's corpus once fixed).  The first failure stops.
fuzz: deps fuzzers
	$(foreach f,$(FUZZERS),$(call fuzz_one,$(f)))

fuzzers: $(FUZZERS:%=$(FUZZ_DIR)/fuzz_%)

define fuzz_one
	@mkdir -p $(FUZZ_DIR)/corpus-$(1) $(FUZZ_DIR)/crashes-$(1)
	@echo "fuzz_$(1): $(FUZZ_SECONDS) s"
	$(FUZZ_DIR)/fuzz_$(1) -max_total_time=$(FUZZ_SECONDS) -max_len=65536 -timeout=10 \
	    -rss_limit_mb=2048 -dict=$(FUZZ_DICT_$(1)) -print_final_stats=1 \
	    -artifact_prefix=$(FUZZ_DIR)/crashes-$(1)/ $(FUZZ_DIR)/corpus-$(1) $(FUZZ_CORPUS_$(1))

endef

FUZZ_CFLAGS = -std=c11 -Wall -Wextra -Wshadow -Wconversion -Wsign-conversion \
	    -Wmissing-prototypes -Wstrict-prototypes -Werror -g -O1 -fno-omit-frame-pointer \
	    -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	    $(addprefix -I,$(SRCDIRS)) -I$(BUILD) \
	    $(shell pkg-config --cflags libxml-2.0 libxslt cairo zlib)
FUZZ_LIBS = $(shell pkg-config --libs libxml-2.0 libxslt cairo zlib) -lm

# Every source is compiled once into $(FUZZ_DIR)/obj (the flags are the
# fuzzers' alike), shared by the fuzzers that link it, and in parallel
# under -j: one compiler call per fuzzer compiled the results loader three
# times, one file after the other.
fuzzobj = $(addprefix $(FUZZ_DIR)/obj/,$(notdir $(1:.c=.o)))
FUZZ_HDRS := tests/fuzz/fuzz.h $(wildcard $(addsuffix /*.h,$(SRCDIRS)))

.SECONDEXPANSION:
$(FUZZ_DIR)/fuzz_%: $(FUZZ_DIR)/obj/fuzz_%.o $$(call fuzzobj,$$(FUZZ_SRC_$$*)) $(FUZZ_DIR)/obj/embed.o
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $^ $(FUZZ_LIBS)

$(FUZZ_DIR)/obj/fuzz_%.o: tests/fuzz/fuzz_%.c $(FUZZ_HDRS) | $(FUZZ_DIR)/obj $(BUILD)/commit.h $(BUILD)/datadir.h
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c -o $@ $<

$(FUZZ_DIR)/obj/embed.o: $(BUILD)/embed.c | $(FUZZ_DIR)/obj
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c -o $@ $<

$(FUZZ_DIR)/obj/%.o: %.c $(FUZZ_HDRS) | $(FUZZ_DIR)/obj $(BUILD)/commit.h $(BUILD)/datadir.h
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c -o $@ $<

$(FUZZ_DIR) $(FUZZ_DIR)/obj:
	mkdir -p $@

deps:
	@missing="$(FORCE_DEPS)"; \
	 command -v pkg-config >/dev/null 2>&1 && pkg-config --exists $(PKGS) $(TESTPKGS) \
	   && [ -n "$$(ls /etc/OpenCL/vendors/ 2>/dev/null)" ] \
	   && command -v valgrind >/dev/null 2>&1 \
	   && command -v cmark-gfm >/dev/null 2>&1 \
	   && command -v $(CLANG_FORMAT) >/dev/null 2>&1 \
	   && /usr/bin/python3 -c 'import onnx, jsonschema' >/dev/null 2>&1 \
	   && ls "$$($(FUZZ_CC) --print-runtime-dir 2>/dev/null)"/libclang_rt.fuzzer-*.a >/dev/null 2>&1 \
	   || missing=1; \
	 if [ -z "$$missing" ]; then exit 0; fi; \
	 echo "make deps: installing $(DEBS)"; \
	 if [ "$$(id -u)" = 0 ]; then sudo=""; \
	 elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo="sudo -n"; \
	 else echo "make deps: cannot install packages (not root, no sudo). Install: $(DEBS)" >&2; exit 1; fi; \
	 export DEBIAN_FRONTEND=noninteractive; \
	 $$sudo apt-get update -q && $$sudo apt-get install -y -q --no-install-recommends $(DEBS) \
	   || { echo "make deps: apt-get failed. Install: $(DEBS)" >&2; exit 1; }

# The installed tree is relocatable: breakeven finds its templates in
# ../share/breakeven beside its own directory (site.h), wherever PREFIX moves.
install: $(BIN)
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/breakeven
	install -d $(DESTDIR)$(DATADIR)/templates $(DESTDIR)$(DATADIR)/assets $(DESTDIR)$(MANDIR)
	install -m 644 templates/*.xsl $(DESTDIR)$(DATADIR)/templates/
	install -m 644 assets/*.css $(DESTDIR)$(DATADIR)/assets/
	install -d $(DESTDIR)$(DATADIR)/devices
	install -m 644 devices/*.py devices/*.js $(DESTDIR)$(DATADIR)/devices/
	install -m 644 assets/breakeven.1 $(DESTDIR)$(MANDIR)/breakeven.1

clean:
	rm -rf build build-san $(FUZZ_DIR) breakeven

-include $(wildcard build/*.d build-san/*.d)
# A build made before a source moved to another stage's folder names it
# where it was (-MP covers headers, not the source itself): nothing to
# make, so the object is built again from where its source is now.
src/%.c: ;
