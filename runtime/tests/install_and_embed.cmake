# The install test: install the build into a temporary prefix, configure and build
# examples/embed against it with find_package(tegula), and run it (C++ and C), once with
# TEGULA_PLUGINS naming the installed manifests and once through the installed CLI, which
# must find them by itself (<prefix>/bin/../share/tegula/plugins.d).
#
#   cmake -DBUILD_DIR=... -DSOURCE_DIR=... -DGENERATOR=... -DWORK_DIR=... -P install_and_embed.cmake

include(${CMAKE_CURRENT_LIST_DIR}/RunStep.cmake)

file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
set(embed ${WORK_DIR}/embed-build)

run(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
foreach(f lib/cmake/tegula/tegulaConfig.cmake lib/cmake/tegula/tegulaConfigVersion.cmake
          include/tegula/tegula.h include/tegula/tegula.hpp include/tegula/ir/Builder.h
          include/tegula/plugins/abi/tegula_plugin.h share/tegula/plugins.d/reference.json
          lib/tegula/libtegula_reference.so bin/tegula bin/tegula-conformance lib/libtegula.so
          lib/cmake/tegula/tegula_package_hint.c)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "not installed: ${f}")
  endif()
endforeach()

set(env ${CMAKE_COMMAND} -E env --unset=TEGULA_ADD_PLUGINS --unset=TEGULA_SELECT_PLUGINS
        --unset=TEGULA_DISABLE_PLUGINS TEGULA_CACHE_DIR=${WORK_DIR}/cache)
# The recipe of examples/embed/CMakeLists.txt as written, against the static runtime and
# against libtegula.so; the prefix is not the configured one, and no variable names the
# plugins: the programs must find <prefix>/share/tegula/plugins.d by themselves.
foreach(kind static shared)
  set(use_shared OFF)
  if(kind STREQUAL "shared")
    set(use_shared ON)
  endif()
  run(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR}/examples/embed -B ${embed}-${kind} -G ${GENERATOR}
              -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_BUILD_TYPE=Release -DTEGULA_EMBED_SHARED=${use_shared})
  run(COMMAND ${CMAKE_COMMAND} --build ${embed}-${kind})
  run(COMMAND ${env} --unset=TEGULA_PLUGINS ${embed}-${kind}/embed EXPECT "embed: ok")
  run(COMMAND ${env} --unset=TEGULA_PLUGINS ${embed}-${kind}/embed_c EXPECT "embed_c: ok")
  run(COMMAND ${env} TEGULA_PLUGINS=${prefix}/share/tegula/plugins.d ${embed}-${kind}/embed_c EXPECT "embed_c: ok")
endforeach()
# The shared programs load libtegula.so from the prefix, and it exports the C API alone,
# versioned.
execute_process(COMMAND ldd ${embed}-shared/embed_c OUTPUT_VARIABLE ldd_out)
if(NOT ldd_out MATCHES "${prefix}/lib/libtegula\\.so")
  message(FATAL_ERROR "embed_c (shared) does not load ${prefix}/lib/libtegula.so:\n${ldd_out}")
endif()
execute_process(COMMAND nm -D --defined-only ${prefix}/lib/libtegula.so OUTPUT_VARIABLE nm_out)
string(REGEX MATCHALL "[^\n]+" symbols "${nm_out}")
foreach(line ${symbols})
  if(NOT line MATCHES " tegula_[a-z0-9_]+@@TEGULA_0\\.1$" AND NOT line MATCHES " TEGULA_0\\.1$")
    message(FATAL_ERROR "libtegula.so exports more than the versioned C API: ${line}")
  endif()
endforeach()
if(NOT nm_out MATCHES "tegula_launch_named@@TEGULA_0\\.1")
  message(FATAL_ERROR "libtegula.so lacks tegula_launch_named@@TEGULA_0.1:\n${nm_out}")
endif()
# The installed CLI finds the installed plugins next to itself, with no variable set.
run(COMMAND ${env} --unset=TEGULA_PLUGINS ${prefix}/bin/tegula devices EXPECT "reference:0")
run(COMMAND ${env} --unset=TEGULA_PLUGINS ${prefix}/bin/tegula run ${SOURCE_DIR}/examples/elementwise/silu_mul.tile
            --bind N=500 EXPECT "PASS")
# `tegula conformance` runs the tegula-conformance installed beside it.
run(COMMAND ${env} --unset=TEGULA_PLUGINS ${prefix}/bin/tegula conformance list --target sm_90a
            --filter tegula.gemm.wgmma.m64n8k16.bf16_f32.tn.exact EXPECT "tegula.gemm.wgmma.m64n8k16.bf16_f32.tn.exact")
