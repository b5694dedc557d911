# tg_plugin(NAME SOURCES ... [LIBS ...] [DEFINES ...] [ABI_MIN n] [ABI_MAX n]
#           [MANIFEST_DIR dir] [NO_INSTALL] [NO_EXPORT_MAP])
#
# Builds the backend plugin NAME as a MODULE library libtegula_NAME.so in <build>/lib and
# writes its manifest NAME.json, so the runtime finds it in the build tree
# (<build>/share/tegula/plugins.d, or MANIFEST_DIR) and, once installed, in
# <prefix>/share/tegula/plugins.d next to <prefix>/<libdir>/tegula/libtegula_NAME.so.
#
# A plugin exports exactly one symbol, tg_plugin_query: sources build with hidden
# visibility, static dependencies (LIBS, e.g. tegula_ir) are linked in and kept local by a
# version script, and -z defs makes an unresolved symbol a link error rather than a dlopen
# failure on someone else's machine. NO_EXPORT_MAP drops the version script (only for test
# plugins that deliberately export the wrong thing).
include(GNUInstallDirs)

function(tg_write_plugin_manifest path name library abi_min abi_max)
  file(CONFIGURE OUTPUT ${path} CONTENT [[{
  "file_format_version": "1.0.0",
  "plugin": {
    "name": "@name@",
    "library_path": "@library@",
    "abi_min": @abi_min@,
    "abi_max": @abi_max@,
    "library_arch": "@CMAKE_SYSTEM_PROCESSOR@"
  }
}
]] @ONLY)
endfunction()

function(tg_plugin name)
  cmake_parse_arguments(ARG "NO_INSTALL;NO_EXPORT_MAP" "ABI_MIN;ABI_MAX;MANIFEST_DIR" "SOURCES;LIBS;DEFINES" ${ARGN})
  if(NOT DEFINED ARG_ABI_MIN)
    set(ARG_ABI_MIN 1)
  endif()
  if(NOT DEFINED ARG_ABI_MAX)
    set(ARG_ABI_MAX 1)
  endif()
  if(NOT ARG_MANIFEST_DIR)
    set(ARG_MANIFEST_DIR ${PROJECT_BINARY_DIR}/share/tegula/plugins.d)
  endif()

  set(exports_map ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/plugin_exports.map)
  set(target tegula_plugin_${name})
  add_library(${target} MODULE ${ARG_SOURCES})
  set_target_properties(${target} PROPERTIES
    PREFIX "lib"
    OUTPUT_NAME tegula_${name}
    LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/lib
    C_VISIBILITY_PRESET hidden
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON)
  target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR})
  target_compile_options(${target} PRIVATE ${TEGULA_WARNING_FLAGS})
  target_compile_definitions(${target} PRIVATE TEGULA_VERSION="${PROJECT_VERSION}" ${ARG_DEFINES})
  target_link_libraries(${target} PRIVATE ${ARG_LIBS})
  target_link_options(${target} PRIVATE LINKER:-z,defs LINKER:--exclude-libs,ALL)
  if(NOT ARG_NO_EXPORT_MAP)
    target_link_options(${target} PRIVATE LINKER:--version-script=${exports_map})
    set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS ${exports_map})
  endif()

  # The build-tree manifest names the library relative to its own folder.
  set(library_file libtegula_${name}.so)
  file(RELATIVE_PATH rel ${ARG_MANIFEST_DIR} ${PROJECT_BINARY_DIR}/lib/${library_file})
  tg_write_plugin_manifest(${ARG_MANIFEST_DIR}/${name}.json ${name} ${rel} ${ARG_ABI_MIN} ${ARG_ABI_MAX})

  if(ARG_NO_INSTALL)
    return()
  endif()
  # The installed manifest does too, so an install prefix can be moved as a whole.
  set(plugin_libdir ${CMAKE_INSTALL_LIBDIR}/tegula)
  set(manifest_dir ${CMAKE_INSTALL_DATADIR}/tegula/plugins.d)
  if(IS_ABSOLUTE ${plugin_libdir})
    set(rel ${plugin_libdir}/${library_file})
  else()
    file(RELATIVE_PATH rel /prefix/${manifest_dir} /prefix/${plugin_libdir}/${library_file})
  endif()
  set(installed_manifest ${CMAKE_CURRENT_BINARY_DIR}/install-manifest/${name}.json)
  tg_write_plugin_manifest(${installed_manifest} ${name} ${rel} ${ARG_ABI_MIN} ${ARG_ABI_MAX})
  install(TARGETS ${target} LIBRARY DESTINATION ${plugin_libdir})
  install(FILES ${installed_manifest} DESTINATION ${manifest_dir})
endfunction()
