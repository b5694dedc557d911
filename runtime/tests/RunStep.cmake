# run(COMMAND ... [EXPECT regex]): one step of an install test (install_and_embed.cmake,
# install_and_build_plugin.cmake): run it, fail with its output unless it exits 0 and its
# standard output matches EXPECT.
function(run)
  cmake_parse_arguments(ARG "" "EXPECT" "COMMAND" ${ARGN})
  execute_process(COMMAND ${ARG_COMMAND} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARG_COMMAND}\n${out}\n${err}")
  endif()
  if(ARG_EXPECT AND NOT out MATCHES "${ARG_EXPECT}")
    message(FATAL_ERROR "output of ${ARG_COMMAND} lacks '${ARG_EXPECT}':\n${out}\n${err}")
  endif()
  message(STATUS "ok: ${ARG_COMMAND}\n${out}")
endfunction()
