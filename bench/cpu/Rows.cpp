/// \file
/// Row softmax and row sums, f16 and f32 inputs, against a plain memcpy of the same input
/// bytes: how close a memory-bound kernel gets to just moving its data.
#include <cstdint>
#include <cstring>
#include <thread>

#include "bench/cpu/Bench.h"
#include "core/DType.h"
#include "core/Random.h"

namespace tegula::bench {
namespace {

struct RowKernel {
  const char* path;
  DType in;
  DType out;
  bool rows_out;  ///< the output is a row of M values (a reduction), else [M, N]
};

}  // namespace

Result<Section> bench_rows(const Options& o) {
  Section s;
  s.title = "row softmax and row sum vs memcpy of the input bytes";
  s.header = {"kernel", "input", "M x N", "MiB in", "tegula GB/s", "memcpy GB/s", "memcpy 2 threads GB/s", "tegula / memcpy"};
  int64_t m = o.quick ? 256 : 4096, n = o.quick ? 1024 : 4096;
  const RowKernel kernels[] = {
      {"examples/softmax/softmax_rows.tile", DType::F16, DType::F16, false},
      {"bench/cpu/kernels/softmax_rows_f32.tile", DType::F32, DType::F32, false},
      {"bench/cpu/kernels/softmax_row4096_f16.tile", DType::F16, DType::F16, false},
      {"bench/cpu/kernels/softmax_row4096_f32.tile", DType::F32, DType::F32, false},
      {"examples/reduce/row_sum.tile", DType::F16, DType::F32, true},
      {"bench/cpu/kernels/row_sum_f32.tile", DType::F32, DType::F32, true},
  };
  TG_ASSIGN_OR_RETURN(Runtime rt, open_runtime("off"));
  TG_ASSIGN_OR_RETURN(Device dev, rt.find_device("cpu:0"));
  for (const RowKernel& rk : kernels) {
    TG_ASSIGN_OR_RETURN(std::string text, kernel_text(rk.path));
    TG_ASSIGN_OR_RETURN(Kernel kernel, dev.compile(text));
    size_t in_bytes = size_t(m * n) * dtype_size(rk.in);
    size_t out_bytes = size_t(rk.rows_out ? m : m * n) * dtype_size(rk.out);
    std::vector<uint8_t> input(in_bytes);
    Rng rng(5);
    for (int64_t i = 0; i < m * n; ++i) store_element(rk.in, rng.uniform(-4, 4), input.data() + size_t(i) * dtype_size(rk.in));
    TG_ASSIGN_OR_RETURN(Buffer bx, dev.alloc(in_bytes));
    TG_ASSIGN_OR_RETURN(Buffer by, dev.alloc(out_bytes));
    TG_RETURN_IF_ERROR(bx.write(input));
    std::vector<Arg> args = {Arg::tensor(bx), Arg::tensor(by), Arg::integer(m), Arg::integer(n)};
    Status launched = Status::ok();
    auto ours = [&] {
      launched = kernel.launch(args);
      if (launched.is_ok()) launched = dev.synchronize();
    };
    std::vector<uint8_t> copy(in_bytes);
    auto plain = [&] { std::memcpy(copy.data(), input.data(), in_bytes); };
    auto two = [&] {
      size_t half = in_bytes / 2;
      std::thread t([&] { std::memcpy(copy.data() + half, input.data() + half, in_bytes - half); });
      std::memcpy(copy.data(), input.data(), half);
      t.join();
    };
    for (int i = 0; i < o.warmup; ++i) {
      ours();
      plain();
      two();
    }
    std::vector<double> t_ours, t_plain, t_two;
    for (int i = 0; i < o.reps; ++i) {
      t_ours.push_back(time_once(ours));
      TG_RETURN_IF_ERROR(launched);
      t_plain.push_back(time_once(plain));
      t_two.push_back(time_once(two));
    }
    double gb = double(in_bytes) / 1e9;
    std::string name = std::string(rk.path).substr(std::string(rk.path).rfind('/') + 1);
    s.rows.push_back({name, dtype_name(rk.in), std::to_string(m) + " x " + std::to_string(n), fmt(double(in_bytes) / 1048576.0, 0),
                      fmt(gb / median(t_ours), 1), fmt(gb / median(t_plain), 1), fmt(gb / median(t_two), 1),
                      fmt(median(t_plain) / median(t_ours), 2)});
  }
  s.notes.push_back("softmax_rows and row_sum are the examples (4 rows of 512 per step; the softmax is online: it "
                    "reads its input twice and computes exp twice per element); the _f32 files are the same kernels with "
                    "f32 input; softmax_row4096 holds a whole row (up to 4096) in one fragment, reads it once and computes "
                    "exp once (bench/cpu/kernels/).");
  s.notes.push_back("GB/s = input bytes / time (a softmax also writes as many bytes as it reads; a "
                    "row sum reads once). memcpy copies the same input bytes host to host with one call, or split in two "
                    "halves on two threads. tegula / memcpy = memcpy time / tegula time (1.0 = as fast as copying the "
                    "input once). Median of " + std::to_string(o.reps) + " runs after " + std::to_string(o.warmup) +
                    " warm-up runs, interleaved.");
  return s;
}

}  // namespace tegula::bench
