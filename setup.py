"""pip's way in: the Python package `onyx` and the `onyx` tool, built by CMake.

    python3 -m pip install --no-build-isolation .

(Debian's python3-setuptools, python3-wheel and python3-pip are enough; on Debian 12 pip
installs into a virtual environment, `python3 -m venv --system-site-packages ENV`, so that
NumPy is Debian's: README.md, "Installing".)

build_ext configures a CMake build folder under setuptools' build folder (build/pip), optimised as
scripts/configure.sh's release build is and without the tests, builds only the two targets the
wheel holds, onyx_python (the extension module onyx/_onyx) and onyx_tool (the `onyx`
command), and puts them in the wheel: the module beside the pure-Python files of python/onyx,
the tool as a data file in bin/, which pip installs on PATH (ENV/bin/onyx).

Environment:
  ONYX_CMAKE_BUILD_DIR  an existing, configured CMake build folder (with -DONYX_PYTHON=ON for
                        this same Python, as both builds of scripts/configure.sh are): the two
                        targets are built there (nothing to do when they are up to date) and
                        no new build folder is configured. scripts/package_test.sh reuses
                        build/release so.
  ONYX_CMAKE_ARGS       extra arguments for the configure step (split as a shell splits).
  CMAKE_BUILD_PARALLEL_LEVEL  build jobs (default: the generator's, every core for Ninja).
"""

import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
TARGETS = ["onyx_python", "onyx_tool"]


def project_version():
    """The version has one home, the project() line of CMakeLists.txt."""
    text = (ROOT / "CMakeLists.txt").read_text()
    match = re.search(r"project\(\s*onyx\s+VERSION\s+([0-9][0-9.]*)", text)
    if match is None:
        raise RuntimeError("no `project(onyx VERSION ...)` line in CMakeLists.txt")
    return match.group(1)


def cache_value(build_dir, name):
    """A variable of BUILD_DIR's CMakeCache.txt, or None."""
    for line in (build_dir / "CMakeCache.txt").read_text().splitlines():
        key, _, value = line.partition("=")
        if key.split(":")[0] == name:
            return value
    return None


class CMakeExtension(Extension):
    """An extension module that CMake builds (python/CMakeLists.txt's onyx_python)."""

    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def run(self):
        build_dir = self.cmake_build_dir()
        command = ["cmake", "--build", str(build_dir), "--target", *TARGETS]
        if self.parallel:
            command += ["--parallel", str(self.parallel)]
        self.announce("building " + " ".join(TARGETS) + f" in {build_dir}", level=2)
        subprocess.run(command, check=True)
        self.module = self.built_module(build_dir)
        tool = build_dir / "tools" / "onyx" / "onyx"
        if not tool.is_file():
            raise RuntimeError(f"{tool} is missing after the build")
        # install_data takes paths relative to the source folder: the tool goes through a copy
        # in setuptools' build folder, installed as <prefix>/bin/onyx.
        staged = Path(self.build_temp) / "bin" / "onyx"
        staged.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(tool, staged)
        self.distribution.data_files = [("bin", [os.path.relpath(staged, os.getcwd())])]
        super().run()

    def cmake_build_dir(self):
        given = os.environ.get("ONYX_CMAKE_BUILD_DIR")
        if given:
            build_dir = Path(given).resolve()
            if not (build_dir / "CMakeCache.txt").is_file():
                raise RuntimeError(
                    f"ONYX_CMAKE_BUILD_DIR={given} is not a configured CMake build folder"
                )
            if cache_value(build_dir, "ONYX_PYTHON") not in ("ON", "TRUE", "1", "YES"):
                raise RuntimeError(
                    f"ONYX_CMAKE_BUILD_DIR={given} was configured without -DONYX_PYTHON=ON"
                )
            return build_dir
        build_dir = (Path(self.build_temp) / "cmake").resolve()
        if not (build_dir / "CMakeCache.txt").is_file():
            generator = ["-G", "Ninja"] if shutil.which("ninja") else []
            command = [
                "cmake", "-S", str(ROOT), "-B", str(build_dir), *generator,
                # scripts/configure.sh's release build: optimised, no debug information.
                "-DCMAKE_BUILD_TYPE=RelWithDebInfo",
                "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -DNDEBUG",
                "-DONYX_PYTHON=ON",
                "-DONYX_TESTS=OFF",
                f"-DPython3_EXECUTABLE={sys.executable}",
                *shlex.split(os.environ.get("ONYX_CMAKE_ARGS", "")),
            ]
            self.announce("configuring " + " ".join(command), level=2)
            subprocess.run(command, check=True)
        return build_dir

    def built_module(self, build_dir):
        """The extension module the build made, which must be for this Python."""
        suffix = sysconfig.get_config_var("EXT_SUFFIX")
        module = build_dir / "python" / "onyx" / f"_onyx{suffix}"
        if not module.is_file():
            found = sorted(p.name for p in (build_dir / "python" / "onyx").glob("_onyx*"))
            raise RuntimeError(
                f"{module} is missing after the build"
                + (f" (found {', '.join(found)}: built for another Python?)" if found else "")
            )
        return module

    def build_extension(self, ext):
        destination = Path(self.get_ext_fullpath(ext.name))
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(self.module, destination)


# setuptools' own build folder, build/pip (beside the project's build folders, which git
# ignores), holds the egg-info too, rather than python/.
BUILD_BASE = ROOT / "build" / "pip"
BUILD_BASE.mkdir(parents=True, exist_ok=True)

setup(
    version=project_version(),
    packages=["onyx"],
    package_dir={"": "python"},
    package_data={"onyx": ["__init__.pyi", "py.typed"]},
    ext_modules=[CMakeExtension("onyx._onyx")],
    cmdclass={"build_ext": CMakeBuild},
    options={"build": {"build_base": str(BUILD_BASE)}, "egg_info": {"egg_base": str(BUILD_BASE)}},
    zip_safe=False,
)
