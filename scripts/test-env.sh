# Sourced by the test and bench scripts: environment for the CPU Vulkan driver and the
# CMake arguments that turn the WebGPU backend on when wgpu-native is installed in .deps/.
webgpu_args=()
if [[ -f "$PWD/.deps/wgpu/lib/libwgpu_native.so" ]]; then
  webgpu_args=(-DTENFERRO_WITH_WEBGPU=ON "-DTENFERRO_WEBGPU_ROOT=$PWD/.deps/wgpu")
  export TENFERRO_REQUIRE_WEBGPU=1
fi
# A private runtime dir silences the Vulkan loader's warnings; one per user, reused, so that
# sourcing this file leaves nothing new behind in /tmp.
if [[ -z ${XDG_RUNTIME_DIR:-} ]]; then
  export XDG_RUNTIME_DIR=/tmp/tenferro-xdg-$(id -u)
  mkdir -p "$XDG_RUNTIME_DIR"
fi
chmod 0700 "$XDG_RUNTIME_DIR"
# OpenBLAS threads: the machine may have only 2 cores and ctest runs tests in parallel.
export OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-1}
