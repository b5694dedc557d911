# Installing the runtime as a CMake package, so that another project can write
#
#   find_package(tegula 0.1 REQUIRED)
#   target_link_libraries(app PRIVATE tegula::runtime)
#
# tegula::runtime carries the C API (<tegula/tegula.h>), the C++ layer (<tegula/tegula.hpp>)
# and, for C++ embedders who build kernels with ir::KernelBuilder, the IR headers
# ("ir/Builder.h", with <prefix>/include/tegula on the include path). It is a static
# library; its static dependencies are exported with it and linked transitively.
#
# For backend plugins built outside the tree: tegula::plugin_sdk (plugins/support, with the IR
# library) and tg_plugin() (plugins/cmake/TegulaPlugin.cmake); plugins/null builds this way.
# For their tests: tegula::plugin_testing (plugins/support/testing, with the interpreter and
# the examples' launch data, tegula::examples_checks).
include(CMakePackageConfigHelpers)

set(TEGULA_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/tegula)

install(TARGETS tegula_runtime tegula_ir tegula_targets tegula_core tegula_plugin_support tegula_plugin_testing
  EXPORT tegulaTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(EXPORT tegulaTargets NAMESPACE tegula:: DESTINATION ${TEGULA_CMAKE_DIR})

install(DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/include/tegula/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tegula)
foreach(dir core ir targets)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${dir}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tegula/${dir}
          FILES_MATCHING PATTERN "*.h" PATTERN "tests" EXCLUDE PATTERN "fuzz" EXCLUDE)
endforeach()
# For out-of-tree plugins, at the paths the tree's own plugins include: the ABI header and its
# entry list, the SDK's headers (tegula::plugin_sdk), and tg_plugin() (TegulaPlugin.cmake, which
# tegulaConfig.cmake includes).
install(FILES ${PROJECT_SOURCE_DIR}/plugins/abi/tegula_plugin.h ${PROJECT_SOURCE_DIR}/plugins/abi/tegula_abi_entries.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tegula/plugins/abi)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/plugins/support/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tegula/plugins/support
        FILES_MATCHING PATTERN "*.h" PATTERN "tests" EXCLUDE)
# (tegula::examples_checks joins the export set in examples/CMakeLists.txt, where it is made.)
install(FILES ${PROJECT_SOURCE_DIR}/plugins/cmake/TegulaPlugin.cmake ${PROJECT_SOURCE_DIR}/plugins/cmake/plugin_exports.map
        DESTINATION ${TEGULA_CMAKE_DIR})

configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/tegulaConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/tegulaConfig.cmake
  INSTALL_DESTINATION ${TEGULA_CMAKE_DIR}
  PATH_VARS CMAKE_INSTALL_DATADIR)
# 0.x: a minor version may break the API, so only the same minor version is compatible.
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/tegulaConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/tegulaConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/tegulaConfigVersion.cmake
        DESTINATION ${TEGULA_CMAKE_DIR})
