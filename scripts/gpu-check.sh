#!/usr/bin/env bash
# GPU check: on a machine with an NVIDIA GPU (H200 target: sm_90) and NO package registry,
#   1. builds the CUDA configuration (Release; only the library, tenferro_cuda_tests and the
#      tenferro command) in build-gpu/,
#   2. runs the CUDA tests with TENFERRO_REQUIRE_CUDA=1 (a missing device is a failure there,
#      never a skip),
#   3. runs the GPU part of the benchmarks when the CLI has it (`tenferro bench --backend cuda`),
# and writes report.md plus every log into OUTDIR. Usage: scripts/gpu-check.sh OUTDIR
# Finishes in under 8 minutes: each phase runs under `timeout` with what is left of the budget
# (TENFERRO_GPU_CHECK_BUDGET seconds, default 450).
#
# Needs: CMake >= 3.25, Ninja, a C++20 compiler, the CUDA toolkit (nvcc, cuBLAS, cuSOLVER,
# cuFFT; /usr/local/cuda or nvcc on PATH) and a driver. The Debian packages the build needs
# beyond that (OpenBLAS, LAPACKE, FFTW3, GoogleTest), when the machine lacks them, are carried
# as .deb files in .debs/ at the repository root: scripts/fetch-gpu-debs.sh downloads them on
# a machine with a registry (its list is the one place that names them).
# They are unpacked with `dpkg -x` into a private prefix (build-gpu/prefix, nothing is
# installed system-wide) and CMake and the loader are pointed at it. Debian's alternatives
# symlinks (libopenblas.so, liblapack.so.3) are not in the .debs, so the OpenBLAS library
# directory is added to the search paths directly.
set -uo pipefail
if [[ $# -ne 1 ]]; then
  echo "usage: $0 OUTDIR" >&2
  exit 2
fi
cd "$(dirname "$0")/.."
root=$PWD
mkdir -p "$1"
out=$(cd "$1" && pwd)
build=$root/build-gpu
budget=${TENFERRO_GPU_CHECK_BUDGET:-450}
start=$SECONDS
left() { echo $((budget - (SECONDS - start))); }
report=$out/report.md
status_lines=()
overall=0
record() {  # record PHASE STATUS DETAIL
  status_lines+=("| $1 | $2 | $3 |")
  [[ $2 == ok || $2 == skipped ]] || overall=1
}
log() { echo "[gpu-check $(date -u +%H:%M:%S)] $*" | tee -a "$out/gpu-check.log"; }

# --- Toolchain and machine --------------------------------------------------------------
nvcc=$(command -v nvcc || true)
[[ -z $nvcc && -x /usr/local/cuda/bin/nvcc ]] && nvcc=/usr/local/cuda/bin/nvcc
{
  echo "date: $(date -u)"
  echo "host: $(uname -a)"
  echo "cpus: $(nproc)"
  echo "nvcc: ${nvcc:-none}"
  [[ -n $nvcc ]] && "$nvcc" --version | tail -n 2
  command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,memory.total,compute_cap --format=csv
  command -v cmake >/dev/null && cmake --version | head -n 1
  git -C "$root" log -1 --oneline 2>/dev/null
} >"$out/machine.txt" 2>&1
log "machine: $(tr '\n' ' ' <"$out/machine.txt" | cut -c1-300)"
if [[ -z $nvcc ]]; then
  record toolchain FAILED "no nvcc on PATH or in /usr/local/cuda/bin"
fi

# --- Carried Debian packages -------------------------------------------------------------
cmake_extra=()
if compgen -G "$root/.debs/*.deb" >/dev/null; then
  prefix=$build/prefix
  mkdir -p "$prefix"
  for deb in "$root"/.debs/*.deb; do
    dpkg -x "$deb" "$prefix" >>"$out/debs.log" 2>&1 || log "dpkg -x failed for $deb"
  done
  multi=$prefix/usr/lib/x86_64-linux-gnu
  inc_paths="$prefix/usr/include;$prefix/usr/include/x86_64-linux-gnu;$prefix/usr/include/x86_64-linux-gnu/openblas-pthread"
  lib_paths="$multi;$multi/openblas-pthread;$multi/lapack;$multi/blas"
  cmake_extra=("-DCMAKE_PREFIX_PATH=$prefix/usr" "-DCMAKE_INCLUDE_PATH=$inc_paths"
               "-DCMAKE_LIBRARY_PATH=$lib_paths" "-DCMAKE_BUILD_RPATH=${lib_paths//;/:}")
  export LD_LIBRARY_PATH="${lib_paths//;/:}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  record debs ok "$(ls "$root"/.debs/*.deb | wc -l) .deb unpacked into $prefix"
else
  record debs skipped "no .debs/ folder: using the system's packages"
fi

# The default BLAS (scipy-openblas32 in .deps/, scripts/setup-blas.sh) when the run carried
# it (`carry: [".deps/scipy-openblas32"]`), else Debian's OpenBLAS from the carried .debs.
if [[ ! -f $root/.deps/scipy-openblas32/lib/libscipy_openblas.so ]]; then
  cmake_extra+=(-DTENFERRO_BLAS=system)
fi

# --- Build ---------------------------------------------------------------------------------
built=0
if [[ -n $nvcc ]]; then
  log "configure (left $(left)s)"
  t0=$SECONDS
  if timeout "$(left)" cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DTENFERRO_WITH_CUDA=ON "-DCMAKE_CUDA_COMPILER=$nvcc" -DTENFERRO_BUILD_TESTS=ON \
      -DTENFERRO_BUILD_CLI=ON -DTENFERRO_BUILD_BENCH=OFF -DTENFERRO_BUILD_EXAMPLES=OFF \
      "${cmake_extra[@]}" >"$out/configure.log" 2>&1; then
    log "build tenferro tenferro_cuda_tests tenferro_cli (left $(left)s)"
    if timeout "$(left)" ninja -C "$build" -j"$(nproc)" tenferro tenferro_cuda_tests tenferro_cli \
        >"$out/build.log" 2>&1; then
      built=1
      record build ok "$((SECONDS - t0))s"
    else
      record build FAILED "see build.log ($((SECONDS - t0))s)"
      tail -n 40 "$out/build.log"
    fi
  else
    record configure FAILED "see configure.log"
    tail -n 40 "$out/configure.log"
  fi
fi

# --- Tests ---------------------------------------------------------------------------------
if ((built)); then
  "$build/src/cli/tenferro" info >"$out/info.txt" 2>&1
  log "info: $(grep -i cuda "$out/info.txt" | head -n 3 | tr '\n' ' ')"
  log "CUDA tests (left $(left)s)"
  t0=$SECONDS
  TENFERRO_REQUIRE_CUDA=1 timeout "$(($(left) > 60 ? $(left) - 45 : 15))" \
    "$build/tests/tenferro_cuda_tests" "--gtest_output=xml:$out/cuda-tests.xml" \
    >"$out/cuda-tests.log" 2>&1
  rc=$?
  # GoogleTest's totals: "[  PASSED  ] N tests.", "[  SKIPPED ] N tests," and "N FAILED TESTS".
  summary=$(grep -E '^\[  (PASSED|SKIPPED) +\] [0-9]+ tests?[.,]|^ *[0-9]+ FAILED TESTS?' \
    "$out/cuda-tests.log" | tr -s ' \n' ' ')
  if [[ $rc -eq 0 ]]; then
    record cuda-tests ok "$summary($((SECONDS - t0))s)"
  else
    record cuda-tests FAILED "exit $rc: $summary"
    grep -E '^\[  FAILED' "$out/cuda-tests.log" | head -n 30
  fi

  # --- CLI smoke: einsum and fft on CUDA vs CPU through the tenferro command -----------------
  if command -v python3 >/dev/null; then
    log "CLI smoke (left $(left)s)"
    smoke=$out/cli-smoke
    mkdir -p "$smoke"
    # .npy files without numpy: a v1.0 header and little-endian column-major float64 data.
    python3 - "$smoke" <<'PY' >"$out/cli-smoke.log" 2>&1
import random, struct, sys
d = sys.argv[1]
def write(name, shape):
    random.seed(name)
    n = 1
    for e in shape: n *= e
    dims = ", ".join(str(e) for e in shape) + ("," if len(shape) == 1 else "")
    header = "{'descr': '<f8', 'fortran_order': True, 'shape': (%s), }" % dims
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    with open(f"{d}/{name}.npy", "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(struct.pack(f"<{n}d", *[random.uniform(-1, 1) for _ in range(n)]))
write("a", (40, 50)); write("b", (50, 60)); write("c", (60, 30)); write("x", (64, 8))
PY
    cli=$build/src/cli/tenferro
    smoke_ok=1
    for backend in cpu cuda; do
      "$cli" --stats einsum "ij,jk,kl->il" "$smoke/a.npy" "$smoke/b.npy" "$smoke/c.npy" \
        -o "$smoke/einsum-$backend.npy" --backend $backend --repeat 100 \
        >>"$out/cli-smoke.log" 2>"$smoke/einsum-$backend.stats.json" || smoke_ok=0
      "$cli" fft rfft "$smoke/x.npy" -o "$smoke/rfft-$backend.npy" --backend $backend --axis 0 \
        >>"$out/cli-smoke.log" 2>&1 || smoke_ok=0
    done
    # Same values from both backends (relative 1e-10), read back without numpy.
    python3 - "$smoke" <<'PY' >>"$out/cli-smoke.log" 2>&1 || smoke_ok=0
import struct, sys
d = sys.argv[1]
def read(path):
    raw = open(path, "rb").read()
    hlen = struct.unpack("<H", raw[8:10])[0]
    body = raw[10 + hlen:]
    return struct.unpack(f"<{len(body) // 8}d", body)
for name in ("einsum", "rfft"):
    a, b = read(f"{d}/{name}-cpu.npy"), read(f"{d}/{name}-cuda.npy")
    scale = max(1.0, max(abs(v) for v in a))
    worst = max(abs(x - y) for x, y in zip(a, b))
    print(f"{name}: {len(a)} values, max |cpu - cuda| = {worst:.3e} (scale {scale:.3e})")
    assert len(a) == len(b) and worst <= 1e-10 * scale, name
PY
    if ((smoke_ok)); then
      record cli-smoke ok "einsum (100 repeats) and rfft via tenferro --backend cuda match cpu"
    else
      record cli-smoke FAILED "see cli-smoke.log"
    fi
  else
    record cli-smoke skipped "no python3 to write the .npy inputs"
  fi

  # --- GPU benchmarks (when the CLI has them) -----------------------------------------------
  if "$build/src/cli/tenferro" --help 2>&1 | grep -qE '^\s+bench\b'; then
    log "bench --backend cuda (left $(left)s)"
    if timeout "$(($(left) > 20 ? $(left) - 10 : 5))" "$build/src/cli/tenferro" bench --backend cuda \
        >"$out/bench-cuda.txt" 2>&1; then
      record bench ok "bench-cuda.txt"
    else
      record bench FAILED "exit $? (bench-cuda.txt)"
    fi
  else
    record bench skipped "this build's tenferro command has no 'bench' sub-command"
  fi
fi

# --- Report --------------------------------------------------------------------------------
{
  echo "# tenferro GPU check"
  echo
  echo "- finished: $(date -u), $((SECONDS - start))s of a ${budget}s budget"
  echo "- result: $([[ $overall -eq 0 ]] && echo PASS || echo FAIL)"
  echo
  echo '```'
  cat "$out/machine.txt"
  echo '```'
  echo
  echo "| phase | status | detail |"
  echo "|---|---|---|"
  printf '%s\n' "${status_lines[@]}"
  if [[ -f $out/cuda-tests.log ]]; then
    echo
    echo "## CUDA tests (tail)"
    echo '```'
    tail -n 25 "$out/cuda-tests.log"
    echo '```'
  fi
  if [[ -f $out/bench-cuda.txt ]]; then
    echo
    echo "## tenferro bench --backend cuda"
    echo '```'
    cat "$out/bench-cuda.txt"
    echo '```'
  fi
} >"$report"
cat "$report"
exit $overall
