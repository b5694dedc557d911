/// \file
/// The CPU plugin's function table and its one exported symbol, made from the ABI entry list
/// with every entry behind a guarded thunk (plugins/support/EntryTable.h).
#include "plugins/cpu/Cpu.h"

// compile_offline stays NULL: object code is for the host CPU only.
TG_SDK_PLUGIN_TABLE(tegula::cpu, "cpu", {.compile_offline = true})
