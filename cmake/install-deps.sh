#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages cudalab builds with, if any are missing (uses sudo when not root).
# The CUDA toolkit itself (nvcc, CCCL) must already be installed; this script checks for it.
set -euo pipefail
# chromium: the HTML reports' tests open each page in it headless (tests/html/; they skip without it).
# slurmctld, slurmd, slurm-client: `grade --slurm`'s test starts a one-node Slurm of its own
# (tests/slurm/; it skips without them). Debian enables their services, which stay down without a
# /etc/slurm/slurm.conf: the test's daemons run from a config under the build folder.
packages=(cmake make g++ clang-format clang-tidy libtomlplusplus-dev libbenchmark-dev libgtest-dev libcli11-dev nlohmann-json3-dev libfmt-dev librsvg2-bin libssl-dev libffi-dev pkg-config libxml2-utils chromium slurmctld slurmd slurm-client)
missing=()
for p in "${packages[@]}"; do dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ] || [ ! -f /usr/include/boost/dll.hpp ]; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq
  # Boost.DLL is header-only; Debian 12 has 1.81 beside its default 1.74. Either works.
  if [ ! -f /usr/include/boost/dll.hpp ]; then
    if apt-cache show libboost1.81-dev >/dev/null 2>&1; then missing+=(libboost1.81-dev); else missing+=(libboost-dev); fi
  fi
  # Debian packages Chromium as `chromium`; where there is none (Ubuntu ships a snap), the HTML tests skip.
  if [[ " ${missing[*]} " == *" chromium "* ]] && ! apt-cache show chromium >/dev/null 2>&1; then
    echo "install-deps: no chromium package here: the html.* tests will skip" >&2
    kept=(); for p in "${missing[@]}"; do [ "$p" = chromium ] || kept+=("$p"); done; missing=("${kept[@]}")
  fi
  echo "install-deps: installing ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
if ! command -v nvcc >/dev/null 2>&1; then
  if [ -x /usr/local/cuda/bin/nvcc ]; then
    echo "install-deps: nvcc is in /usr/local/cuda/bin; add it to PATH (export PATH=/usr/local/cuda/bin:\$PATH)" >&2
  else
    echo "install-deps: the CUDA toolkit (nvcc) is not installed; install CUDA 12 or 13 from NVIDIA first" >&2
  fi
  exit 1
fi
echo "install-deps: all build dependencies present"
