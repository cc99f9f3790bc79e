"""Builds the `_parquetry` extension with the project's CMake.

The version is the CMake project version (top-level CMakeLists.txt), the one
place it is written. Environment:
  PARQUETRY_SOURCE_DIR       the checkout (default: this file's parent folder)
  PARQUETRY_CMAKE_BUILD_DIR  an already configured build tree to build the
                             extension in, instead of a fresh one under
                             build_temp (the install test and `make package`
                             reuse their release tree, so nothing compiles twice)
  PARQUETRY_BUILD_JOBS       parallel compile jobs (default: all cores)
"""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
SOURCE_DIR = Path(os.environ.get("PARQUETRY_SOURCE_DIR", HERE.parent)).resolve()


def project_version():
    text = (SOURCE_DIR / "CMakeLists.txt").read_text()
    match = re.search(r"project\(\s*parquetry\s+VERSION\s+([0-9]+\.[0-9]+\.[0-9]+)", text)
    if not match:
        raise RuntimeError(f"no project version in {SOURCE_DIR / 'CMakeLists.txt'}")
    return match.group(1)


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        target = Path(self.get_ext_fullpath(ext.name)).resolve()
        build_dir = os.environ.get("PARQUETRY_CMAKE_BUILD_DIR")
        if build_dir:
            build_dir = Path(build_dir).resolve()
        else:
            build_dir = Path(self.build_temp).resolve() / "cmake"
            configure = ["cmake", "-S", str(SOURCE_DIR), "-B", str(build_dir),
                         "-DCMAKE_BUILD_TYPE=Release", "-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG",
                         "-DPARQUETRY_BUILD_TESTS=OFF", "-DPARQUETRY_BUILD_BENCH=OFF",
                         "-DPARQUETRY_INSTALL=OFF", f"-DPARQUETRY_PYTHON_EXECUTABLE={sys.executable}"]
            if shutil.which("ninja"):
                configure += ["-G", "Ninja"]
            subprocess.run(configure, check=True)
        jobs = os.environ.get("PARQUETRY_BUILD_JOBS", str(os.cpu_count() or 1))
        subprocess.run(["cmake", "--build", str(build_dir), "--target", "_parquetry", "-j", jobs], check=True)
        built = sorted((build_dir / "python" / "parquetry").glob("_parquetry*.so"))
        if not built:
            raise RuntimeError(f"CMake built no _parquetry extension in {build_dir}/python/parquetry "
                               "(are python3-dev and pybind11-dev installed?)")
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built[0], target)


setup(
    version=project_version(),
    ext_modules=[CMakeExtension("parquetry._parquetry")],
    cmdclass={"build_ext": CMakeBuild},
    zip_safe=False,
)
