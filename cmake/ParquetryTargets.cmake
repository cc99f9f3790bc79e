# Helpers that keep each folder's CMakeLists.txt to one call.

# parquetry_layer(<name> [DEPS layer...] [LIBS target...])
# Builds src/parquetry/<name>/*.cc into the static library parquetry_<name>.
function(parquetry_layer name)
  cmake_parse_arguments(L "" "" "DEPS;LIBS" ${ARGN})
  file(GLOB sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.cc)
  set(deps)
  foreach(dep IN LISTS L_DEPS)
    list(APPEND deps parquetry_${dep})
  endforeach()
  if(sources)
    add_library(parquetry_${name} STATIC ${sources})
    target_link_libraries(parquetry_${name} PUBLIC parquetry_build_flags ${deps} ${L_LIBS})
    # Hidden by default: libparquetry.so (cmake/ParquetryInstall.cmake) is
    # linked from these same objects and exports only what the public headers
    # mark PARQUETRY_API (include/parquetry/export.h).
    set_target_properties(parquetry_${name} PROPERTIES CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)
  else()
    add_library(parquetry_${name} INTERFACE)
    target_link_libraries(parquetry_${name} INTERFACE parquetry_build_flags ${deps} ${L_LIBS})
  endif()
endfunction()

# parquetry_test_dir(<name> [LIBS target...] [TEST_PREFIX prefix])
# Builds tests/<name>/*_test.cc into one GoogleTest binary test_<name> and
# registers its cases with ctest (names prefixed with TEST_PREFIX, if given,
# so `ctest -R <prefix>` selects the folder). Tests find the shared test data
# through parquetry::testing::shared_dir() (tests/support).
function(parquetry_test_dir name)
  cmake_parse_arguments(T "" "TEST_PREFIX" "LIBS" ${ARGN})
  file(GLOB sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*_test.cc)
  if(NOT sources)
    return()
  endif()
  add_executable(test_${name} ${sources})
  target_link_libraries(test_${name} PRIVATE parquetry_test_support ${T_LIBS} GTest::gtest_main)
  gtest_discover_tests(test_${name} DISCOVERY_MODE PRE_TEST DISCOVERY_TIMEOUT 60 TEST_PREFIX "${T_TEST_PREFIX}"
    PROPERTIES ENVIRONMENT "PARQUETRY_SHARED_DIR=${PARQUETRY_SHARED_DIR}")
endfunction()
