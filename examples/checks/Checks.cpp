#include "examples/checks/Checks.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>

#include "core/Random.h"
#include "ir/Analysis.h"

namespace tegula::examples {

int64_t HostTensor::numel() const {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

double HostTensor::at(int64_t i) const { return load_element(dtype, bytes.data() + i * int64_t(dtype_size(dtype))); }

std::vector<double> HostTensor::values() const {
  std::vector<double> v(static_cast<size_t>(numel()));
  for (int64_t i = 0; i < numel(); ++i) v[size_t(i)] = at(i);
  return v;
}

Result<std::map<std::string, int64_t>> parse_bindings(const std::string& text) {
  std::map<std::string, int64_t> out;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find(',', pos);
    std::string item = text.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
    pos = end == std::string::npos ? text.size() : end + 1;
    size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == item.size())
      return error(ErrorCode::InvalidArgument, "bad binding '" + item + "' (expected NAME=INTEGER)");
    char* endp = nullptr;
    std::string value = item.substr(eq + 1);
    long long v = std::strtoll(value.c_str(), &endp, 10);
    if (*endp != '\0') return error(ErrorCode::InvalidArgument, "bad value in binding '" + item + "' (expected an integer)");
    out[item.substr(0, eq)] = v;
  }
  return out;
}

static double random_value(DType t, Rng& rng) {
  switch (t) {
    case DType::I8: return double(rng.integer(-8, 8));
    case DType::U8: return double(rng.integer(0, 16));
    case DType::I32: return double(rng.integer(-100, 100));
    case DType::Bool: return double(rng.integer(0, 1));
    default: return rng.uniform(-1.0, 1.0);
  }
}

Result<LaunchData> make_launch_data(const ir::Kernel& k, const std::map<std::string, int64_t>& bindings, uint64_t seed) {
  LaunchData d;
  std::vector<std::string> symbols = k.symbols();
  std::map<std::string, int64_t> values;
  for (const std::string& s : symbols) {
    auto it = bindings.find(s);
    if (it == bindings.end()) return error(ErrorCode::InvalidArgument, "shape symbol '" + s + "' is not bound (give " + s + "=VALUE)");
    if (it->second < 0) return error(ErrorCode::InvalidArgument, "shape symbol '" + s + "' must not be negative");
    values[s] = it->second;
    d.symbols.push_back(it->second);
  }
  for (const auto& [name, v] : bindings) {
    if (values.count(name)) continue;
    bool scalar = false;
    for (const ir::Param& p : k.params) scalar = scalar || (!p.is_tensor && p.name == name);
    if (!scalar) return error(ErrorCode::InvalidArgument, "kernel '" + k.name + "' has no shape symbol or scalar named '" + name + "'");
    (void)v;
  }
  d.outputs = ir::written_params(k);
  Rng rng(seed);
  d.tensors.resize(k.params.size());
  d.scalars.resize(k.params.size());
  for (size_t i = 0; i < k.params.size(); ++i) {
    const ir::Param& p = k.params[i];
    if (!p.is_tensor) {
      auto it = bindings.find(p.name);
      d.scalars[i] = it != bindings.end() ? double(it->second) : round_to_dtype(p.dtype, random_value(p.dtype, rng));
      continue;
    }
    HostTensor& t = d.tensors[i];
    t.dtype = p.dtype;
    for (const ir::Expr& dim : p.shape) t.shape.push_back(dim->kind == ir::ExprKind::IntImm ? dim->int_value : values[dim->name]);
    int64_t n = t.numel();
    if (n > (int64_t(1) << 30)) return error(ErrorCode::InvalidArgument, "tensor '" + p.name + "' is too large for a host run");
    size_t esize = dtype_size(p.dtype);
    t.bytes.assign(size_t(n) * esize, 0xff);
    bool output = false;
    for (size_t o : d.outputs) output = output || o == i;
    if (output) continue;
    for (int64_t e = 0; e < n; ++e) store_element(p.dtype, random_value(p.dtype, rng), t.bytes.data() + size_t(e) * esize);
  }
  return d;
}

std::vector<ir::Arg> interpreter_args(const ir::Kernel& k, LaunchData& data) {
  std::vector<ir::Arg> args;
  for (size_t i = 0; i < k.params.size(); ++i) {
    if (k.params[i].is_tensor) {
      args.push_back(ir::Arg::tensor(data.tensors[i].bytes.data(), data.tensors[i].bytes.size()));
    } else if (dtype_is_float(k.params[i].dtype)) {
      args.push_back(ir::Arg::number(data.scalars[i]));
    } else {
      args.push_back(ir::Arg::integer(int64_t(data.scalars[i])));
    }
  }
  for (int64_t s : data.symbols) args.push_back(ir::Arg::integer(s));
  return args;
}

// ---------------------------------------------------------------------------------------
// Direct computations. Each gets the decoded tensors and returns, for the last tensor
// parameter (the output), the expected values and a per-element magnitude that scales the
// tolerance (for sums: the sum of absolute terms).

struct Expected {
  std::vector<double> value;
  std::vector<double> magnitude;
};

using DirectFn = std::function<Result<Expected>(const std::vector<const HostTensor*>&)>;

static Status want_shape(bool ok, const std::string& what) {
  if (ok) return Status::ok();
  return error(ErrorCode::InvalidArgument, "the tensors do not have the shapes " + what + " expects");
}

static Result<Expected> matmul(const std::vector<const HostTensor*>& t) {
  TG_RETURN_IF_ERROR(want_shape(t.size() == 3 && t[0]->shape.size() == 2 && t[1]->shape.size() == 2 &&
                                    t[2]->shape.size() == 2 && t[0]->shape[1] == t[1]->shape[0] &&
                                    t[2]->shape[0] == t[0]->shape[0] && t[2]->shape[1] == t[1]->shape[1],
                                "matmul (A[M,K], B[K,N], C[M,N])"));
  int64_t m = t[0]->shape[0], kk = t[0]->shape[1], n = t[1]->shape[1];
  std::vector<double> a = t[0]->values(), b = t[1]->values();
  Expected e;
  e.value.assign(size_t(m * n), 0);
  e.magnitude.assign(size_t(m * n), 0);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t k = 0; k < kk; ++k) {
      double av = a[size_t(i * kk + k)];
      for (int64_t j = 0; j < n; ++j) {
        e.value[size_t(i * n + j)] += av * b[size_t(k * n + j)];
        e.magnitude[size_t(i * n + j)] += std::fabs(av * b[size_t(k * n + j)]);
      }
    }
  return e;
}

static Result<Expected> softmax_rows(const std::vector<const HostTensor*>& t) {
  TG_RETURN_IF_ERROR(want_shape(t.size() == 2 && t[0]->shape.size() == 2 && t[0]->shape == t[1]->shape,
                                "softmax_rows (X[M,N], Y[M,N])"));
  int64_t m = t[0]->shape[0], n = t[0]->shape[1];
  std::vector<double> x = t[0]->values();
  Expected e;
  e.value.resize(x.size());
  e.magnitude.resize(x.size());
  for (int64_t i = 0; i < m; ++i) {
    double mx = -INFINITY, sum = 0;
    for (int64_t j = 0; j < n; ++j) mx = std::fmax(mx, x[size_t(i * n + j)]);
    for (int64_t j = 0; j < n; ++j) sum += std::exp(x[size_t(i * n + j)] - mx);
    for (int64_t j = 0; j < n; ++j) {
      double v = std::exp(x[size_t(i * n + j)] - mx) / sum;
      e.value[size_t(i * n + j)] = v;
      e.magnitude[size_t(i * n + j)] = v;
    }
  }
  return e;
}

static Result<Expected> sum_rows(const std::vector<const HostTensor*>& t) {
  TG_RETURN_IF_ERROR(want_shape(t.size() == 2 && t[0]->shape.size() == 2 && t[1]->numel() == t[0]->shape[0],
                                "sum_rows (X[M,N], Y[M])"));
  int64_t m = t[0]->shape[0], n = t[0]->shape[1];
  std::vector<double> x = t[0]->values();
  Expected e;
  e.value.assign(size_t(m), 0);
  e.magnitude.assign(size_t(m), 0);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      e.value[size_t(i)] += x[size_t(i * n + j)];
      e.magnitude[size_t(i)] += std::fabs(x[size_t(i * n + j)]);
    }
  return e;
}

static Result<Expected> silu_mul(const std::vector<const HostTensor*>& t) {
  TG_RETURN_IF_ERROR(want_shape(t.size() == 3 && t[0]->shape == t[1]->shape && t[0]->shape == t[2]->shape,
                                "silu_mul (X, Z, Y of one shape)"));
  std::vector<double> x = t[0]->values(), z = t[1]->values();
  Expected e;
  for (size_t i = 0; i < x.size(); ++i) {
    double v = x[i] / (1.0 + std::exp(-x[i])) * z[i];
    e.value.push_back(v);
    e.magnitude.push_back(std::fabs(v));
  }
  return e;
}

struct DirectComputation {
  const char* name;
  DirectFn fn;
};

static const std::vector<DirectComputation>& computations() {
  static const std::vector<DirectComputation> list = {
      {"matmul", matmul}, {"softmax_rows", softmax_rows}, {"sum_rows", sum_rows}, {"silu_mul", silu_mul}};
  return list;
}

const std::vector<std::string>& direct_computation_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const auto& c : computations()) n.push_back(c.name);
    return n;
  }();
  return names;
}

static std::string reference_name(const ir::Kernel& k) {
  const ir::Attr* a = ir::find_attr(k.attrs, "reference");
  return a ? a->value.s : "";
}

bool has_direct_computation(const ir::Kernel& k) { return !reference_name(k).empty(); }

/// Unit roundoff of a dtype: half the distance from 1 to the next value.
static double unit_roundoff(DType t) {
  switch (t) {
    case DType::F64: return 0x1p-53;
    case DType::F32: return 0x1p-24;
    case DType::TF32: return 0x1p-11;
    case DType::F16: return 0x1p-11;
    case DType::BF16: return 0x1p-8;
    case DType::E4M3: return 0x1p-4;
    case DType::E5M2: return 0x1p-3;
    default: return 0.5;  // integers: exact up to rounding of the final store
  }
}

static std::string index_str(const std::vector<int64_t>& shape, int64_t linear) {
  std::vector<int64_t> idx(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    idx[d] = linear % shape[d];
    linear /= shape[d];
  }
  std::string s = "[";
  for (size_t d = 0; d < idx.size(); ++d) s += (d ? ", " : "") + std::to_string(idx[d]);
  return s + "]";
}

Result<CheckResult> check_outputs(const ir::Kernel& k, const LaunchData& data) {
  std::string name = reference_name(k);
  const DirectComputation* comp = nullptr;
  for (const auto& c : computations())
    if (name == c.name) comp = &c;
  if (!comp) return error(ErrorCode::NotFound, "kernel '" + k.name + "' names no known direct computation ('" + name + "')");
  std::vector<const HostTensor*> tensors;
  size_t out_index = 0;
  for (size_t i = 0; i < k.params.size(); ++i) {
    if (!k.params[i].is_tensor) continue;
    tensors.push_back(&data.tensors[i]);
    out_index = i;
  }
  TG_ASSIGN_OR_RETURN(Expected expected, comp->fn(tensors));
  const HostTensor& out = data.tensors[out_index];
  OutputComparison cmp;
  cmp.name = k.params[out_index].name;
  cmp.elements = out.numel();
  // Error budget: rounding of the result to its dtype, plus float32 arithmetic over the
  // terms (for a sum of n terms the error grows with n; 2^-18 of the term magnitude covers
  // the sizes we run with a wide margin while still catching a wrong or missing term).
  double u_out = unit_roundoff(out.dtype);
  for (int64_t i = 0; i < out.numel(); ++i) {
    double got = out.at(i), want = expected.value[size_t(i)];
    double err = std::fabs(got - want);
    double tol = 2 * u_out * std::fabs(want) + 0x1p-18 * expected.magnitude[size_t(i)] + 1e-30;
    bool ok = err <= tol;  // NaN (an unwritten, poisoned element) fails here
    if (std::isfinite(err)) {
      cmp.max_abs_error = std::fmax(cmp.max_abs_error, err);
      if (want != 0) cmp.max_rel_error = std::fmax(cmp.max_rel_error, err / std::fabs(want));
    }
    if (ok) continue;
    if (cmp.mismatches++ == 0) {
      char buf[160];
      std::snprintf(buf, sizeof buf, "%s%s: got %.9g, expected %.9g", cmp.name.c_str(), index_str(out.shape, i).c_str(), got, want);
      cmp.first_mismatch = buf;
    }
  }
  CheckResult r;
  r.passed = cmp.mismatches == 0;
  r.outputs.push_back(cmp);
  return r;
}

std::string format_check(const CheckResult& r) {
  std::string s;
  for (const OutputComparison& c : r.outputs) {
    char buf[256];
    std::snprintf(buf, sizeof buf, "%s: %lld elements, %lld mismatches, max abs error %.3g, max rel error %.3g\n",
                  c.name.c_str(), (long long)c.elements, (long long)c.mismatches, c.max_abs_error, c.max_rel_error);
    s += buf;
    if (!c.first_mismatch.empty()) s += "  first mismatch: " + c.first_mismatch + "\n";
  }
  s += r.passed ? "PASS\n" : "FAIL\n";
  return s;
}

}  // namespace tegula::examples
