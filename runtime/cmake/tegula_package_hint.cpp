// The C++ twin of tegula_package_hint.c, for projects that enable no C compiler.
extern "C" __attribute__((weak)) const char* tegula_package_datadir(void) { return TEGULA_PACKAGE_DATADIR; }
