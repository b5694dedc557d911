/// \file
/// The CPU plugin's function table and its one exported symbol, made from the ABI entry list
/// with every entry behind a guarded thunk (plugins/support/EntryTable.h); the host device's
/// entries are the SDK's (plugins/support/HostDevice.h).
#include "plugins/cpu/Cpu.h"

// Queues, buffers, transfers and events: the SDK's synchronous host device.
namespace tegula::cpu {
TG_SDK_HOST_DEVICE_ENTRIES("cpu")
}  // namespace tegula::cpu

// compile_offline stays NULL: object code is for the host CPU only.
TG_SDK_PLUGIN_TABLE(tegula::cpu, "cpu", {.compile_offline = true})
