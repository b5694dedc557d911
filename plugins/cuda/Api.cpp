/// \file
/// The CUDA plugin's function table and its one exported symbol, made from the ABI entry list
/// with every entry behind a guarded thunk (plugins/support/EntryTable.h).
#include "plugins/cuda/Cuda.h"

// device_target stays NULL: the host uses the built-in description its properties name.
TG_SDK_PLUGIN_TABLE(tegula::cuda, "cuda", {.device_target = true})
