/// \file
/// The cuda plugin's error objects. Messages are copied into the error; when that allocation
/// fails, a static out-of-memory error stands in (error_destroy leaves it alone), because a
/// NULL error would mean success.
#include <cstdlib>
#include <cstring>

#include "plugins/cuda/Cuda.h"

struct tg_error {
  tg_status_code code;
  const char* message;
  char storage[1];
};

namespace tegula::cuda {
namespace {
tg_error oom_error = {TG_ERR_OUT_OF_MEMORY, "cuda: out of memory", {0}};

tg_status_code code_for(const Status& s) {
  switch (s.code()) {
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
  }
  return TG_ERR_INTERNAL;
}
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

tg_error* from_status(const Status& status, const char* context) {
  std::string msg = status.str();
  if (msg.rfind("cuda", 0) == 0 || msg.find(": cuda") != std::string::npos) return make_error(code_for(status), msg);
  return make_error(code_for(status), std::string("cuda: ") + context + ": " + msg);
}

tg_error* driver_error(const Driver& d, CUresult r, const std::string& what) {
  tg_status_code code = TG_ERR_DEVICE;
  if (r == 2 /* CUDA_ERROR_OUT_OF_MEMORY */) code = TG_ERR_OUT_OF_MEMORY;
  return make_error(code, "cuda: " + what + ": " + driver_error_text(d, r));
}

tg_status_code error_code(const tg_error* error) { return error ? error->code : TG_OK; }
const char* error_message(const tg_error* error) { return error ? error->message : ""; }
void error_destroy(tg_error* error) {
  if (!error || error == &oom_error) return;
  std::free(error);
}

}  // namespace tegula::cuda
