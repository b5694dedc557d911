/// \file
/// The hip plugin's function table and its one exported symbol, made from the ABI entry list
/// with every entry behind a guarded thunk (plugins/support/EntryTable.h).
#include "plugins/hip/Hip.h"

// device_target stays NULL: the host uses the built-in description its properties name.
TG_SDK_PLUGIN_TABLE(tegula::hip, "hip", {.device_target = true})
