#!/usr/bin/env bash
# The install acceptance test (ctest `install`, docs/install.md). Builds the
# `package` preset once (libparquetry.a/.so, CLI, protoc plugin, Python
# extension: no sanitizers, hidden visibility), installs it into a fresh
# prefix and then works against that prefix only:
#   - no installed file names the build tree;
#   - every installed public header compiles on its own;
#   - libparquetry.so has its SONAME and exports the API and nothing else;
#   - ldd of the CLI, the plugin and the library: Debian libraries only;
#   - parquetry --version prints the CMake project version and the commit;
#   - the examples build with find_package (one also with pkg-config + make)
#     and print the values they must;
#   - the wheel (built from the same tree) installs into a fresh venv and the
#     Python tests pass against it; pip installs ./python the same way;
#   - make package's .deb files: names, Depends, contents; the CLI runs from
#     the extracted runtime package.
# Environment: PARQUETRY_SOURCE_DIR, INSTALL_CHECK_DIR (scratch), PARQUETRY_SHARED_DIR.
set -euo pipefail

SRC=${PARQUETRY_SOURCE_DIR:?}
WORK=${INSTALL_CHECK_DIR:?}
SHARED=${PARQUETRY_SHARED_DIR:?}
JOBS=${INSTALL_CHECK_JOBS:-2}
# INSTALL_CHECK_BUILD: an existing `package` preset tree to use instead (by hand,
# e.g. build/package after `make package`; ctest leaves it unset).
BUILD=${INSTALL_CHECK_BUILD:-$WORK/build}
PREFIX=$WORK/prefix
PY=/usr/bin/python3
DATA=$SHARED/testdata/parquet-testing/data

step_start=$SECONDS
step() { echo "== [$((SECONDS - step_start))s] $*"; }
fail() { echo "FAIL: $*" >&2; exit 1; }
expect_line() {  # expect_line FILE LINE: FILE holds exactly that line
  grep -qxF -- "$2" "$1" || { echo "--- $1:"; cat "$1"; fail "expected the line '$2' in $1"; }
}

VERSION=$(sed -nE 's/^project\(parquetry VERSION ([0-9]+\.[0-9]+\.[0-9]+).*/\1/p' "$SRC/CMakeLists.txt")
MAJOR=${VERSION%%.*}
[ -n "$VERSION" ] || fail "no project version in CMakeLists.txt"

step "configure + build the package preset in $BUILD"
if [ ! -f "$BUILD/CMakeCache.txt" ]; then (cd "$SRC" && cmake --preset package -B "$BUILD" >/dev/null); fi
cmake --build "$BUILD" -j "$JOBS"

step "install into $PREFIX"
rm -rf "$PREFIX" "$WORK/examples" "$WORK/venv" "$WORK/venv-pip" "$WORK/dist" "$WORK/python-src" "$WORK/deb"
cmake --install "$BUILD" --prefix "$PREFIX" >/dev/null
for f in bin/parquetry bin/protoc-gen-parquetry lib/libparquetry.a "lib/libparquetry.so.$VERSION" \
         "lib/libparquetry.so.$MAJOR" lib/libparquetry.so lib/cmake/parquetry/parquetryConfig.cmake \
         lib/cmake/parquetry/parquetryConfigVersion.cmake lib/cmake/parquetry/ParquetryProtobuf.cmake \
         lib/pkgconfig/parquetry.pc include/parquetry/reader.h include/parquetry/version.h \
         include/parquetry/export.h include/parquetry/util/buffer.h; do
  [ -e "$PREFIX/$f" ] || fail "not installed: $f"
done
# Only public headers: exactly the headers of include/ plus the generated version.h.
expected_headers=$( (cd "$SRC/include" && find parquetry -name '*.h'; echo parquetry/version.h) | sort)
installed_headers=$(cd "$PREFIX/include" && find parquetry -type f | sort)
[ "$expected_headers" = "$installed_headers" ] || fail "installed headers differ from include/: $(diff <(echo "$expected_headers") <(echo "$installed_headers") || true)"
if grep -rlF "$BUILD" "$PREFIX"; then fail "installed files above name the build tree $BUILD"; fi

step "SONAME and exported symbols"
soname=$(objdump -p "$PREFIX/lib/libparquetry.so.$VERSION" | awk '$1 == "SONAME" {print $2}')
[ "$soname" = "libparquetry.so.$MAJOR" ] || fail "SONAME is '$soname', expected libparquetry.so.$MAJOR"
"$PY" "$SRC/tests/install/check_symbols.py" "$PREFIX/lib/libparquetry.so.$VERSION" "$PREFIX/include" \
  "$PREFIX/lib/libparquetry.a"

step "ldd: Debian libraries and the C/C++ runtime only"
# One dpkg -S for every library (each call reads dpkg's whole file list, seconds
# apiece): a library passes when dpkg owns its path or the file it resolves to
# (/lib and /usr/lib name the same files on merged-/usr systems).
libs=()
for binary in "$PREFIX/bin/parquetry" "$PREFIX/bin/protoc-gen-parquetry" "$PREFIX/lib/libparquetry.so.$VERSION"; do
  ldd "$binary" > "$WORK/ldd.txt"
  if grep -q "not found" "$WORK/ldd.txt"; then cat "$WORK/ldd.txt"; fail "$binary: unresolved libraries"; fi
  for lib in $(awk '$2 == "=>" {print $3} $1 ~ /^\// {print $1}' "$WORK/ldd.txt"); do
    libs+=("$lib" "$(realpath "$lib")")
  done
  echo "$(basename "$binary"): $(awk '$2 == "=>" {print $1}' "$WORK/ldd.txt" | tr '\n' ' ')"
done
dpkg -S "${libs[@]}" 2>/dev/null | sed -E 's/^.*: //' | sort -u > "$WORK/owned.txt" || true
for ((i = 0; i < ${#libs[@]}; i += 2)); do
  grep -qxF -e "${libs[i]}" -e "${libs[i + 1]}" "$WORK/owned.txt" ||
    fail "${libs[i]} (${libs[i + 1]}) is linked but no Debian package owns it"
done

step "parquetry --version"
"$PREFIX/bin/parquetry" --version > "$WORK/version.txt"
grep -qxE "parquetry $VERSION \(build ([0-9a-f]{12}(-dirty)?|unknown)\)" "$WORK/version.txt" ||
  fail "--version printed '$(cat "$WORK/version.txt")'"
commit=$(sed -E 's/.*\(build (.*)\)/\1/' "$WORK/version.txt")

step "every installed header compiles on its own"
find "$PREFIX/include/parquetry" -name '*.h' | sort | xargs -P "$JOBS" -I{} sh -c \
  'printf "#include \"%s\"\n" "${1#$2/include/}" | c++ -std=c++20 -Wall -Wextra -Wno-unused-parameter -Werror \
     -fsyntax-only -I"$2/include" -x c++ - || { echo "FAIL: $1 does not compile on its own"; exit 255; }' \
  _ {} "$PREFIX"

step "examples with find_package(parquetry)"
export CMAKE_PREFIX_PATH=$PREFIX
example() {  # example NAME: configure + build examples/NAME against the prefix
  cmake -S "$SRC/examples/$1" -B "$WORK/examples/$1" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -Dparquetry_DIR="$PREFIX/lib/cmake/parquetry" >/dev/null
  cmake --build "$WORK/examples/$1" >/dev/null
}
example read_arrow
"$WORK/examples/read_arrow/read_arrow" "$DATA/alltypes_plain.parquet" > "$WORK/read_arrow.txt"
expect_line "$WORK/read_arrow.txt" "rows 8 batches 1 columns 11"
expect_line "$WORK/read_arrow.txt" "id i sum 28"
expect_line "$WORK/read_arrow.txt" "bigint_col l sum 40"
expect_line "$WORK/read_arrow.txt" "string_col z"  # BYTE_ARRAY without a UTF8 annotation: binary
ldd "$WORK/examples/read_arrow/read_arrow" > "$WORK/read_arrow-ldd.txt"
grep -qF "libparquetry.so.$MAJOR => $PREFIX/lib/libparquetry.so.$MAJOR" "$WORK/read_arrow-ldd.txt" ||
  fail "read_arrow does not run with the installed libparquetry.so.$MAJOR"

example write_rows
"$WORK/examples/write_rows/write_rows" "$WORK/rows.parquet" 1000 > "$WORK/write_rows.txt"
expect_line "$WORK/write_rows.txt" "rows 1000 id_sum 499500 score_sum 249750.0 null_names 334"
expect_line "$WORK/write_rows.txt" "created_by parquetry version $VERSION (build $commit)"
expect_line "$WORK/write_rows.txt" "library $VERSION (build $commit)"
ldd "$WORK/examples/write_rows/write_rows" > "$WORK/write_rows-ldd.txt"
if grep -q libparquetry "$WORK/write_rows-ldd.txt"; then fail "write_rows should link libparquetry.a"; fi
# The installed CLI reads what the example wrote.
"$PREFIX/bin/parquetry" meta "$WORK/rows.parquet" > "$WORK/meta.txt"
grep -qF "parquetry version $VERSION" "$WORK/meta.txt" || { cat "$WORK/meta.txt"; fail "meta lacks created_by"; }

example protobuf_writer
"$WORK/examples/protobuf_writer/protobuf_writer" "$WORK/events.parquet" 1000 > "$WORK/protobuf_writer.txt"
expect_line "$WORK/protobuf_writer.txt" "rows 1000 id_sum 499500 clicks 500 tags 999 amount 124875.00"

step "read_arrow with pkg-config and make"
mkdir -p "$WORK/examples/read_arrow-make"
cp "$SRC/examples/read_arrow/Makefile" "$SRC/examples/read_arrow/main.cc" "$WORK/examples/read_arrow-make/"
PKG_CONFIG_PATH=$PREFIX/lib/pkgconfig make -s -C "$WORK/examples/read_arrow-make" >/dev/null
"$WORK/examples/read_arrow-make/read_arrow" "$DATA/alltypes_plain.parquet" > "$WORK/read_arrow-make.txt"
cmp "$WORK/read_arrow.txt" "$WORK/read_arrow-make.txt" || fail "the pkg-config build prints something else"
[ "$(PKG_CONFIG_PATH=$PREFIX/lib/pkgconfig pkg-config --modversion parquetry)" = "$VERSION" ] || fail "pkg-config version"

step "wheel into a fresh venv, Python tests against it"
# A copy of python/: building writes build/ and *.egg-info beside setup.py.
mkdir -p "$WORK/python-src"
cp -r "$SRC/python/pyproject.toml" "$SRC/python/setup.py" "$SRC/python/README.md" "$SRC/python/parquetry" "$WORK/python-src/"
export PARQUETRY_SOURCE_DIR=$SRC PARQUETRY_CMAKE_BUILD_DIR=$BUILD PYTHONDONTWRITEBYTECODE=1
unset PYTHONPATH
(cd "$WORK" && "$PY" -m build --wheel --no-isolation --outdir "$WORK/dist" "$WORK/python-src" > "$WORK/wheel.log" 2>&1) ||
  { tail -30 "$WORK/wheel.log"; fail "python3 -m build --wheel"; }
wheel=$(ls "$WORK"/dist/parquetry-"$VERSION"-*.whl)
# Listed into a file first: with pipefail, `grep -q` leaving early would break
# the lister's pipe and fail the step at random.
"$PY" -m zipfile -l "$wheel" > "$WORK/wheel-files.txt"
grep -qF "parquetry/__init__.pyi" "$WORK/wheel-files.txt" || fail "the wheel lacks the type stubs"
"$PY" -m venv --system-site-packages "$WORK/venv"
"$WORK/venv/bin/python" -m pip install -q --no-index --no-deps "$wheel"
(cd "$WORK" && "$WORK/venv/bin/python" - "$WORK/venv" "$VERSION" "$commit" <<'PYEOF'
import sys
import parquetry
venv, version, commit = sys.argv[1:]
assert parquetry.__file__.startswith(venv), parquetry.__file__
assert parquetry.__version__ == version, parquetry.__version__
assert parquetry.build_commit == commit, parquetry.build_commit
assert parquetry.read.__doc__ and parquetry.Table.column.__doc__
print("import parquetry", parquetry.__version__, "from", parquetry.__file__)
PYEOF
)
(cd "$WORK" && PARQUETRY_CLI=$PREFIX/bin/parquetry PARQUETRY_SHARED_DIR=$SHARED \
  "$WORK/venv/bin/python" -m pytest -q -p no:cacheprovider "$SRC/tests/python")

step "pip install ./python --no-build-isolation"
"$PY" -m venv --system-site-packages "$WORK/venv-pip"
(cd "$WORK" && "$WORK/venv-pip/bin/python" -m pip install -q --no-index --no-build-isolation "$WORK/python-src")
(cd "$WORK" && "$WORK/venv-pip/bin/python" -c "import parquetry, sys; assert parquetry.__file__.startswith(sys.prefix); assert parquetry.__version__ == '$VERSION'; print(parquetry.read('$DATA/alltypes_plain.parquet', columns=['id']).column('id').sum())") > "$WORK/pip.txt"
expect_line "$WORK/pip.txt" "28"

step "make package: .deb files"
(cd "$BUILD" && cpack -G DEB > "$WORK/cpack.log" 2>&1) || { tail -30 "$WORK/cpack.log"; fail cpack; }
runtime_deb=$BUILD/packages/parquetry_${VERSION}_amd64.deb
dev_deb=$BUILD/packages/parquetry-dev_${VERSION}_amd64.deb
[ -f "$runtime_deb" ] && [ -f "$dev_deb" ] || { ls "$BUILD/packages"; fail "expected $runtime_deb and $dev_deb"; }
depends=$(dpkg-deb -f "$runtime_deb" Depends)
echo "Depends: $depends"
for pkg in libc6 libstdc++6 libzstd1 libsnappy1v5 libssl3 libcurl4 libprotobuf libroaring; do
  echo "$depends" | grep -q "$pkg" || fail "the runtime package's Depends lacks $pkg"
done
dpkg-deb -f "$dev_deb" Depends | grep -q "parquetry (= $VERSION)" || fail "parquetry-dev must depend on parquetry"
dpkg-deb -c "$dev_deb" > "$WORK/dev-contents.txt"
for f in ./usr/include/parquetry/reader.h ./usr/lib/cmake/parquetry/parquetryConfig.cmake \
         ./usr/lib/pkgconfig/parquetry.pc ./usr/lib/libparquetry.a; do
  grep -qF " $f" "$WORK/dev-contents.txt" || fail "parquetry-dev lacks $f"
done
dpkg -x "$runtime_deb" "$WORK/deb"
"$WORK/deb/usr/bin/parquetry" --version | grep -qxF "parquetry $VERSION (build $commit)" || fail "CLI from the .deb"
"$WORK/deb/usr/bin/parquetry" scan --json "$DATA/alltypes_plain.parquet" > "$WORK/deb-scan.json"
"$PY" -c "import json,sys; s=json.load(open(sys.argv[1])); assert s['rows'] == 8, s" "$WORK/deb-scan.json" ||
  fail "the .deb's CLI scans alltypes_plain.parquet wrong"
[ -e "$WORK/deb/usr/lib/libparquetry.so.$MAJOR" ] || fail "the runtime package lacks libparquetry.so.$MAJOR"

step "all install checks passed"
