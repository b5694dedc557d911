# Installing libtegula.so (tegula::shared) in the same CMake package as tegula::runtime, and
# the hint source tegulaConfig.cmake adds to programs linking tegula::runtime statically.
if(TEGULA_SHARED_RUNTIME)
  install(TARGETS tegula_shared EXPORT tegulaTargets
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} NAMELINK_COMPONENT Development)
endif()
install(FILES ${CMAKE_CURRENT_LIST_DIR}/tegula_package_hint.c ${CMAKE_CURRENT_LIST_DIR}/tegula_package_hint.cpp
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/tegula)
