# The seed-corpus generator for the model fuzz targets, built in every configuration so that
# it keeps compiling (tests/CMakeLists.txt includes this file; tests/fuzz/CMakeLists.txt too,
# for fuzz builds). It writes the corpus at run time; see tests/fuzz/README.md.
if(NOT TARGET onyx_make_fuzz_seeds)
  add_executable(onyx_make_fuzz_seeds ${CMAKE_CURRENT_LIST_DIR}/make_seeds.cc)
  target_link_libraries(onyx_make_fuzz_seeds PRIVATE onyx::onyx)
  set_target_properties(onyx_make_fuzz_seeds PROPERTIES
    RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/tests/fuzz)
  onyx_warnings(onyx_make_fuzz_seeds)
endif()

# The seed corpus of fuzz_text_parser: the hand-written texts of tests/support/text_samples.cc
# and a few lone graphs, node lists, functions and types.
if(NOT TARGET onyx_make_text_fuzz_seeds)
  add_executable(onyx_make_text_fuzz_seeds ${CMAKE_CURRENT_LIST_DIR}/make_text_seeds.cc
                                           ${CMAKE_CURRENT_LIST_DIR}/../support/text_samples.cc)
  target_include_directories(onyx_make_text_fuzz_seeds PRIVATE ${CMAKE_CURRENT_LIST_DIR}/..)
  target_link_libraries(onyx_make_text_fuzz_seeds PRIVATE onyx::onyx)
  set_target_properties(onyx_make_text_fuzz_seeds PROPERTIES
    RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/tests/fuzz)
  onyx_warnings(onyx_make_text_fuzz_seeds)
endif()
