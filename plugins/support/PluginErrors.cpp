#include "plugins/support/PluginErrors.h"

#include <cstdlib>
#include <cstring>

struct tg_error {
  tg_status_code code;
  const char* message;
  char storage[1];  // the message, allocated to its length
};

namespace tegula::plugin {
namespace {
tg_error oom_error = {TG_ERR_OUT_OF_MEMORY, "out of memory (while reporting an error)", {0}};
}  // namespace

tg_error* make_error(tg_status_code code, const std::string& message) {
  void* memory = std::malloc(sizeof(tg_error) + message.size());
  if (!memory) return &oom_error;
  tg_error* error = static_cast<tg_error*>(memory);
  error->code = code;
  std::memcpy(error->storage, message.c_str(), message.size() + 1);
  error->message = error->storage;
  return error;
}

tg_status_code status_code_for(const Status& status) {
  switch (status.code()) {
    case ErrorCode::Ok: return TG_OK;
    case ErrorCode::InvalidArgument:
    case ErrorCode::OutOfRange: return TG_ERR_INVALID_ARGUMENT;
    case ErrorCode::Parse:
    case ErrorCode::Verify: return TG_ERR_COMPILE;
    case ErrorCode::NotFound: return TG_ERR_NOT_FOUND;
    case ErrorCode::Unimplemented: return TG_ERR_UNIMPLEMENTED;
    case ErrorCode::Unsupported: return TG_ERR_UNSUPPORTED;
    case ErrorCode::Corrupt: return TG_ERR_CORRUPT;
    case ErrorCode::Timeout: return TG_ERR_TIMEOUT;
    case ErrorCode::Io:
    case ErrorCode::Device:
    case ErrorCode::Plugin: return TG_ERR_DEVICE;
    case ErrorCode::Internal: return TG_ERR_INTERNAL;
    case ErrorCode::OutOfMemory: return TG_ERR_OUT_OF_MEMORY;
  }
  return TG_ERR_INTERNAL;
}

ErrorCode error_code_for(tg_status_code code) {
  switch (code) {
    case TG_ERR_INVALID_ARGUMENT: return ErrorCode::InvalidArgument;
    case TG_ERR_UNIMPLEMENTED: return ErrorCode::Unimplemented;
    case TG_ERR_UNSUPPORTED: return ErrorCode::Unsupported;
    case TG_ERR_NOT_FOUND: return ErrorCode::NotFound;
    case TG_ERR_CORRUPT: return ErrorCode::Corrupt;
    case TG_ERR_TIMEOUT: return ErrorCode::Timeout;
    case TG_ERR_OUT_OF_MEMORY: return ErrorCode::OutOfMemory;
    case TG_ERR_DEVICE:
    case TG_ERR_COMPILE: return ErrorCode::Device;
    case TG_OK:
    case TG_ERR_INTERNAL: return ErrorCode::Plugin;
  }
  return ErrorCode::Plugin;
}

const char* status_code_name(tg_status_code code) {
  switch (code) {
    case TG_OK: return "TG_OK";
    case TG_ERR_INVALID_ARGUMENT: return "TG_ERR_INVALID_ARGUMENT";
    case TG_ERR_UNIMPLEMENTED: return "TG_ERR_UNIMPLEMENTED";
    case TG_ERR_UNSUPPORTED: return "TG_ERR_UNSUPPORTED";
    case TG_ERR_OUT_OF_MEMORY: return "TG_ERR_OUT_OF_MEMORY";
    case TG_ERR_DEVICE: return "TG_ERR_DEVICE";
    case TG_ERR_NOT_FOUND: return "TG_ERR_NOT_FOUND";
    case TG_ERR_COMPILE: return "TG_ERR_COMPILE";
    case TG_ERR_CORRUPT: return "TG_ERR_CORRUPT";
    case TG_ERR_TIMEOUT: return "TG_ERR_TIMEOUT";
    case TG_ERR_INTERNAL: return "TG_ERR_INTERNAL";
  }
  return nullptr;
}

tg_error* error_from_status(const char* plugin, const Status& status, const char* context) {
  std::string message = status.str();
  std::string name = std::string(plugin) + ":";
  if (message.rfind(name, 0) == 0 || message.find(" " + name) != std::string::npos) return make_error(status_code_for(status), message);
  return make_error(status_code_for(status), std::string(plugin) + ": " + context + ": " + message);
}

tg_status_code error_code(const tg_error* error) { return error ? error->code : TG_OK; }

const char* error_message(const tg_error* error) { return error ? error->message : ""; }

void error_destroy(tg_error* error) {
  if (!error || error == &oom_error) return;
  std::free(error);
}

}  // namespace tegula::plugin
