"""`cmake --install` puts an importable package where Debian's python3 looks."""

import os
import pathlib
import shutil
import subprocess
import sys

import pytest

from conftest import build_dir


@pytest.mark.skipif(shutil.which("cmake") is None, reason="cmake is not installed")
def test_installed_package_imports(tmp_path):
    build = build_dir()
    if not (build / "cmake_install.cmake").exists():
        pytest.skip(f"{build} is not a CMake build folder")
    subprocess.run(
        ["cmake", "--install", str(build), "--prefix", str(tmp_path)],
        check=True,
        capture_output=True,
    )
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    site = tmp_path / "lib" / version / "dist-packages"
    assert (site / "onyx" / "__init__.pyi").exists()
    result = subprocess.run(
        [sys.executable, "-c", "import onyx; print(onyx.__file__)"],
        # The sanitizer build's runtime (LD_PRELOAD) goes along; nothing else points at the build.
        env={**os.environ, "PYTHONPATH": str(site)},
        capture_output=True,
        text=True,
        check=True,
    )
    assert pathlib.Path(result.stdout.strip()).parent == site / "onyx"
