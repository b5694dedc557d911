# The plugin SDK test: install the build into a temporary prefix, then build two plugins
# outside the tree against it with find_package(tegula) only (tg_plugin() and
# tegula::plugin_sdk from the package, no path into the source or build tree), and load them
# through TEGULA_ADD_PLUGINS:
#   - plugins/null, copied as it is: the skeleton a vendor starts from builds and loads;
#   - the reference plugin's sources, copied: a complete SDK-based device (entry table and
#     guarded thunks, error objects, the host device, launch validation, the executable
#     container) that runs a filtered conformance run,
#     so the installed SDK is shown to be enough for a working backend, not just a stub;
#   - a vendor's test of that plugin against the installed test harness
#     (tegula::plugin_testing, out_of_tree/harness_check.cpp): a kernel on the plugin matches
#     the interpreter, and a wrong kernel's executable does not.
#
#   cmake -DBUILD_DIR=... -DSOURCE_DIR=... -DGENERATOR=... -DWORK_DIR=... -P install_and_build_plugin.cmake

include(${CMAKE_CURRENT_LIST_DIR}/RunStep.cmake)

file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
run(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
foreach(f lib/cmake/tegula/TegulaPlugin.cmake lib/cmake/tegula/plugin_exports.map
          include/tegula/plugins/abi/tegula_abi_entries.h include/tegula/plugins/support/EntryTable.h
          include/tegula/plugins/support/Container.h include/tegula/ir/Lower.h
          include/tegula/plugins/support/testing/RunCompare.h include/tegula/examples/checks/Checks.h)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "not installed: ${f}")
  endif()
endforeach()

# Builds see only the prefix: no source or build tree on any path.
set(configure_args -G ${GENERATOR} -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_BUILD_TYPE=Release)
set(env ${CMAKE_COMMAND} -E env --unset=TEGULA_SELECT_PLUGINS --unset=TEGULA_DISABLE_PLUGINS
        TEGULA_PLUGINS=${prefix}/share/tegula/plugins.d TEGULA_CACHE_DIR=${WORK_DIR}/cache)

# --- plugins/null, copied out of the tree.
set(null_src ${WORK_DIR}/mybackend)
set(null_build ${WORK_DIR}/mybackend-build)
file(COPY ${SOURCE_DIR}/plugins/null/ DESTINATION ${null_src})
run(COMMAND ${CMAKE_COMMAND} -S ${null_src} -B ${null_build} ${configure_args})
run(COMMAND ${CMAKE_COMMAND} --build ${null_build})
# The out-of-tree manifest is searched first, so it shadows the installed null plugin.
run(COMMAND ${env} TEGULA_ADD_PLUGINS=${null_build}/share/tegula/plugins.d ${prefix}/bin/tegula plugins
    EXPECT "null [^\n]*, ABI 1, 0 device\\(s\\)\n[^\n]*\n    library  ${null_build}/lib/libtegula_null.so")

# --- an SDK-based device plugin (the reference plugin's sources), built out of the tree.
set(dev_src ${WORK_DIR}/devplugin)
set(dev_build ${WORK_DIR}/devplugin-build)
file(GLOB ref_sources ${SOURCE_DIR}/plugins/reference/*.cpp ${SOURCE_DIR}/plugins/reference/*.h)
file(COPY ${ref_sources} DESTINATION ${dev_src}/plugins/reference)
file(WRITE ${dev_src}/CMakeLists.txt [[
cmake_minimum_required(VERSION 3.20)
project(devplugin VERSION 0.1.0 LANGUAGES C CXX)
set(CMAKE_CXX_STANDARD 20)
find_package(tegula 0.1 REQUIRED)
tg_plugin(reference
  SOURCES plugins/reference/Api.cpp plugins/reference/Plugin.cpp plugins/reference/Target.cpp
          plugins/reference/Executable.cpp
  LIBS tegula::plugin_sdk)
]])
run(COMMAND ${CMAKE_COMMAND} -S ${dev_src} -B ${dev_build} ${configure_args})
run(COMMAND ${CMAKE_COMMAND} --build ${dev_build})
set(dev_env ${env} TEGULA_ADD_PLUGINS=${dev_build}/share/tegula/plugins.d)
# Built out of the tree on the installed SDK, the reference plugin still declares TG_CONCURRENT_COMPILE.
run(COMMAND ${dev_env} ${prefix}/bin/tegula plugins
    EXPECT "reference [^\n]*, ABI 1, 1 device\\(s\\), compiles side by side\n[^\n]*\n    library  ${dev_build}/lib/libtegula_reference.so")
# A few families (copies, a reduction, an fma gemm: 19 cases today, seconds), each checked
# against the float64 oracle: `conformant`, every case passing (nothing but "N passed" in the
# summary line).
run(COMMAND ${dev_env} ${prefix}/bin/tegula conformance --device reference:0 --jobs 2 --quiet --out ${WORK_DIR}/report
            --filter "tegula.copy.global_fragment.f32.*,tegula.reduce.sum.*.exact,tegula.gemm.fma.*.exact"
    EXPECT "^conformant: [1-9][0-9]* cases, [1-9][0-9]* passed; report [^\n]*/report.html")

# --- the vendor's test of it, against the installed harness.
set(check_src ${WORK_DIR}/harness-check)
set(check_build ${WORK_DIR}/harness-check-build)
file(COPY ${SOURCE_DIR}/runtime/tests/out_of_tree/harness_check.cpp DESTINATION ${check_src})
file(WRITE ${check_src}/CMakeLists.txt [[
cmake_minimum_required(VERSION 3.20)
project(harness_check LANGUAGES CXX)
set(CMAKE_CXX_STANDARD 20)
find_package(tegula 0.1 REQUIRED)
add_executable(harness_check harness_check.cpp)
target_link_libraries(harness_check PRIVATE tegula::plugin_testing)
]])
run(COMMAND ${CMAKE_COMMAND} -S ${check_src} -B ${check_build} ${configure_args})
run(COMMAND ${CMAKE_COMMAND} --build ${check_build})
run(COMMAND ${check_build}/harness_check ${dev_build}/lib/libtegula_reference.so
    EXPECT "^harness: scale matches the interpreter; the wrong kernel is found: scale: Y: 100 of 100 elements differ")
