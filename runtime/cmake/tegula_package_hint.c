/* Added by the installed tegula CMake package to every program that links tegula::runtime
 * (the static library): it tells the runtime where that package is installed, so the
 * program finds the plugins installed with it even when the prefix differs from the one
 * tegula was configured with (runtime/SearchPath.h, entry 4). Weak, so two targets that
 * both carry it link together. TEGULA_PACKAGE_DATADIR comes from tegulaConfig.cmake. */
__attribute__((weak)) const char* tegula_package_datadir(void) { return TEGULA_PACKAGE_DATADIR; }
