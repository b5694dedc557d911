/// \file
/// Compile time per kernel: cold (an empty cache folder, so lowering, LLVM code generation
/// at O3 and object emission, then linking the object) and from the cache (a new runtime on
/// the same folder: lowering, the cache lookup and linking the stored object; no LLVM
/// compile).
#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include "bench/cpu/Bench.h"

namespace tegula::bench {

Result<Section> bench_compile(const Options& o) {
  Section s;
  s.title = "compile time per kernel";
  s.header = {"kernel", "cold ms", "from cache ms", "object KiB"};
  const char* paths[] = {"examples/elementwise/silu_mul.tile", "examples/elementwise/silu_mul_parallel.tile",
                         "examples/gemm/gemm_bf16.tile",       "examples/gemm/gemm_f16.tile",
                         "examples/reduce/row_sum.tile",       "examples/softmax/softmax_rows.tile",
                         "bench/cpu/kernels/sgemm_f32.tile"};
  int reps = o.quick ? 2 : 5;
  std::filesystem::path root = std::filesystem::temp_directory_path() / ("tegula_bench_cache_" + std::to_string(::getpid()));
  for (const char* path : paths) {
    TG_ASSIGN_OR_RETURN(std::string text, kernel_text(path));
    std::vector<double> cold, cached;
    uintmax_t object_bytes = 0;
    for (int r = 0; r < reps; ++r) {
      std::filesystem::path dir = root / std::to_string(r);
      std::filesystem::remove_all(dir);
      {
        TG_ASSIGN_OR_RETURN(Runtime rt, open_runtime(dir.string()));
        TG_ASSIGN_OR_RETURN(Device dev, rt.find_device("cpu:0"));
        Status st = Status::ok();
        cold.push_back(time_once([&] { st = dev.compile(text).status(); }));
        TG_RETURN_IF_ERROR(st);
      }
      {
        TG_ASSIGN_OR_RETURN(Runtime rt, open_runtime(dir.string()));
        TG_ASSIGN_OR_RETURN(Device dev, rt.find_device("cpu:0"));
        Result<Kernel> k = error(ErrorCode::Internal, "not compiled");
        cached.push_back(time_once([&] { k = dev.compile(text); }));
        TG_RETURN_IF_ERROR(k.status());
        if (k->cache_result() != TEGULA_CACHE_HIT) return error(ErrorCode::Internal, std::string(path) + " was not a cache hit");
      }
      std::error_code ec;
      for (const auto& e : std::filesystem::recursive_directory_iterator(dir, ec))
        if (e.is_regular_file()) object_bytes = std::max(object_bytes, e.file_size());
      std::filesystem::remove_all(dir);
    }
    std::string name = std::string(path).substr(std::string(path).rfind('/') + 1);
    s.rows.push_back({name, fmt(median(cold) * 1e3, 1), fmt(median(cached) * 1e3, 2), fmt(double(object_bytes) / 1024, 1)});
  }
  std::filesystem::remove_all(root);
  s.notes.push_back("Device::compile through the runtime, median of " + std::to_string(reps) +
                    " runs. cold: a fresh, empty TEGULA cache folder (parse, lower, LLVM IR, O3, object code, store, link). "
                    "from cache: a new runtime on the same folder (parse, lower, cache hit, link the stored object). "
                    "object KiB: the cache entry (header, lowered IR and ELF object).");
  return s;
}

}  // namespace tegula::bench
