#include "runtime/cli/RunData.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/Files.h"
#include "core/Npy.h"
#include "ir/Analysis.h"
#include "ir/Printer.h"
#include "runtime/cli/Options.h"

namespace tegula::cli {
namespace {

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

std::string signature_names(const ir::Kernel& k, bool tensors) {
  std::string out;
  for (const ir::Param& p : k.params)
    if (p.is_tensor == tensors) out += (out.empty() ? "" : ", ") + p.name;
  return out.empty() ? "none" : out;
}

std::string shape_text(const std::vector<int64_t>& shape) {
  std::string s = "(";
  for (size_t d = 0; d < shape.size(); ++d) s += (d ? ", " : "") + std::to_string(shape[d]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

std::string param_shape_text(const ir::Param& p) {
  std::string s = std::string(dtype_name(p.dtype)) + "[";
  for (size_t d = 0; d < p.shape.size(); ++d) s += (d ? ", " : "") + ir::print_expr(p.shape[d]);
  return s + "]";
}

/// The descr a .npy file for `t` carries: NumPy's own, or float32 for dtypes NumPy lacks
/// (their values are all exact in float32).
std::string file_descr(DType t) { return npy_descr(t).value_or("<f4"); }

/// The spacing of `t`'s values at |x| (the smallest subnormal's below the normal range).
double ulp_at(DType t, double x) {
  int mantissa = 23, min_exponent = -126;
  switch (t) {
    case DType::F64: mantissa = 52, min_exponent = -1022; break;
    case DType::F32: break;
    case DType::TF32: mantissa = 10; break;
    case DType::BF16: mantissa = 7; break;
    case DType::F16: mantissa = 10, min_exponent = -14; break;
    case DType::E4M3: mantissa = 3, min_exponent = -6; break;
    case DType::E5M2: mantissa = 2, min_exponent = -14; break;
    case DType::E4M3FNUZ:
    case DType::E5M2FNUZ:
    case DType::E2M3:
    case DType::E3M2:
    case DType::E2M1:
    case DType::E8M0:
    case DType::UE4M3:
      mantissa = float_format(t)->man_bits, min_exponent = float_format(t)->min_normal_exponent();
      break;
    case DType::I8:
    case DType::U8:
    case DType::I32:
    case DType::Bool: return 0;
  }
  int exponent = x == 0 ? min_exponent : std::max(std::ilogb(x), min_exponent);
  return std::ldexp(1.0, exponent - mantissa);
}

}  // namespace

Result<Bindings> parse_run_bindings(const ir::Kernel& k, const std::string& text) {
  Bindings b;
  std::vector<std::string> symbols = k.symbols();
  for (size_t pos = 0; pos < text.size();) {
    size_t end = text.find(',', pos);
    std::string item = text.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
    pos = end == std::string::npos ? text.size() : end + 1;
    size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      return error(ErrorCode::InvalidArgument, "bad binding '" + item + "' (expected NAME=VALUE)");
    std::string name = item.substr(0, eq), value = item.substr(eq + 1);
    bool symbol = false;
    for (const std::string& s : symbols) symbol = symbol || s == name;
    const ir::Param* p = k.find_param(name);
    if (symbol) {
      TG_ASSIGN_OR_RETURN(b.symbols[name], parse_integer(value, "shape symbol " + name));
    } else if (p && !p->is_tensor && dtype_is_float(p->dtype)) {
      TG_ASSIGN_OR_RETURN(b.scalars[name], parse_number(value, "scalar " + name));
    } else if (p && !p->is_tensor) {
      TG_ASSIGN_OR_RETURN(int64_t v, parse_integer(value, "scalar " + name + " (" + dtype_name(p->dtype) + ")"));
      b.scalars[name] = double(v);
    } else {
      std::string known;
      for (const std::string& s : symbols) known += (known.empty() ? "" : ", ") + s;
      return error(ErrorCode::InvalidArgument, "kernel '" + k.name + "' has no shape symbol or scalar named '" + name +
                                                   "' (shape symbols: " + (known.empty() ? "none" : known) +
                                                   "; scalars: " + signature_names(k, false) + ")");
    }
  }
  return b;
}

Result<TensorFile> parse_tensor_file(const ir::Kernel& k, const std::string& text, const char* option) {
  size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
    return error(ErrorCode::InvalidArgument, std::string(option) + " '" + text + "': expected NAME=FILE");
  TensorFile f{text.substr(0, eq), text.substr(eq + 1), 0};
  if (!ends_with(f.path, ".npy") && !ends_with(f.path, ".bin"))
    return error(ErrorCode::InvalidArgument, std::string(option) + " " + f.param + "=" + f.path +
                                                 ": the file must end in .npy (NumPy) or .bin (raw little-endian)");
  for (size_t i = 0; i < k.params.size(); ++i)
    if (k.params[i].is_tensor && k.params[i].name == f.param) {
      f.index = i;
      return f;
    }
  return error(ErrorCode::InvalidArgument, std::string(option) + ": kernel '" + k.name + "' has no tensor '" + f.param +
                                               "' (tensors: " + signature_names(k, true) + ")");
}

Status bind_symbols_from_inputs(const ir::Kernel& k, const std::vector<TensorFile>& inputs, Bindings& b) {
  for (const TensorFile& f : inputs) {
    if (!ends_with(f.path, ".npy")) continue;
    TG_ASSIGN_OR_RETURN(std::string bytes, read_file(f.path));
    TG_ASSIGN_OR_RETURN(NpyArray a, parse_npy(bytes, f.path));
    const ir::Param& p = k.params[f.index];
    std::string want = file_descr(p.dtype);
    if (a.descr != want)
      return error(ErrorCode::InvalidArgument,
                   f.path + ": dtype '" + a.descr + "' but " + p.name + " is " + dtype_name(p.dtype) + " (a .npy of '" +
                       want + "'" + (npy_descr(p.dtype) ? "" : ", rounded to " + std::string(dtype_name(p.dtype))) + ")");
    if (a.shape.size() != p.shape.size())
      return error(ErrorCode::InvalidArgument, f.path + ": shape " + shape_text(a.shape) + " has " +
                                                   std::to_string(a.shape.size()) + " dimensions but " + p.name + " is " +
                                                   param_shape_text(p));
    for (size_t d = 0; d < p.shape.size(); ++d) {
      const ir::Expr& dim = p.shape[d];
      int64_t have = a.shape[d];
      if (dim->kind == ir::ExprKind::IntImm) {
        if (dim->int_value == have) continue;
        return error(ErrorCode::InvalidArgument, f.path + ": shape " + shape_text(a.shape) + " but " + p.name + " is " +
                                                     param_shape_text(p) + " (dimension " + std::to_string(d) + ")");
      }
      auto [it, inserted] = b.symbols.emplace(dim->name, have);
      if (!inserted && it->second != have)
        return error(ErrorCode::InvalidArgument, f.path + ": shape " + shape_text(a.shape) + " makes " + dim->name +
                                                     " = " + std::to_string(have) + " but it is " +
                                                     std::to_string(it->second) + " (bound or set by another input)");
    }
  }
  return Status::ok();
}

Status load_inputs(const ir::Kernel& k, const std::vector<TensorFile>& inputs, examples::LaunchData& data) {
  for (const TensorFile& f : inputs) {
    const ir::Param& p = k.params[f.index];
    examples::HostTensor& t = data.tensors[f.index];
    TG_ASSIGN_OR_RETURN(std::string bytes, read_file(f.path));
    if (ends_with(f.path, ".bin")) {
      if (bytes.size() != t.bytes.size())
        return error(ErrorCode::InvalidArgument, f.path + ": " + std::to_string(bytes.size()) + " bytes but " + p.name +
                                                     " (" + dtype_name(p.dtype) + shape_text(t.shape) + ") needs " +
                                                     std::to_string(t.bytes.size()));
      std::memcpy(t.bytes.data(), bytes.data(), bytes.size());
      continue;
    }
    // Dtype and shape were checked when the symbols were bound.
    TG_ASSIGN_OR_RETURN(NpyArray a, parse_npy(bytes, f.path));
    if (npy_descr(p.dtype)) {
      std::memcpy(t.bytes.data(), a.data.data(), t.bytes.size());
      continue;
    }
    size_t esize = dtype_size(p.dtype);
    for (int64_t e = 0; e < t.numel(); ++e) {
      float v = 0;
      std::memcpy(&v, a.data.data() + size_t(e) * 4, 4);
      store_element(p.dtype, double(v), t.bytes.data() + size_t(e) * esize);
    }
  }
  return Status::ok();
}

Status write_outputs(const ir::Kernel& k, const std::vector<TensorFile>& outputs, const examples::LaunchData& data) {
  for (const TensorFile& f : outputs) {
    const ir::Param& p = k.params[f.index];
    const examples::HostTensor& t = data.tensors[f.index];
    std::string raw(t.bytes.begin(), t.bytes.end());
    if (ends_with(f.path, ".bin")) {
      TG_RETURN_IF_ERROR(write_file_atomic(f.path, raw));
      continue;
    }
    if (!npy_descr(p.dtype)) {
      std::string f32(size_t(t.numel()) * 4, '\0');
      for (int64_t e = 0; e < t.numel(); ++e) {
        float v = float(t.at(e));  // exact: every value of these dtypes is a float32
        std::memcpy(&f32[size_t(e) * 4], &v, 4);
      }
      raw = std::move(f32);
    }
    TG_RETURN_IF_ERROR(write_file_atomic(f.path, format_npy(file_descr(p.dtype), t.shape, raw)));
  }
  return Status::ok();
}

std::string format_outputs(const ir::Kernel& k, const examples::LaunchData& data, int64_t limit) {
  std::string out;
  for (size_t i : data.outputs) {
    const examples::HostTensor& t = data.tensors[i];
    out += k.params[i].name + ": " + dtype_name(t.dtype) + shape_text(t.shape) + " = [";
    int64_t n = t.numel();
    for (int64_t e = 0; e < n && e < limit; ++e) out += (e ? ", " : "") + ir::print_float(t.at(e));
    if (n > limit) out += ", ... (" + std::to_string(n - limit) + " more)";
    out += "]\n";
  }
  return out;
}

examples::CheckResult compare_runs(const ir::Kernel& k, const examples::LaunchData& got, const examples::LaunchData& want) {
  examples::CheckResult r;
  r.passed = true;
  for (size_t i : got.outputs) {
    const examples::HostTensor& g = got.tensors[i];
    const examples::HostTensor& w = want.tensors[i];
    examples::OutputComparison cmp;
    cmp.name = k.params[i].name;
    cmp.elements = g.numel();
    double scale = 0;
    for (int64_t e = 0; e < w.numel(); ++e)
      if (std::isfinite(w.at(e))) scale = std::fmax(scale, std::fabs(w.at(e)));
    size_t esize = dtype_size(g.dtype);
    for (int64_t e = 0; e < g.numel(); ++e) {
      if (std::memcmp(g.bytes.data() + size_t(e) * esize, w.bytes.data() + size_t(e) * esize, esize) == 0) continue;
      double a = g.at(e), b = w.at(e);
      double err = std::fabs(a - b);
      bool ok = false;
      if (std::isnan(a) || std::isnan(b)) {
        ok = std::isnan(a) && std::isnan(b);
      } else if (std::isinf(a) || std::isinf(b) || !dtype_is_float(g.dtype)) {
        ok = a == b;
      } else {
        ok = err <= 4 * ulp_at(g.dtype, b) + 64 * std::ldexp(1.0, -24) * scale;
      }
      if (std::isfinite(err)) {
        cmp.max_abs_error = std::fmax(cmp.max_abs_error, err);
        if (b != 0) cmp.max_rel_error = std::fmax(cmp.max_rel_error, err / std::fabs(b));
      }
      if (ok) continue;
      if (cmp.mismatches++ == 0)
        cmp.first_mismatch = cmp.name + " element " + std::to_string(e) + ": got " + ir::print_float(a) +
                             ", reference device " + ir::print_float(b);
    }
    r.passed = r.passed && cmp.mismatches == 0;
    r.outputs.push_back(cmp);
  }
  return r;
}

}  // namespace tegula::cli
