// libtegula.so: the runtime archive linked whole into one shared library, exporting the C API
// (runtime/tegula.map) and nothing else. This file only gives the target a source of its own.
#include "tegula/tegula.h"
