# gtcc — the two commands of the README, and their set-up.
#
#   make run         set up, build, compile examples/spmv.c with gtcc and run it
#   make check       set up, build, run every test (ctest)
#   make setup       (default) install missing dependencies (apt-get), configure, build
#   make asan-check  build and test in build-asan with AddressSanitizer + UBSan
#   make fuzz        libFuzzer runs of tests/fuzz (clang) in build-fuzz, FUZZ_SECONDS each
#   make clean       remove build/, build-asan/ and build-fuzz/

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := setup

BUILD      ?= build
ASAN_BUILD ?= build-asan
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 1800
FUZZ_TARGETS ?= directive frontend
FUZZ_FLAGS ?=
JOBS       ?= 2
CUDA_BIN   ?= /usr/local/cuda/bin
export PATH := $(CUDA_BIN):$(PATH)

GTCC       := $(BUILD)/driver/gtcc
SPMV_SRC   := examples/spmv.c
SPMV_OUT   := $(BUILD)/examples
SPMV_ARGS  ?=

# Debian packages gtcc needs to build, and how to tell each is there.
DEB_PACKAGES := libclang-dev flex bison cmake

.PHONY: run check setup deps nvcc-check build asan-check fuzz-deps fuzz clean

# Installs only what is missing: one apt-get update, one apt-get install.
deps:
	@missing=""; \
	for pkg in $(DEB_PACKAGES); do \
	  case $$pkg in \
	    libclang-dev) dpkg -s libclang-dev >/dev/null 2>&1 || missing="$$missing $$pkg" ;; \
	    *) command -v $$pkg >/dev/null 2>&1 || missing="$$missing $$pkg" ;; \
	  esac; \
	done; \
	if [ -z "$$missing" ]; then \
	  echo "setup: build dependencies present ($(DEB_PACKAGES))"; \
	else \
	  sudo=""; \
	  if [ "$$(id -u)" != 0 ]; then \
	    if command -v sudo >/dev/null 2>&1; then sudo=sudo; \
	    else echo "setup: missing:$$missing, and not root (no sudo): install them by hand" >&2; exit 1; fi; \
	  fi; \
	  echo "setup: installing:$$missing"; \
	  $$sudo apt-get update; \
	  $$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y $$missing; \
	fi

nvcc-check:
	@if ! command -v nvcc >/dev/null 2>&1; then \
	  echo "nvcc (CUDA toolkit) not found: install the CUDA toolkit" \
	       "(looked on PATH and in $(CUDA_BIN))" >&2; \
	  exit 1; \
	fi

# Configures once (Ninja when present), then builds incrementally.
build: deps nvcc-check
	@if [ ! -f $(BUILD)/CMakeCache.txt ]; then \
	  gen=""; if command -v ninja >/dev/null 2>&1; then gen="-G Ninja"; fi; \
	  echo "cmake -S . -B $(BUILD) $$gen"; \
	  cmake -S . -B $(BUILD) $$gen; \
	fi
	cmake --build $(BUILD) -j$(JOBS)

setup: build

check: setup
	ctest --test-dir $(BUILD) --output-on-failure -j$(JOBS)

# Runs the SpMV example: on the GPU when there is one; otherwise says so,
# shows the generated files and runs the host fallback once.
run: setup
	@if [ ! -f $(SPMV_SRC) ]; then echo "run: $(SPMV_SRC) does not exist yet" >&2; exit 1; fi
	@mkdir -p $(SPMV_OUT)
	$(GTCC) -O2 $(SPMV_SRC) -o $(SPMV_OUT)/spmv
	@status=0; GTRT_REQUIRE_DEVICE=1 $(SPMV_OUT)/spmv $(SPMV_ARGS) || status=$$?; \
	if [ $$status = 77 ]; then \
	  $(GTCC) --emit-cu $(SPMV_SRC) -o $(SPMV_OUT); \
	  echo; \
	  echo "no GPU on this machine: built $(SPMV_OUT)/spmv and emitted" \
	       "$(SPMV_OUT)/spmv.gt.cu/.gt.c (shown with --emit-cu); the binary ran its" \
	       "regions on the host (fallback):"; \
	  echo "$(SPMV_OUT)/spmv $(SPMV_ARGS)"; \
	  $(SPMV_OUT)/spmv $(SPMV_ARGS); \
	elif [ $$status != 0 ]; then \
	  echo "run: $(SPMV_OUT)/spmv failed (exit $$status)" >&2; exit 1; \
	fi

# ASAN_LABELS: a ctest -L regex to run only some labels (CI: every label
# but gpu). Leaks fail, and so does the first UBSan report.
ASAN_LABELS ?=
asan-check: deps nvcc-check
	@if [ ! -f $(ASAN_BUILD)/CMakeCache.txt ]; then \
	  gen=""; if command -v ninja >/dev/null 2>&1; then gen="-G Ninja"; fi; \
	  echo "cmake -S . -B $(ASAN_BUILD) $$gen -DGTCC_SANITIZE=ON"; \
	  cmake -S . -B $(ASAN_BUILD) $$gen -DGTCC_SANITIZE=ON; \
	fi
	cmake --build $(ASAN_BUILD) -j$(JOBS)
	ASAN_OPTIONS=$${ASAN_OPTIONS:-detect_leaks=1} \
	UBSAN_OPTIONS=$${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1} \
	ctest --test-dir $(ASAN_BUILD) --output-on-failure -j$(JOBS) $(if $(ASAN_LABELS),-L '$(ASAN_LABELS)')

# libFuzzer needs clang and its runtime (libclang_rt.fuzzer: Debian's
# libclang-rt-N-dev, or libclang-common-N-dev before Debian 12); installs
# them only when `clang -fsanitize=fuzzer` cannot link a trivial target.
fuzz-deps:
	@probe=$$(mktemp -d); \
	printf '%s\n' '#include <stddef.h>' '#include <stdint.h>' \
	  'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }' >$$probe/t.c; \
	if clang -fsanitize=fuzzer,address,undefined $$probe/t.c -o $$probe/t >/dev/null 2>&1; then \
	  rm -rf $$probe; echo "fuzz: clang -fsanitize=fuzzer works"; \
	else \
	  rm -rf $$probe; \
	  sudo=""; if [ "$$(id -u)" != 0 ]; then \
	    if command -v sudo >/dev/null 2>&1; then sudo=sudo; \
	    else echo "fuzz: clang -fsanitize=fuzzer does not link, and not root (no sudo)" >&2; exit 1; fi; \
	  fi; \
	  $$sudo apt-get update; \
	  ver=$$(clang --version 2>/dev/null | sed -n 's/.*clang version \([0-9]*\).*/\1/p' | head -1); \
	  pkgs="clang"; \
	  if [ -n "$$ver" ] && apt-cache show libclang-rt-$$ver-dev >/dev/null 2>&1; then pkgs="$$pkgs libclang-rt-$$ver-dev"; \
	  elif [ -n "$$ver" ]; then pkgs="$$pkgs libclang-common-$$ver-dev"; \
	  else pkgs="$$pkgs libclang-rt-dev"; fi; \
	  echo "fuzz: installing $$pkgs"; \
	  $$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y $$pkgs; \
	fi

# Builds the fuzz targets in $(FUZZ_BUILD) (clang, -DGTCC_FUZZ=ON) and runs
# each of FUZZ_TARGETS for FUZZ_SECONDS, all at once, on a working corpus
# seeded from tests/fuzz/corpus/T and tests/fuzz/regressions/T. Crashes,
# leaks and hangs land in $(FUZZ_BUILD)/fuzz/T/artifacts/; logs in
# $(FUZZ_BUILD)/fuzz/T.log. Fails if any fuzzer found something.
fuzz: deps nvcc-check fuzz-deps
	@if [ ! -f $(FUZZ_BUILD)/CMakeCache.txt ]; then \
	  gen=""; if command -v ninja >/dev/null 2>&1; then gen="-G Ninja"; fi; \
	  echo "cmake -S . -B $(FUZZ_BUILD) $$gen -DCMAKE_C_COMPILER=clang -DGTCC_FUZZ=ON"; \
	  cmake -S . -B $(FUZZ_BUILD) $$gen -DCMAKE_C_COMPILER=clang -DGTCC_FUZZ=ON; \
	fi
	cmake --build $(FUZZ_BUILD) -j$(JOBS) $(patsubst %,--target fuzz_%,$(FUZZ_TARGETS))
	@pids=""; \
	for t in $(FUZZ_TARGETS); do \
	  w=$(FUZZ_BUILD)/fuzz/$$t; mkdir -p $$w/corpus $$w/artifacts; \
	  echo "fuzz: $$t for $(FUZZ_SECONDS) s (log: $$w.log)"; \
	  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	  $(FUZZ_BUILD)/tests/fuzz/fuzz_$$t -max_len=4096 -timeout=30 -max_total_time=$(FUZZ_SECONDS) \
	    -print_final_stats=1 -artifact_prefix=$$w/artifacts/ $(FUZZ_FLAGS) \
	    $$w/corpus tests/fuzz/corpus/$$t tests/fuzz/regressions/$$t >$$w.log 2>&1 & \
	  pids="$$pids $$!"; \
	done; \
	status=0; for p in $$pids; do wait $$p || status=1; done; \
	for t in $(FUZZ_TARGETS); do \
	  w=$(FUZZ_BUILD)/fuzz/$$t; \
	  echo "fuzz: $$t: $$(grep -E '^stat::(number_of_executed_units|average_exec_per_sec)' $$w.log | tr '\n' ' ')"; \
	  ls $$w/artifacts | sed "s|^|fuzz: $$t: found $$w/artifacts/|"; \
	done; \
	if [ $$status != 0 ]; then echo "fuzz: a fuzzer stopped on a crash, leak or hang (see the logs)" >&2; exit 1; fi

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD)
