# The Debian package: `cpack -G DEB` in a build folder makes onyx_<version>_<arch>.deb with
# everything `cmake --install` installs (cmake/install.cmake, python/CMakeLists.txt) under /usr:
# the libraries, shared and static, the headers and the CMake package (find_package(onyx)),
# the `onyx` tool, and the Python package where Debian's python3 imports it
# (/usr/lib/python3/dist-packages/onyx). scripts/package_test.sh builds, installs and tries it.
#
# Depends: the run-time libraries, found by dpkg-shlibdeps from what the binaries link (oneDNN,
# libgomp, the image libraries, libstdc++), and the Python the extension module was built for,
# with NumPy. Recommends: what find_package(onyx) needs to build a program against the package
# (onyxConfig.cmake finds oneDNN and the image libraries, the static evaluator links them).

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME onyx)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "onyx")
set(ONYX_PACKAGE_MAINTAINER "onyx developers <onyx-dev@example.org>"
    CACHE STRING "The Debian package's Maintainer field")
set(CPACK_PACKAGE_CONTACT "${ONYX_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "ONNX models in C++ and Python: read, write, check, infer, optimise and run")
set(CPACK_PACKAGE_DESCRIPTION
    "onyx is a C++20 implementation of the ONNX intermediate representation.\n\
This package holds the library (libonyx, shared and static, with its headers and\n\
CMake package: find_package(onyx)), the `onyx` command-line tool and the Python\n\
package (import onyx).")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # onyx_0.1.0_amd64.deb
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# A shlibs file for libonyx.so.0 and libonyx_core.so.0, and the ldconfig trigger.
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)

set(ONYX_PACKAGE_DEPENDS)
set(ONYX_PACKAGE_SUGGESTS)
if(ONYX_PYTHON)
  # The extension module is built for one Python version (its file name says which).
  find_package(Python3 REQUIRED COMPONENTS Interpreter)
  math(EXPR ONYX_PYTHON_NEXT_MINOR "${Python3_VERSION_MINOR} + 1")
  list(APPEND ONYX_PACKAGE_DEPENDS
       "python3 (>= ${Python3_VERSION_MAJOR}.${Python3_VERSION_MINOR}~)"
       "python3 (<< ${Python3_VERSION_MAJOR}.${ONYX_PYTHON_NEXT_MINOR})" python3-numpy)
  # Model.to_onnx and onyx.from_onnx convert to and from the onnx package's protobufs.
  list(APPEND ONYX_PACKAGE_SUGGESTS python3-onnx)
endif()
list(JOIN ONYX_PACKAGE_DEPENDS ", " CPACK_DEBIAN_PACKAGE_DEPENDS)
list(JOIN ONYX_PACKAGE_SUGGESTS ", " CPACK_DEBIAN_PACKAGE_SUGGESTS)
# ocl-icd-opencl-dev: Debian's oneDNN CMake package looks for OpenCL (scripts/deps.sh).
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS
    "cmake, g++, pkg-config, libdnnl-dev, ocl-icd-opencl-dev, libjpeg-dev, libpng-dev, libtiff-dev, libwebp-dev, libopenjp2-7-dev")

set(CPACK_SOURCE_GENERATOR TGZ)
set(CPACK_SOURCE_IGNORE_FILES "/\\\\.git/" "/build[^/]*/" "/out/" "__pycache__")

include(CPack)
