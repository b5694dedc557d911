#include "runtime/Tune.h"

#include <cstdio>
#include <cstdlib>

#include "ir/schedule/Rank.h"
#include "runtime/Compile.h"

namespace tegula::runtime {
namespace {

constexpr const char* kRecordHeader = "tegula tune choice v1";

CacheKeyParts record_key_parts(tegula_kernel* k, const std::string& class_text) {
  tegula_device* d = k->device;
  CacheKeyParts parts;
  parts.ir = k->source_text;
  parts.lowering = "tune choice for " + class_text;
  // Not the runtime's build: `tegula tune` (the CLI) records choices that an embedding
  // program, linked to its own copy of the runtime, must find. A choice is a binding checked
  // against the tune space when read, so a build that lowers differently gets a legal, maybe
  // stale, choice; the device's target and plugin build, which the measurement was of, stay.
  parts.runtime_build = "tune choices outlive runtime builds";
  parts.target_hash = d->target_hash;
  parts.plugin_name = d->plugin->name();
  parts.plugin_version = d->plugin->version();
  parts.plugin_build = d->plugin->library_identity();
  parts.abi_version = d->plugin->abi_version();
  parts.options = k->plugin_options;
  return parts;
}

std::string encode_record(const TuneChoice& c) {
  char us[64];
  std::snprintf(us, sizeof us, "%.3f", c.measured_us);
  return std::string(kRecordHeader) + "\nbinding " + ir::binding_text(c.binding) + "\nchosen_by " + c.chosen_by +
         "\nmeasured_us " + us + "\n";
}

Result<TuneChoice> decode_record(const std::string& payload, const ir::TuneSpace& space) {
  auto field = [&](const std::string& name) -> std::optional<std::string> {
    std::string tag = "\n" + name + " ";
    size_t at = payload.find(tag);
    if (at == std::string::npos) return std::nullopt;
    size_t end = payload.find('\n', at + tag.size());
    if (end == std::string::npos) return std::nullopt;
    return payload.substr(at + tag.size(), end - at - tag.size());
  };
  if (payload.rfind(kRecordHeader, 0) != 0) return error(ErrorCode::Corrupt, "not a tune choice record");
  auto binding = field("binding"), by = field("chosen_by"), us = field("measured_us");
  if (!binding || !by || !us || (*by != "measured" && *by != "ranked"))
    return error(ErrorCode::Corrupt, "the tune choice record lacks a field");
  TuneChoice c;
  TG_ASSIGN_OR_RETURN(c.binding, ir::parse_binding(*binding, space));
  c.chosen_by = *by;
  c.measured_us = std::strtod(us->c_str(), nullptr);
  return c;
}

std::string first_reasons(const ir::Ranking& r) {
  std::string out;
  for (size_t i = 0; i < r.dropped.size() && i < 3; ++i)
    out += "\n  " + ir::binding_text(r.dropped[i].binding) + ": " + r.dropped[i].reason;
  return out;
}

}  // namespace

int64_t size_bucket(int64_t v) {
  if (v < 1) return 0;
  int64_t log = 63 - __builtin_clzll(uint64_t(v));
  int64_t upper = log >= 1 && (v >> (log - 1)) == 3 ? 1 : 0;  // v >= 1.5 * 2^log
  return 2 * log + upper + 1;
}

std::string shape_class_text(const std::vector<std::string>& symbols, const std::vector<int64_t>& values, bool aligned) {
  std::string s = aligned ? "aligned" : "unaligned";
  for (size_t i = 0; i < symbols.size() && i < values.size(); ++i) {
    int64_t v = values[i], div = 1;
    while (aligned && div < 16 && (v == 0 || v % (div * 2) == 0)) div *= 2;
    s += " " + symbols[i] + "%" + std::to_string(div) + ":b" + std::to_string(size_bucket(v));
  }
  return s;
}

Result<TuneChoice> choose_binding(tegula_kernel* k, const std::map<std::string, int64_t>& shape,
                                  const ir::LowerOptions& lower, const std::string& class_text) {
  tegula_runtime* rt = k->device->runtime;
  const CompileCache& cache = rt->cache;
  bool use_cache = k->use_cache && cache.enabled();
  TG_ASSIGN_OR_RETURN(const TargetDescription* target, device_target(k->device));
  CacheKeyParts parts = record_key_parts(k, class_text);
  std::string key = cache_key(parts), binding = cache_binding(parts);
  if (use_cache) {
    std::string payload;
    if (cache.lookup(key, &payload, binding) == CompileCache::Lookup::Hit) {
      Result<TuneChoice> c = decode_record(payload, *k->tune);
      if (c.is_ok()) return c;
      cache.remove(key, "its tune choice does not decode: " + c.status().message());
    }
  }
  ir::RankRequest request{shape, lower};
  TG_ASSIGN_OR_RETURN(ir::Ranking r, ir::rank_candidates(k->source_text, k->source_name, *target, request));
  if (r.legal.empty())
    return error(ErrorCode::Unsupported, "kernel " + k->kernel.name + ": no candidate of its tune space lowers for " +
                                              target->name + " at " + class_text + first_reasons(r));
  TuneChoice c{r.legal.front().binding, "ranked", 0};
  rt->log.debug("kernel " + k->kernel.name + ": ranked " + std::to_string(r.legal.size()) + " candidates for " +
                class_text + ", chose " + ir::binding_text(c.binding) + " (predicted " +
                std::to_string(r.legal.front().estimate.predicted_us) + " us)");
  if (use_cache) cache.store(key, encode_record(c), binding);
  return c;
}

Status record_choice(tegula_kernel* k, const std::string& class_text, const TuneChoice& choice) {
  if (!k->tune) return error(ErrorCode::InvalidArgument, "kernel " + k->kernel.name + " has no tunables to record");
  TG_RETURN_IF_ERROR(ir::check_binding(*k->tune, choice.binding));
  const CompileCache& cache = k->device->runtime->cache;
  if (!k->use_cache || !cache.enabled())
    return error(ErrorCode::InvalidArgument, "the compile cache is off: a tuning choice has nowhere to be kept");
  CacheKeyParts parts = record_key_parts(k, class_text);
  cache.store(cache_key(parts), encode_record(choice), cache_binding(parts));
  return Status::ok();
}

}  // namespace tegula::runtime
