/// \file
/// The reference plugin's function table and its one exported symbol, made from the ABI entry list
/// with every entry behind a guarded thunk (plugins/support/EntryTable.h).
#include "plugins/reference/Reference.h"

TG_SDK_PLUGIN_TABLE(tegula::reference, TG_REFERENCE_NAME, {})
