/// \file
/// The Vulkan plugin's error objects (a copied message; a static out-of-memory error stands
/// in when even that allocation fails, since a NULL error would mean success), and the
/// mapping of tegula Status codes and VkResults onto tg_status_code.
#include <cstdlib>
#include <cstring>

#include "plugins/vulkan/VulkanPlugin.h"

struct tg_error {
  tg_status_code code;
  const char* message;
  char storage[1];  // the message, allocated to its length
};

namespace tegula::vulkan {
namespace {

tg_error oom_error = {TG_ERR_OUT_OF_MEMORY, "vulkan: out of memory", {0}};

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
  return make_error(status_code_for(status), std::string("vulkan: ") + context + ": " + status.str());
}

const char* vk_result_name(VkResult r) {
  switch (r) {
    case VK_SUCCESS: return "VK_SUCCESS";
    case VK_NOT_READY: return "VK_NOT_READY";
    case VK_TIMEOUT: return "VK_TIMEOUT";
    case VK_INCOMPLETE: return "VK_INCOMPLETE";
    case VK_ERROR_OUT_OF_HOST_MEMORY: return "VK_ERROR_OUT_OF_HOST_MEMORY";
    case VK_ERROR_OUT_OF_DEVICE_MEMORY: return "VK_ERROR_OUT_OF_DEVICE_MEMORY";
    case VK_ERROR_INITIALIZATION_FAILED: return "VK_ERROR_INITIALIZATION_FAILED";
    case VK_ERROR_DEVICE_LOST: return "VK_ERROR_DEVICE_LOST";
    case VK_ERROR_MEMORY_MAP_FAILED: return "VK_ERROR_MEMORY_MAP_FAILED";
    case VK_ERROR_EXTENSION_NOT_PRESENT: return "VK_ERROR_EXTENSION_NOT_PRESENT";
    case VK_ERROR_FEATURE_NOT_PRESENT: return "VK_ERROR_FEATURE_NOT_PRESENT";
    case VK_ERROR_INCOMPATIBLE_DRIVER: return "VK_ERROR_INCOMPATIBLE_DRIVER";
    case VK_ERROR_TOO_MANY_OBJECTS: return "VK_ERROR_TOO_MANY_OBJECTS";
    case VK_ERROR_OUT_OF_POOL_MEMORY: return "VK_ERROR_OUT_OF_POOL_MEMORY";
    case VK_ERROR_FRAGMENTED_POOL: return "VK_ERROR_FRAGMENTED_POOL";
    case VK_ERROR_INVALID_SHADER_NV: return "VK_ERROR_INVALID_SHADER_NV";
    default: return "VkResult";
  }
}

tg_error* vk_error(VkResult r, const char* what) {
  tg_status_code code = TG_ERR_DEVICE;
  if (r == VK_ERROR_OUT_OF_HOST_MEMORY || r == VK_ERROR_OUT_OF_DEVICE_MEMORY) code = TG_ERR_OUT_OF_MEMORY;
  if (r == VK_TIMEOUT) code = TG_ERR_TIMEOUT;
  return make_error(code, std::string("vulkan: ") + what + " failed: " + vk_result_name(r) + " (" + std::to_string(int(r)) + ")");
}

tg_status_code error_code(const tg_error* error) { return error ? error->code : TG_OK; }

const char* error_message(const tg_error* error) { return error ? error->message : ""; }

void error_destroy(tg_error* error) {
  if (!error || error == &oom_error) return;
  std::free(error);
}

}  // namespace tegula::vulkan
