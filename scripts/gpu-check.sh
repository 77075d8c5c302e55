#!/usr/bin/env bash
# GPU check: on a machine with an NVIDIA GPU (H200 target: sm_90) and NO package registry,
#   1. takes the executables from .gpu-bundle/bundle.tar.xz (scripts/gpu-bundle.sh builds and
#      packs them on a CPU machine; carry ".gpu-bundle"), or, without a bundle, builds the
#      CUDA configuration here (the library, every test executable and the tenferro command);
#   2. starts the Python package's CUDA build in the background (the GPU machine's python3, with
#      nanobind, numpy, pytest and PyTorch already there),
#   3. runs every test executable with TENFERRO_REQUIRE_CUDA=1 (a missing device is a failure,
#      never a skip; so is any skip but the expected ones): tests/cuda and the device halves of
#      the other suites (AD, prims, sliced einsum, dispatch), several executables at once,
#   4. the CLI smoke (einsum and rfft via `tenferro --backend cuda` against `--backend cpu`),
#   5. `tenferro bench --backend cuda` (phases and eager-over-direct ratios of einsum, QR, SVD,
#      eigh, FFT) at 64 and at 512, and tenferro_cuda_peers (GEMM against cuBLAS, batched
#      SVD/eigh against cuSOLVER),
#   6. the Python CUDA tests (test_cuda.py, test_torch.py, test_dlpack.py, test_errors.py) with
#      TENFERRO_REQUIRE_CUDA=1 and TENFERRO_REQUIRE_TORCH=1 (a machine without the Python pieces
#      fails the check, unless TENFERRO_GPU_CHECK_NO_PYTHON=1),
# and writes report.md plus every log into OUTDIR. Usage: scripts/gpu-check.sh OUTDIR
# Each phase runs under `timeout` with what is left of the budget (TENFERRO_GPU_CHECK_BUDGET
# seconds, default 420).
#
# Without a bundle it needs CMake >= 3.25, Ninja, a C++20 compiler and the CUDA toolkit (nvcc,
# cuBLAS, cuSOLVER, cuFFT; /usr/local/cuda or nvcc on PATH); the Debian packages the build
# needs beyond that (OpenBLAS, LAPACKE, FFTW3, SLEEF, GoogleTest) come as .deb files in .debs/
# (scripts/fetch-gpu-debs.sh), unpacked with `dpkg -x` into build-gpu/prefix (nothing is
# installed system-wide).
set -uo pipefail
if [[ $# -ne 1 ]]; then
  echo "usage: $0 OUTDIR" >&2
  exit 2
fi
cd "$(dirname "$0")/.."
root=$PWD
mkdir -p "$1"
rm -f "$1"/*.log "$1"/*.rc "$1"/*.xml "$1"/*.txt "$1"/*.json  # a rerun into the same folder
out=$(cd "$1" && pwd)
build=$root/build-gpu
budget=${TENFERRO_GPU_CHECK_BUDGET:-420}
start=$SECONDS
left() {  # seconds left of the budget, at least 1 (`timeout 0` would mean no limit)
  local l=$((budget - (SECONDS - start)))
  echo $((l > 1 ? l : 1))
}
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
  command -v python3 >/dev/null && python3 -c 'import sys; print("python", sys.version.split()[0])'
  git -C "$root" log -1 --oneline 2>/dev/null
} >"$out/machine.txt" 2>&1
log "machine: $(tr '\n' ' ' <"$out/machine.txt" | cut -c1-300)"

# The CUDA libraries of the machine's toolkit, for the bundle's executables and the tests.
for d in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib; do
  [[ -d $d ]] && export LD_LIBRARY_PATH="$d${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
done

# --- The executables: the bundle, or a build here ---------------------------------------------
built=0
py_cmake=()  # how the Python build finds SLEEF, FFTW and the BLAS
if [[ -f $root/.gpu-bundle/bundle.tar.xz ]]; then
  rm -rf "$build" && mkdir -p "$build"
  if ! tar -xJf "$root/.gpu-bundle/bundle.tar.xz" -C "$build"; then
    record executables FAILED "could not unpack .gpu-bundle/bundle.tar.xz"
  elif [[ $(cat "$build/tree") != "$(scripts/tree-fingerprint.sh)" ]]; then
    record executables FAILED "the bundle was built from another tree ($(cat "$build/tree")): rerun scripts/gpu-bundle.sh"
  else
    export LD_LIBRARY_PATH="$build/lib:$LD_LIBRARY_PATH"
    # The paths compiled into the tests (their corpus, the command) as links, where missing.
    for pair in "source_dir:$root" "binary_dir:$build"; do
      want=$(cat "$build/${pair%%:*}")
      if [[ ! -e $want ]]; then mkdir -p "$(dirname "$want")" && ln -s "${pair#*:}" "$want"; fi
    done
    py_cmake=("-DTENFERRO_SCIPY_OPENBLAS_ROOT=$build/scipy-openblas32"
              "-DCMAKE_INCLUDE_PATH=$build/include" "-DCMAKE_LIBRARY_PATH=$build/lib")
    built=1
    record executables ok "from .gpu-bundle/bundle.tar.xz ($(ls "$build/tests" | wc -l) test executables)"
  fi
elif [[ -z $nvcc ]]; then
  record toolchain FAILED "no bundle and no nvcc on PATH or in /usr/local/cuda/bin"
else
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
    export LD_LIBRARY_PATH="${lib_paths//;/:}:$LD_LIBRARY_PATH"
  fi
  # The default BLAS (scipy-openblas32 in .deps/) when carried, else Debian's OpenBLAS.
  [[ -f $root/.deps/scipy-openblas32/lib/libscipy_openblas.so ]] || cmake_extra+=(-DTENFERRO_BLAS=system)
  py_cmake=("${cmake_extra[@]}")
  log "configure and build (left $(left)s)"
  t0=$SECONDS
  if timeout "$(left)" cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DTENFERRO_WITH_CUDA=ON "-DCMAKE_CUDA_COMPILER=$nvcc" -DTENFERRO_WITH_WEBGPU=OFF \
      -DTENFERRO_BUILD_TESTS=ON -DTENFERRO_BUILD_CLI=ON -DTENFERRO_BUILD_BENCH=OFF \
      -DTENFERRO_BUILD_CUDA_PEERS=ON -DTENFERRO_BUILD_EXAMPLES=OFF "${cmake_extra[@]}" \
      >"$out/configure.log" 2>&1; then
    mapfile -t targets < <(scripts/gpu-test-targets.sh "$build")
    if timeout "$(left)" ninja -C "$build" -j"$(nproc)" "${targets[@]}" tenferro_cli tenferro_cuda_peers \
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

# --- The Python package's CUDA build, in the background ---------------------------------------
py=$(command -v python3 || true)
py_pid=""
site=$build/python-site
if ((built)) && [[ -n $nvcc && -n $py ]] && "$py" -c "import nanobind, numpy, pytest" 2>/dev/null; then
  log "Python build started in the background"
  (
    set -e
    timeout "$(left)" cmake -S "$root" -B "$build/python" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DTENFERRO_BUILD_PYTHON=ON -DTENFERRO_WITH_CUDA=ON "-DCMAKE_CUDA_COMPILER=$nvcc" \
      -DTENFERRO_WITH_WEBGPU=OFF -DTENFERRO_BUILD_TESTS=OFF -DTENFERRO_BUILD_CLI=OFF \
      -DTENFERRO_BUILD_BENCH=OFF -DTENFERRO_BUILD_EXAMPLES=OFF "-DPython_EXECUTABLE=$py" \
      "${py_cmake[@]}"
    # Fewer jobs than cores: the test executables run beside it.
    timeout "$(left)" nice ninja -C "$build/python" -j"$(($(nproc) * 3 / 4))" _tenferro
    mkdir -p "$site/tenferro"
    cp "$root"/python/tenferro/*.py "$root/python/tenferro/py.typed" "$site/tenferro/"
    cmake --install "$build/python" --component python --prefix "$site"
  ) >"$out/python-build.log" 2>&1 &
  py_pid=$!
elif ((built)); then
  # The Python CUDA tests are part of the check: a machine that cannot run them fails it,
  # unless the caller says so (TENFERRO_GPU_CHECK_NO_PYTHON=1).
  why="no nvcc"
  [[ -n $nvcc ]] && why="no python3"
  [[ -n $nvcc && -n $py ]] && why="$py lacks nanobind, numpy or pytest"
  if [[ ${TENFERRO_GPU_CHECK_NO_PYTHON:-0} == 1 ]]; then
    record python-build skipped "$why (TENFERRO_GPU_CHECK_NO_PYTHON=1)"
  else
    record python-build FAILED "$why (TENFERRO_GPU_CHECK_NO_PYTHON=1 skips the Python tests)"
  fi
fi

# --- C++ tests: every executable, several at once -------------------------------------------
cli=$build/src/cli/tenferro
if ((built)); then
  "$cli" info >"$out/info.txt" 2>&1
  log "info: $(grep -i cuda "$out/info.txt" | head -n 3 | tr '\n' ' ')"
  log "C++ test executables (left $(left)s)"
  t0=$SECONDS
  suite_limit=$(($(left) > 200 ? $(left) - 150 : 50))
  pids=()
  for exe in "$build"/tests/tenferro_*_tests; do
    name=$(basename "$exe")
    while (($(jobs -rp | wc -l) >= 6)); do wait -n; done
    (
      cd "$build/tests" || exit 1
      TENFERRO_REQUIRE_CUDA=1 TENFERRO_CLI=$cli timeout "$suite_limit" "$exe" \
        "--gtest_output=xml:$out/$name.xml" >"$out/$name.log" 2>&1
      echo $? >"$out/$name.rc"
    ) &
    pids+=($!)
  done
  wait "${pids[@]}"
  passed=0 failed_suites=()
  for exe in "$build"/tests/tenferro_*_tests; do
    name=$(basename "$exe")
    n=$(grep -oE '^\[  PASSED  \] [0-9]+' "$out/$name.log" | grep -oE '[0-9]+$' || echo 0)
    s=$(grep -oE '^\[  SKIPPED \] [0-9]+ tests?,' "$out/$name.log" | grep -oE '[0-9]+' || echo 0)
    passed=$((passed + ${n:-0}))
    echo "$name: exit $(cat "$out/$name.rc" 2>/dev/null || echo '?'), ${n:-0} passed, ${s:-0} skipped" \
      >>"$out/suites.txt"
    [[ $(cat "$out/$name.rc" 2>/dev/null) == 0 ]] || failed_suites+=("$name")
  done
  grep -h -E '^\[  SKIPPED \] [A-Za-z][^ ]*$' "$out"/tenferro_*_tests.log | sort -u >"$out/skipped.txt"
  # The skips this build expects: WebGPU's cases (not built) and two tests whose premise a GPU
  # machine lacks (a machine without a device; a device without linalg). Any other skip fails.
  expected_skips='WebGpu|webgpu|CudaRuntimeWithoutDevice\.|RulesOfOpsTheDeviceLacksFailTypedWithoutTransfer/Cuda'
  grep -v -E "$expected_skips" "$out/skipped.txt" >"$out/unexpected-skips.txt"
  if [[ -s $out/unexpected-skips.txt ]]; then
    failed_suites+=("unexpected skips: $(tr '\n' ' ' <"$out/unexpected-skips.txt" | sed 's/\[  SKIPPED \] //g')")
  fi
  if ((${#failed_suites[@]} == 0)); then
    record cpp-tests ok "$passed passed, $(wc -l <"$out/skipped.txt") skipped as expected (skipped.txt) ($((SECONDS - t0))s)"
  else
    record cpp-tests FAILED "${failed_suites[*]} (suites.txt, their .log)"
    grep -h -E '^\[  FAILED  \] [A-Za-z]' "$out"/tenferro_*_tests.log | sort -u | head -n 40
  fi

  # --- CLI smoke: einsum and fft on CUDA vs CPU through the tenferro command -----------------
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

  # --- GPU benchmarks -------------------------------------------------------------------------
  for matrix in 64 512; do
    log "bench --backend cuda --matrix $matrix (left $(left)s)"
    if timeout "$(($(left) > 90 ? 60 : 10))" "$cli" bench --backend cuda --matrix $matrix \
        --repeat 100 --quiet --json "$out/bench-cuda-$matrix.json" >"$out/bench-cuda-$matrix.txt" 2>&1; then
      record "bench $matrix" ok "bench-cuda-$matrix.txt"
    else
      record "bench $matrix" FAILED "exit $? (bench-cuda-$matrix.txt)"
    fi
  done
  if [[ -x $build/bench/cuda/tenferro_cuda_peers ]]; then
    log "tenferro_cuda_peers (left $(left)s)"
    if timeout "$(($(left) > 90 ? 60 : 10))" "$build/bench/cuda/tenferro_cuda_peers" --repeat 30 \
        >"$out/cuda-peers.txt" 2>"$out/cuda-peers.err"; then
      record cuda-peers ok "cuda-peers.txt"
    else
      record cuda-peers FAILED "exit $? (cuda-peers.err)"
    fi
  else
    record cuda-peers FAILED "no tenferro_cuda_peers in $build/bench/cuda"
  fi

  # --- Python CUDA tests ----------------------------------------------------------------------
  if [[ -n $py_pid ]]; then
    log "waiting for the Python build (left $(left)s)"
    if wait "$py_pid"; then
      t0=$SECONDS
      log "Python CUDA tests (left $(left)s)"
      (cd "$root/python/tests" && PYTHONPATH=$site TENFERRO_REQUIRE_CUDA=1 TENFERRO_REQUIRE_TORCH=1 \
        timeout "$(($(left) > 30 ? $(left) - 10 : 20))" "$py" -m pytest -p no:cacheprovider -q -rs \
        test_cuda.py test_torch.py test_dlpack.py test_errors.py) >"$out/python-tests.log" 2>&1
      rc=$?
      summary=$(tail -n 1 "$out/python-tests.log")
      if [[ $rc -eq 0 ]]; then
        record python-tests ok "$summary ($((SECONDS - t0))s)"
      else
        record python-tests FAILED "exit $rc: $summary"
        grep -E '^(FAILED|ERROR)' "$out/python-tests.log" | head -n 20
      fi
    else
      record python-build FAILED "see python-build.log"
      tail -n 30 "$out/python-build.log"
    fi
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
  for f in suites.txt bench-cuda-64.txt bench-cuda-512.txt cuda-peers.txt; do
    [[ -f $out/$f ]] || continue
    echo
    echo "## $f"
    echo '```'
    cat "$out/$f"
    echo '```'
  done
  if [[ -f $out/python-tests.log ]]; then
    echo
    echo "## Python tests (tail)"
    echo '```'
    tail -n 15 "$out/python-tests.log"
    echo '```'
  fi
} >"$report"
cat "$report"
exit $overall
