/// \file
/// compile (on a device, or offline for a description), loading (shader module, descriptor
/// set layout, pipeline layout and compute pipeline, with the subgroup size the code was
/// generated for; the lowering's launch assumptions, for launch to check), and describing
/// executables (spirv-dis when it is on the PATH, else the plugin's own instruction listing).
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "ir/Lower.h"
#include "ir/lower/Lowered.h"
#include "plugins/support/StringBlob.h"
#include "plugins/vulkan/Blob.h"
#include "plugins/vulkan/VkStruct.h"
#include "plugins/vulkan/VulkanPlugin.h"
#include "plugins/vulkan/spirv/Listing.h"

namespace tegula::vulkan {
namespace {

tg_error* check_request(const tg_compile_request* request, tg_blob* out_blob) {
  if (!request || !out_blob || request->struct_size < sizeof(tg_compile_request) || out_blob->struct_size < sizeof(tg_blob))
    return make_error(TG_ERR_INVALID_ARGUMENT, "vulkan: compile: bad argument");
  if (!request->ir_format || std::strcmp(request->ir_format, TG_IR_FORMAT_LOWERED_V1) != 0)
    return make_error(TG_ERR_UNSUPPORTED, "vulkan: compile: IR format must be " TG_IR_FORMAT_LOWERED_V1);
  if (!request->ir_data && request->ir_size) return make_error(TG_ERR_INVALID_ARGUMENT, "vulkan: compile: no IR");
  if (request->options) {
    std::string_view text(request->options);
    size_t start = 0;
    while (start < text.size()) {
      size_t end = text.find('\n', start);
      if (end == std::string_view::npos) end = text.size();
      std::string_view line = text.substr(start, end - start);
      if (!line.empty()) return make_error(TG_ERR_INVALID_ARGUMENT, "vulkan: unknown compile option '" + std::string(line) + "'");
      start = end + 1;
    }
  }
  return nullptr;
}


tg_error* compile_for(const TargetDescription& target, const tg_compile_request* request, tg_blob* out_blob) {
  std::string text(static_cast<const char*>(request->ir_data), request->ir_size);
  auto ct = codegen_target(target);
  if (!ct.is_ok()) return from_status(ct.status(), "compile");
  Result<ir::Kernel> kernel = ir::read_lowered(text, target, ct->hash, "<lowered>");
  if (!kernel.is_ok()) return from_status(kernel.status(), "compile");
  auto shader = generate_shader(*kernel, *ct);
  if (!shader.is_ok()) return from_status(shader.status(), "compile");
  Executable e;
  e.target_name = ct->name;
  e.target_hash = ct->hash;
  e.kernel_name = kernel->name;
  e.ir_text = std::move(text);
  e.iface = shader->iface;
  e.words = std::move(shader->words);
  plugin::give_string_blob(write_executable(e), out_blob);
  return nullptr;
}

}  // namespace

tg_error* compile(tg_device* device, const tg_compile_request* request, tg_blob* out_blob) {
  return guarded("compile", [&]() -> tg_error* {
    if (!device) return make_error(TG_ERR_INVALID_ARGUMENT, "vulkan: compile: NULL device");
    if (tg_error* e = check_request(request, out_blob)) return e;
    return compile_for(device->target, request, out_blob);
  });
}

tg_error* compile_offline(tg_plugin* plugin, const tg_target_description* target, const tg_compile_request* request, tg_blob* out_blob) {
  return guarded("compile_offline", [&]() -> tg_error* {
    if (!plugin || !target || target->struct_size < sizeof(tg_target_description) || !target->data)
      return make_error(TG_ERR_INVALID_ARGUMENT, "vulkan: compile_offline: bad argument");
    if (!target->format || std::strcmp(target->format, TG_TARGET_FORMAT_JSON_V1) != 0)
      return make_error(TG_ERR_UNSUPPORTED, "vulkan: compile_offline: target format must be " TG_TARGET_FORMAT_JSON_V1);
    if (tg_error* e = check_request(request, out_blob)) return e;
    auto desc = parse_target(std::string_view(target->data, target->size), "compile_offline target");
    if (!desc.is_ok()) return from_status(desc.status(), "compile_offline");
    return compile_for(*desc, request, out_blob);
  });
}

void blob_release(tg_blob* blob) {
  guarded_void([&] { plugin::release_string_blob(blob); });
}

tg_error* executable_describe(tg_plugin* plugin, const void* data, size_t size, tg_blob* out_text) {
  return guarded("executable_describe", [&]() -> tg_error* {
    if (!plugin || !out_text || out_text->struct_size < sizeof(tg_blob))
      return make_error(TG_ERR_INVALID_ARGUMENT, "vulkan: executable_describe: bad argument");
    auto e = read_executable(data, size);
    if (!e.is_ok()) return from_status(e.status(), "executable_describe");
    const ShaderInterface& i = e->iface;
    std::string text = "; tegula vulkan executable: kernel " + e->kernel_name + ", target " + e->target_name + "\n";
    text += "; workgroup " + std::to_string(i.workgroup_size) + ", shared " + std::to_string(i.shared_bytes) + " bytes, push constants " +
            std::to_string(i.push_bytes) + " bytes, subgroup " + std::to_string(i.subgroup_size) + ", " +
            std::to_string(i.bindings.size()) + " storage buffers\n";
    if (i.fault_word) {
      text += "; fault word at binding " + std::to_string(i.bindings.size()) + ", element accesses:";
      for (size_t n = 0; n < i.fault_sites.size(); ++n) text += " " + std::to_string(n + 1) + "=" + i.fault_sites[n];
      text += "\n";
    }
    text += spirv_text(e->words);
    plugin::give_string_blob(std::move(text), out_text);
    return nullptr;
  });
}

void destroy_executable(tg_executable* e) {
  tg_device* d = e->device;
  if (e->pipeline) d->fn.vkDestroyPipeline(d->device, e->pipeline, nullptr);
  if (e->layout) d->fn.vkDestroyPipelineLayout(d->device, e->layout, nullptr);
  if (e->set_layout) d->fn.vkDestroyDescriptorSetLayout(d->device, e->set_layout, nullptr);
  if (e->module) d->fn.vkDestroyShaderModule(d->device, e->module, nullptr);
  delete e;
}

/// What the driver says about the compiled pipeline (register count, spills, shared memory,
/// as the driver names them), one debug log line: how a developer sees what a kernel costs.
static void log_pipeline_statistics(tg_device* device, tg_executable* e) {
  auto info = make_struct<VkPipelineInfoKHR>(VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR);
  info.pipeline = e->pipeline;
  uint32_t n = 0;
  if (device->get_executable_properties(device->device, &info, &n, nullptr) != VK_SUCCESS || n == 0) return;
  std::string line = "pipeline statistics for '" + e->kernel.name + "':";
  for (uint32_t x = 0; x < n && x < 4; ++x) {
    auto ei = make_struct<VkPipelineExecutableInfoKHR>(VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR);
    ei.pipeline = e->pipeline;
    ei.executableIndex = x;
    uint32_t count = 0;
    if (device->get_executable_statistics(device->device, &ei, &count, nullptr) != VK_SUCCESS || count == 0) continue;
    std::vector<VkPipelineExecutableStatisticKHR> stats(count);
    for (auto& s : stats) s = make_struct<VkPipelineExecutableStatisticKHR>(VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR);
    if (device->get_executable_statistics(device->device, &ei, &count, stats.data()) != VK_SUCCESS) continue;
    for (uint32_t i = 0; i < count && i < stats.size(); ++i) {
      const VkPipelineExecutableStatisticKHR& s = stats[i];
      std::string name(s.name, strnlen(s.name, VK_MAX_DESCRIPTION_SIZE));
      std::string value;
      switch (s.format) {
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR: value = s.value.b32 ? "true" : "false"; break;
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR: value = std::to_string(s.value.i64); break;
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR: value = std::to_string(s.value.u64); break;
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_FLOAT64_KHR: value = std::to_string(s.value.f64); break;
        default: continue;
      }
      line += " " + name + "=" + value + ";";
    }
  }
  device->plugin->note(TG_LOG_DEBUG, line);
}

tg_error* executable_load(tg_device* device, const void* data, size_t size, tg_executable** out) {
  return guarded("executable_load", [&]() -> tg_error* {
    if (!device || !out || (!data && size)) return make_error(TG_ERR_INVALID_ARGUMENT, "vulkan: executable_load: bad argument");
    auto exe = read_executable(data, size);
    if (!exe.is_ok()) return from_status(exe.status(), "executable_load");
    if (exe->target_name != device->target.name || exe->target_hash != device->target_hash)
      return make_error(TG_ERR_CORRUPT, "vulkan: executable_load: compiled for target '" + exe->target_name + "', this device is '" +
                                            device->target.name + "' (or its description changed)");
    auto kernel = ir::read_lowered(exe->ir_text, "<executable>");
    if (!kernel.is_ok()) return make_error(TG_ERR_CORRUPT, "vulkan: executable_load: the IR does not read back: " + kernel.status().str());
    const ShaderInterface& iface = exe->iface;
    for (uint32_t b : iface.bindings)
      if (b >= kernel->params.size() || !kernel->params[b].is_tensor)
        return make_error(TG_ERR_CORRUPT, "vulkan: executable_load: a binding names no tensor parameter");
    for (const PushEntry& p : iface.push)
      if (!push_entry_is_grid(p.kind) && p.arg >= kernel->params.size() + kernel->symbols().size())
        return make_error(TG_ERR_CORRUPT, "vulkan: executable_load: a push constant names no argument");
    // read_executable checked every entry against push_bytes; this checks push_bytes against
    // the device (vkCmdPushConstants beyond maxPushConstantsSize is undefined).
    if (iface.push_bytes > device->phys->caps.max_push_constants)
      return make_error(TG_ERR_CORRUPT, "vulkan: executable_load: " + std::to_string(iface.push_bytes) +
                                            " bytes of push constants, the device offers " +
                                            std::to_string(device->phys->caps.max_push_constants));

    auto* e = new tg_executable;
    e->device = device;
    e->kernel = std::move(kernel).value();
    e->iface = iface;
    e->faults = std::make_shared<const FaultTable>(FaultTable{e->kernel.name, iface.fault_sites});
    Result<plugin::LaunchSignature> signature = plugin::lowered_launch_signature(e->kernel);
    if (!signature.is_ok()) {
      destroy_executable(e);
      return make_error(TG_ERR_CORRUPT, "vulkan: executable_load: " + signature.status().str());
    }
    e->signature = std::move(signature).value();
    auto fail = [&](VkResult r, const char* what) {
      destroy_executable(e);
      return vk_error(r, what);
    };
    auto mi = make_struct<VkShaderModuleCreateInfo>(VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
    mi.codeSize = exe->words.size() * 4;
    mi.pCode = exe->words.data();
    VkResult r = device->fn.vkCreateShaderModule(device->device, &mi, nullptr, &e->module);
    if (r != VK_SUCCESS) return fail(r, "vkCreateShaderModule");
    std::vector<VkDescriptorSetLayoutBinding> bindings(iface.bindings.size() + (iface.fault_word ? 1 : 0));
    for (size_t i = 0; i < bindings.size(); ++i) {
      std::memset(&bindings[i], 0, sizeof(bindings[i]));
      bindings[i].binding = uint32_t(i);
      bindings[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      bindings[i].descriptorCount = 1;
      bindings[i].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
    }
    auto li = make_struct<VkDescriptorSetLayoutCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO);
    li.bindingCount = uint32_t(bindings.size());
    li.pBindings = bindings.data();
    r = device->fn.vkCreateDescriptorSetLayout(device->device, &li, nullptr, &e->set_layout);
    if (r != VK_SUCCESS) return fail(r, "vkCreateDescriptorSetLayout");
    VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, (iface.push_bytes + 3) / 4 * 4};
    auto pl = make_struct<VkPipelineLayoutCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
    pl.setLayoutCount = 1;
    pl.pSetLayouts = &e->set_layout;
    pl.pushConstantRangeCount = iface.push_bytes ? 1 : 0;
    pl.pPushConstantRanges = &range;
    r = device->fn.vkCreatePipelineLayout(device->device, &pl, nullptr, &e->layout);
    if (r != VK_SUCCESS) return fail(r, "vkCreatePipelineLayout");
    auto stage = make_struct<VkPipelineShaderStageCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO);
    stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    stage.module = e->module;
    stage.pName = "main";
    // Reductions shuffle assuming the subgroup width of the description: ask for it.
    auto req = make_struct<VkPipelineShaderStageRequiredSubgroupSizeCreateInfo>(
        VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO);
    const DeviceCaps& caps = device->phys->caps;
    if (iface.subgroup_size && caps.subgroup_size_control && iface.subgroup_size >= caps.min_subgroup_size &&
        iface.subgroup_size <= caps.max_subgroup_size) {
      req.requiredSubgroupSize = iface.subgroup_size;
      stage.pNext = &req;
      if (iface.workgroup_size % iface.subgroup_size == 0) stage.flags |= VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT;
    }
    auto ci = make_struct<VkComputePipelineCreateInfo>(VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO);
    ci.stage = stage;
    ci.layout = e->layout;
    bool stats = device->get_executable_properties && device->get_executable_statistics;
    if (stats) ci.flags |= VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
    r = device->fn.vkCreateComputePipelines(device->device, VK_NULL_HANDLE, 1, &ci, nullptr, &e->pipeline);
    if (r != VK_SUCCESS) return fail(r, "vkCreateComputePipelines");
    if (stats) log_pipeline_statistics(device, e);
    {
      std::lock_guard<std::mutex> lock(device->executables_mu);
      device->executables.insert(e);
    }
    *out = e;
    return nullptr;
  });
}

void executable_free(tg_executable* executable) {
  guarded_void([&] {
    if (!executable) return;
    tg_device* d = executable->device;
    for (tg_queue* q : d->queues) (void)drain(q);
    {
      std::lock_guard<std::mutex> lock(d->executables_mu);
      d->executables.erase(executable);
    }
    destroy_executable(executable);
  });
}

}  // namespace tegula::vulkan
