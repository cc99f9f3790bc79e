#!/usr/bin/env bash
# Installs every Debian package parquetry needs to build, test and benchmark.
# Idempotent: packages already present are left alone, and `apt-get update`
# runs only when something is missing (and then only once).
set -euo pipefail

PACKAGES=(
  # toolchain
  build-essential cmake ninja-build ccache pkg-config clang clang-format libclang-rt-14-dev
  # compression codecs
  libsnappy-dev zlib1g-dev libdeflate-dev libzstd-dev liblz4-dev libbrotli-dev
  # format helpers
  libxxhash-dev libroaring-dev libsimdjson-dev libhwy-dev
  # remote sources (S3, HTTP(S)) and the servers their tests start; libssl
  # also serves modular encryption (AES-GCM / AES-CTR)
  libcurl4-openssl-dev libssl-dev openssl nginx-light
  # protobuf <-> parquet
  libprotobuf-dev libprotoc-dev protobuf-compiler
  # tests, benchmarks, CLI
  libgtest-dev libgmock-dev libbenchmark-dev libcli11-dev
  # the report check in headless Chromium
  chromium
  # python bindings and dask
  python3 python3-dev pybind11-dev python3-numpy python3-pandas python3-pytest python3-distributed
  # packaging: the wheel (pip/build front ends, no downloads), venvs, the .deb (dpkg-shlibdeps, file)
  python3-setuptools python3-wheel python3-pip python3-build python3-venv dpkg-dev file
)

missing=()
# The DuckDB peer runs on Node.js; a machine may already carry a non-Debian
# build of it, which Debian's npm package would conflict with.
if ! command -v npm >/dev/null 2>&1; then PACKAGES+=(nodejs npm); fi
for pkg in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done

if [ "${#missing[@]}" -eq 0 ]; then
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
