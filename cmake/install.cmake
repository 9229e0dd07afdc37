include(CMakePackageConfigHelpers)

install(TARGETS onyx_core onyx_core_shared onyx_eval onyx_shared EXPORT onyxTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS onyx_tool RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY include/onyx DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT onyxTargets NAMESPACE onyx:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/onyx)

configure_package_config_file(cmake/onyxConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/onyxConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/onyx)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/onyxConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/onyxConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/onyxConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/onyx)
