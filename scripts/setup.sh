#!/usr/bin/env bash
# Installs what is missing and builds what is out of date. Idempotent and quick when nothing changed.
#   scripts/setup.sh web     Debian packages + npm packages + wasm module + page   (npm start, npm run build)
#   scripts/setup.sh wasm    ... up to the wasm module                              (npm run dev)
#   scripts/setup.sh native  ... the native library and test binaries               (npm run bench)
#   scripts/setup.sh fuzz    the clang ASan+UBSan build: fuzz targets + sanitized doctest suite (build/fuzz)
#   scripts/setup.sh all     everything, plus Chromium and Firefox for the browser tests (npm test)
set -euo pipefail
cd "$(dirname "$0")/.."
target="${1:-all}"
jobs="$(nproc 2>/dev/null || echo 2)"

log() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }

# --- Debian packages -----------------------------------------------------------------------------
packages=(cmake g++ make emscripten libxtensor-dev libxsimd-dev doctest-dev binaryen wabt)
# Chromium and Firefox (ESR) for the browser tests; clang-format for the formatting check
# (scripts/check-format.mjs).
[ "$target" = all ] && packages+=(chromium firefox-esr clang-format)
# libFuzzer and the sanitizer runtimes (build/fuzz).
if [ "$target" = all ] || [ "$target" = fuzz ]; then packages+=(clang-14 libclang-rt-14-dev); fi
# OpenBLAS for the native bench's comparison column only (bench/bench_kernels.cpp; the engine never links it).
if [ "$target" = all ] || [ "$target" = native ]; then packages+=(libopenblas-dev); fi
# PyTorch for the native test that runs the exported model.py against the engine (tests/pytorch/
# check_export.py, docs/pytorch.md); python3-torch links OpenBLAS through libopenblas0-pthread.
# NLTK for the native test that checks our corpus BLEU against nltk's (tests/nltk/bleu_cases.py).
[ "$target" = all ] && packages+=(python3-torch python3-nltk libopenblas0-pthread)
missing=()
for pkg in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    log "installing Debian packages: ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
  else
    echo "Missing Debian packages: ${missing[*]}" >&2
    echo "Install them with:" >&2
    echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
fi

# --- npm packages, from the committed lock file ----------------------------------------------------
lock_hash="$(sha256sum package-lock.json | cut -d' ' -f1)"
if [ ! -f node_modules/.attn-lock-hash ] || [ "$(cat node_modules/.attn-lock-hash)" != "$lock_hash" ]; then
  log "npm ci"
  npm ci --no-audit --no-fund
  echo "$lock_hash" > node_modules/.attn-lock-hash
fi

# cmake --build without the progress lines; fails when the build fails (grep finding nothing to
# print is not a failure).
quiet_build() {
  local status
  cmake --build "$1" -j "$jobs" 2>&1 | { grep -vE '^\[ *[0-9]+%\] (Building|Linking|Built)' || true; }
  status=${PIPESTATUS[0]}
  [ "$status" = 0 ] || { echo "setup: building $1 failed (exit $status)" >&2; exit 1; }
}

# --- native build: library, doctest suites -------------------------------------------------------
if [ "$target" = all ] || [ "$target" = native ]; then
  if [ ! -f build/native/CMakeCache.txt ]; then
    log "configuring the native build (build/native)"
    cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release > /dev/null
  fi
  log "building native (build/native)"
  quiet_build build/native
fi

# --- sanitizer build: libFuzzer targets and the doctest suite under ASan + UBSan (clang) ---------
if [ "$target" = all ] || [ "$target" = fuzz ]; then
  if [ ! -f build/fuzz/CMakeCache.txt ]; then
    log "configuring the ASan+UBSan / libFuzzer build (build/fuzz)"
    cmake -S . -B build/fuzz -DATTN_FUZZ=ON -DCMAKE_CXX_COMPILER=clang++-14 > /dev/null
  fi
  log "building the fuzz targets and the sanitized test suite (build/fuzz)"
  quiet_build build/fuzz
fi

# --- wasm module ---------------------------------------------------------------------------------
if [ "$target" != native ] && [ "$target" != fuzz ]; then
  export NODE_PATH=/usr/share/nodejs  # emcc loads Debian's acorn from there
  if [ ! -f build/wasm/CMakeCache.txt ]; then
    log "configuring the wasm build (build/wasm)"
    emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release -DATTN_WASM_OUTPUT_DIR="$PWD/web/generated" > /dev/null
  fi
  log "building the wasm module (web/generated/attn_engine.{mjs,wasm})"
  quiet_build build/wasm
fi

# --- the page ------------------------------------------------------------------------------------
if [ "$target" = web ] || [ "$target" = all ]; then
  log "type-checking and building the page (dist/)"
  npx tsc -p web/tsconfig.json --noEmit
  npx vite build --config web/vite.config.ts --logLevel warn
fi
log "ready"
