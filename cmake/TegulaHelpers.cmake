# Shared build helpers: warning flags and the one-executable-per-folder test layout.

set(TEGULA_WARNING_FLAGS -Wall -Wextra -Wno-missing-field-initializers)
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  list(APPEND TEGULA_WARNING_FLAGS -Wshadow=local)
  if(CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    # GCC 12 at -O3 (Release) reports -Wrestrict inside libstdc++'s own std::string code
    # wherever it inlines `"literal" + std::string(...)` ("accessing 9223372036854775810 or
    # more bytes ... may overlap"): GCC bug 105651, a false positive in the standard library
    # fixed in GCC 13, not an overlap in this code.
    list(APPEND TEGULA_WARNING_FLAGS -Wno-restrict)
  endif()
endif()
if(TEGULA_WERROR)
  list(APPEND TEGULA_WARNING_FLAGS -Werror)
endif()

# tg_library(NAME SOURCES ... [LIBS ...]): a static library of the project with the
# repository root on its include path.
function(tg_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS" ${ARGN})
  add_library(${name} STATIC ${ARG_SOURCES})
  target_include_directories(${name} PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>)
  target_compile_options(${name} PRIVATE ${TEGULA_WARNING_FLAGS})
  target_link_libraries(${name} PUBLIC ${ARG_LIBS})
endfunction()

option(TEGULA_UNITY_TESTS "compile test files in batches (faster clean builds)" ON)

# tg_test_suite(NAME SOURCES ... [LIBS ...]): one doctest executable for a folder, and one
# CTest entry per test source file (each file tests one property), named NAME.<file stem>.
function(tg_test_suite name)
  if(NOT TEGULA_BUILD_TESTS)
    return()
  endif()
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_compile_options(${name} PRIVATE ${TEGULA_WARNING_FLAGS})
  target_link_libraries(${name} PRIVATE tegula_doctest_main ${ARG_LIBS})
  # Test files compile in batches of 16 (a unity build): a batch parses doctest and the
  # project's headers once, not once per file, which took the clean test build from
  # 1029 to 275 CPU-seconds (bench/results/ci-2026-12-03.md). Each test file's code lives in a namespace named
  # for the file, so helpers and using-directives never meet another file's; __FILE__
  # stays the file's own path, so the per-file CTest entries still select their cases.
  set_target_properties(${name} PROPERTIES UNITY_BUILD ${TEGULA_UNITY_TESTS} UNITY_BUILD_BATCH_SIZE 16)
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR})
  target_compile_definitions(${name} PRIVATE TEGULA_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
                                             TEGULA_BINARY_DIR="${PROJECT_BINARY_DIR}")
  foreach(src ${ARG_SOURCES})
    get_filename_component(stem ${src} NAME_WE)
    string(REGEX REPLACE "_test$" "" prop ${stem})
    add_test(NAME ${name}.${prop} COMMAND ${name} --source-file=*${stem}.cpp --no-intro)
    # An entry whose filter selects no test case fails instead of passing empty.
    set_tests_properties(${name}.${prop} PROPERTIES FAIL_REGULAR_EXPRESSION "test cases: +0 [|]")
  endforeach()
endfunction()
