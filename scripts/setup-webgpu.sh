#!/usr/bin/env bash
# Installs what the WebGPU backend needs, idempotently:
#   - a CPU Vulkan driver (Mesa lavapipe, from Debian's mesa-vulkan-drivers) and the loader,
#     via apt-get, only when missing;
#   - wgpu-native, taken from the pinned `wgpu` wheel on PyPI (its wgpu/resources/ folder ships
#     libwgpu_native-release.so with the matching webgpu.h and wgpu.h), unpacked into the
#     project-local, git-ignored folder .deps/wgpu/{include,lib}. Nothing is vendored.
# CMake finds it with -DTENFERRO_WITH_WEBGPU=ON (TENFERRO_WEBGPU_ROOT defaults to .deps/wgpu).
#
# Checked on Debian 12 (Mesa 22.3.6): wgpu-native 0.32 finds lavapipe ("llvmpipe (LLVM 15.0.6,
# 256 bits)", Vulkan) with no further set-up, so SwiftShader is not needed. The Vulkan loader
# scans every installed ICD; to pin lavapipe, or to silence the loader, set:
#   VK_ICD_FILENAMES=/usr/share/vulkan/icd.d/lvp_icd.x86_64.json
#   XDG_RUNTIME_DIR=<a private 0700 folder>
# TENFERRO_WEBGPU_BACKEND=vulkan|metal|dx12|gl|primary|all picks wgpu-native's backends
# (default primary: Vulkan, Metal, D3D12; its OpenGL path is not used unless asked for).
set -euo pipefail

WGPU_VERSION="0.32.0"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dest="${TENFERRO_WEBGPU_ROOT:-$root/.deps/wgpu}"
stamp="$dest/.wgpu-wheel-version"

# 1. The Vulkan loader and lavapipe.
missing=()
for pkg in mesa-vulkan-drivers libvulkan1; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done
if ((${#missing[@]})); then
  echo "setup-webgpu: installing ${missing[*]}"
  sudo_cmd=()
  if [[ $(id -u) -ne 0 ]]; then sudo_cmd=(sudo); fi
  "${sudo_cmd[@]}" apt-get update
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
fi

# 2. wgpu-native from the pinned wheel.
if [[ -f "$stamp" && "$(cat "$stamp")" == "$WGPU_VERSION" && -f "$dest/lib/libwgpu_native.so" &&
      -f "$dest/include/webgpu.h" && -f "$dest/include/wgpu.h" ]]; then
  echo "setup-webgpu: wgpu-native from wgpu==$WGPU_VERSION already in $dest"
else
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' EXIT
  python3 -m pip download --quiet --no-deps --only-binary=:all: --dest "$tmp" "wgpu==$WGPU_VERSION"
  wheel=("$tmp"/wgpu-"$WGPU_VERSION"-*.whl)
  python3 - "${wheel[0]}" "$tmp/x" <<'EOF'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    for name in ("libwgpu_native-release.so", "webgpu.h", "wgpu.h"):
        z.extract("wgpu/resources/" + name, sys.argv[2])
EOF
  mkdir -p "$dest/include" "$dest/lib"
  install -m 0644 "$tmp/x/wgpu/resources/webgpu.h" "$tmp/x/wgpu/resources/wgpu.h" "$dest/include/"
  # The wheel's library has no SONAME; CMake links it by name (-lwgpu_native) with an rpath.
  install -m 0755 "$tmp/x/wgpu/resources/libwgpu_native-release.so" "$dest/lib/libwgpu_native.so"
  echo "$WGPU_VERSION" >"$stamp"
  echo "setup-webgpu: installed wgpu-native from wgpu==$WGPU_VERSION into $dest"
fi
