# gtcc — the two commands of the README, and their set-up.
#
#   make run         set up, build, compile examples/spmv.c with gtcc and run it
#   make check       set up, build, run every test (ctest)
#   make setup       (default) install missing dependencies (apt-get), configure, build
#   make asan-check  build and test in build-asan with AddressSanitizer + UBSan
#   make clean       remove build/ and build-asan/

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := setup

BUILD      ?= build
ASAN_BUILD ?= build-asan
JOBS       ?= 2
CUDA_BIN   ?= /usr/local/cuda/bin
export PATH := $(CUDA_BIN):$(PATH)

GTCC       := $(BUILD)/driver/gtcc
SPMV_SRC   := examples/spmv.c
SPMV_OUT   := $(BUILD)/examples
SPMV_ARGS  ?=

# Debian packages gtcc needs to build, and how to tell each is there.
DEB_PACKAGES := libclang-dev flex bison cmake

.PHONY: run check setup deps nvcc-check build asan-check clean

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

asan-check: deps nvcc-check
	@if [ ! -f $(ASAN_BUILD)/CMakeCache.txt ]; then \
	  gen=""; if command -v ninja >/dev/null 2>&1; then gen="-G Ninja"; fi; \
	  echo "cmake -S . -B $(ASAN_BUILD) $$gen -DGTCC_SANITIZE=ON"; \
	  cmake -S . -B $(ASAN_BUILD) $$gen -DGTCC_SANITIZE=ON; \
	fi
	cmake --build $(ASAN_BUILD) -j$(JOBS)
	ctest --test-dir $(ASAN_BUILD) --output-on-failure -j$(JOBS)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)
