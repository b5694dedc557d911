#include "conformance/Suite.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "conformance/cases/Generator.h"
#include "core/Sha256.h"
#include "ir/Printer.h"

namespace tegula::conformance {

std::vector<CaseSpec> build_suite(const TargetDescription& target) {
  std::vector<CaseSpec> cases;
  Generator g(target, cases);
  add_copy_cases(g);
  add_convert_cases(g);
  add_fill_cases(g);
  add_gemm_cases(g);
  add_reduce_cases(g);
  add_scan_cases(g);
  add_map_cases(g);
  add_parallel_cases(g);
  add_exchange_cases(g);
  add_workload_cases(g);
  add_atomic_cases(g);
  add_control_cases(g);
  add_out_of_range_cases(g);
  add_block_load_cases(g);
  add_view_cases(g);
  return cases;
}

std::vector<CaseSpec> build_offline_suite(const TargetDescription& target) {
  std::vector<CaseSpec> cases;
  Generator g(target, cases);
  add_offline_gemm_cases(g, target.name);
  // Scans, atomic adds and the transcendental functions of f32 and f64 have no instruction to
  // force, but their code is the backend's own (a loop per line under the free plan; an
  // atomic instruction or a compare-and-swap loop; a function written out in arithmetic where
  // the target has none): compiling them offline checks it where no device runs it. Atomics
  // and functions only for AMD targets: the CUDA backend emits the same code for every
  // architecture and runs it on cuda:0 (the H200), where its offline targets would only
  // compile it again (about 75 s of NVRTC per target on the 2-core machine).
  std::vector<CaseSpec> own_code;
  Generator inner(target, own_code);
  add_scan_cases(inner);
  if (target.backend == Backend::Hip) {
    add_atomic_cases(inner);
    std::vector<CaseSpec> maps;
    Generator map_gen(target, maps);
    add_map_cases(map_gen);
    for (CaseSpec& c : maps)
      for (const char* fn : {"exp", "exp2", "log", "log2", "log1p", "tanh", "erf", "sigmoid"})
        for (const char* dt : {"f32", "f64"})
          if (c.name.rfind(std::string("tegula.map.") + fn + "." + dt + ".", 0) == 0) own_code.push_back(c);
  }
  for (CaseSpec& c : own_code) {
    if (!c.unsupported.empty()) continue;
    c.offline_target = target.name;
    cases.push_back(std::move(c));
  }
  add_offline_block_load_cases(g, target.name);
  add_offline_view_cases(g, target.name);
  return cases;
}

std::string case_text(const CaseSpec& c) {
  std::string s = c.name + "\n" + c.row + "\n" + c.kernel;
  for (const auto& [name, value] : c.symbols) s += name + "=" + std::to_string(value) + "\n";
  for (size_t i = 0; i < c.tensors.size(); ++i) {
    const TensorSpec& t = c.tensors[i];
    s += "param " + std::to_string(i) + ": role " + std::to_string(int(t.role)) + " values " + values_name(t.values) + " limit " +
         std::to_string(t.index_limit) + " scalar " + ir::print_float(i < c.scalars.size() ? c.scalars[i] : 0.0) + "\n";
  }
  s += "misalign";
  for (int64_t m : c.misalign) s += " " + std::to_string(m);
  s += "\ncheck " + std::to_string(int(c.check)) + " " + c.function + " " + dtype_name(c.operand) + " " + dtype_name(c.accumulator) +
       " " + std::to_string(c.depth) + "\n";
  s += "out_of_range " + std::to_string(int(c.out_of_range)) + " " + (c.silent_value ? ir::print_float(*c.silent_value) : "-") + "\n";
  s += "unsupported " + c.unsupported + "\ninstruction " + c.instruction + " " + c.mnemonic + "\noffline " + c.offline_target + "\n";
  return s;
}

std::string case_list_hash(const std::vector<CaseSpec>& cases) {
  Sha256 h;
  h.update(std::string(kSuiteVersion) + "\n");
  for (const CaseSpec& c : cases) {
    std::string t = case_text(c);
    h.update(std::to_string(t.size()) + "\n");
    h.update(t);
  }
  return h.hex();
}

std::vector<CaseSpec> quick_subset(const std::vector<CaseSpec>& cases, int per_row) {
  std::map<std::string, int> taken;
  std::vector<CaseSpec> out;
  for (const CaseSpec& c : cases) {
    if (!c.unsupported.empty()) continue;
    if (taken[c.row]++ >= per_row) continue;
    out.push_back(c);
  }
  return out;
}

}  // namespace tegula::conformance

namespace tegula::conformance {

std::vector<CaseSpec> select_cases(const std::vector<CaseSpec>& cases, bool quick, const Filter& filter) {
  std::vector<CaseSpec> base = quick ? quick_subset(cases) : cases;
  std::vector<CaseSpec> out;
  for (CaseSpec& c : base)
    if (filter.matches(c.name, c.row)) out.push_back(std::move(c));
  return out;
}

}  // namespace tegula::conformance
