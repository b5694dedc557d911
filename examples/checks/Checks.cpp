#include "examples/checks/Checks.h"

#include "examples/checks/Direct.h"

#include <algorithm>
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
// Direct computations. Each gets the decoded tensors and returns, for each tensor the
// kernel writes (in parameter order), the expected values and a per-element magnitude that
// scales the tolerance (for sums: the sum of absolute terms).

// (Expected and Scalars: examples/checks/Direct.h, shared with the per-family files.)
using detail::Expected;
using detail::Scalars;
using detail::unit_roundoff;
using detail::want_shape;
using DirectFn = std::function<Result<std::vector<Expected>>(const std::vector<const HostTensor*>&, const Scalars&)>;

Status detail::want_shape(bool ok, const std::string& what) {
  if (ok) return Status::ok();
  return error(ErrorCode::InvalidArgument, "the tensors do not have the shapes " + what + " expects");
}

static Result<std::vector<Expected>> matmul(const std::vector<const HostTensor*>& t, const Scalars&) {
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
  return std::vector<Expected>{std::move(e)};
}

static Result<std::vector<Expected>> softmax_rows(const std::vector<const HostTensor*>& t, const Scalars&) {
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
  return std::vector<Expected>{std::move(e)};
}

static Result<std::vector<Expected>> sum_rows(const std::vector<const HostTensor*>& t, const Scalars&) {
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
  return std::vector<Expected>{std::move(e)};
}

static Result<std::vector<Expected>> silu_mul(const std::vector<const HostTensor*>& t, const Scalars&) {
  TG_RETURN_IF_ERROR(want_shape(t.size() == 3 && t[0]->shape == t[1]->shape && t[0]->shape == t[2]->shape,
                                "silu_mul (X, Z, Y of one shape)"));
  std::vector<double> x = t[0]->values(), z = t[1]->values();
  Expected e;
  for (size_t i = 0; i < x.size(); ++i) {
    double v = x[i] / (1.0 + std::exp(-x[i])) * z[i];
    e.value.push_back(v);
    e.magnitude.push_back(std::fabs(v));
  }
  return std::vector<Expected>{std::move(e)};
}


/// x / sqrt(mean(x^2) + eps) * w over each row; `h` rounds x + r to f16 first when given.
static std::vector<Expected> rms_rows(const std::vector<double>& x, const std::vector<double>& w, int64_t m, int64_t n,
                                      double eps) {
  Expected e;
  e.value.resize(x.size());
  e.magnitude.resize(x.size());
  for (int64_t i = 0; i < m; ++i) {
    double ss = 0;
    for (int64_t j = 0; j < n; ++j) ss += x[size_t(i * n + j)] * x[size_t(i * n + j)];
    double rstd = 1.0 / std::sqrt(ss / double(n) + eps);
    for (int64_t j = 0; j < n; ++j) {
      double v = x[size_t(i * n + j)] * rstd * w[size_t(j)];
      e.value[size_t(i * n + j)] = v;
      e.magnitude[size_t(i * n + j)] = std::fabs(v);
    }
  }
  return {e};
}

static Result<std::vector<Expected>> rms_norm(const std::vector<const HostTensor*>& t, const Scalars&) {
  TG_RETURN_IF_ERROR(want_shape(t.size() == 3 && t[0]->shape.size() == 2 && t[2]->shape == t[0]->shape &&
                                    t[1]->shape == std::vector<int64_t>{1, t[0]->shape[1]},
                                "rms_norm (X[M,N], W[1,N], Y[M,N])"));
  return rms_rows(t[0]->values(), t[1]->values(), t[0]->shape[0], t[0]->shape[1], 1e-6);
}

/// H = X + R rounded to H's dtype: the new residual stream the fused norms write.
static Expected residual_sum(const HostTensor& x_t, const HostTensor& r_t, DType h_dtype) {
  std::vector<double> x = x_t.values(), r = r_t.values();
  Expected h;
  for (size_t i = 0; i < x.size(); ++i) {
    h.value.push_back(round_to_dtype(h_dtype, x[i] + r[i]));
    h.magnitude.push_back(std::fabs(x[i]) + std::fabs(r[i]));
  }
  return h;
}

static Result<std::vector<Expected>> rms_norm_residual(const std::vector<const HostTensor*>& t, const Scalars&) {
  TG_RETURN_IF_ERROR(want_shape(t.size() == 5 && t[0]->shape.size() == 2 && t[1]->shape == t[0]->shape &&
                                    t[2]->shape == std::vector<int64_t>{1, t[0]->shape[1]} && t[3]->shape == t[0]->shape &&
                                    t[4]->shape == t[0]->shape,
                                "rms_norm_residual (X[M,N], R[M,N], W[1,N], H[M,N], Y[M,N])"));
  Expected h = residual_sum(*t[0], *t[1], t[3]->dtype);
  std::vector<Expected> out = rms_rows(h.value, t[2]->values(), t[0]->shape[0], t[0]->shape[1], 1e-6);
  out.insert(out.begin(), std::move(h));
  return out;
}

/// (x - mean) / sqrt(var + eps) * w + b over each row (the variance as the mean of squared
/// deviations).
static std::vector<Expected> ln_rows(const std::vector<double>& x, const std::vector<double>& w,
                                     const std::vector<double>& b, int64_t m, int64_t n, double eps) {
  Expected e;
  e.value.resize(x.size());
  e.magnitude.resize(x.size());
  for (int64_t i = 0; i < m; ++i) {
    double mean = 0, var = 0;
    for (int64_t j = 0; j < n; ++j) mean += x[size_t(i * n + j)];
    mean /= double(n);
    for (int64_t j = 0; j < n; ++j) var += (x[size_t(i * n + j)] - mean) * (x[size_t(i * n + j)] - mean);
    double rstd = 1.0 / std::sqrt(var / double(n) + eps);
    for (int64_t j = 0; j < n; ++j) {
      double xi = x[size_t(i * n + j)];
      e.value[size_t(i * n + j)] = (xi - mean) * rstd * w[size_t(j)] + b[size_t(j)];
      // The mean's rounding error scales with the row's magnitude, not the deviation's.
      e.magnitude[size_t(i * n + j)] = (std::fabs(xi) + std::fabs(mean)) * rstd * std::fabs(w[size_t(j)]) + std::fabs(b[size_t(j)]);
    }
  }
  return {e};
}

static Result<std::vector<Expected>> layer_norm(const std::vector<const HostTensor*>& t, const Scalars&) {
  std::vector<int64_t> row = t.empty() || t[0]->shape.size() != 2 ? std::vector<int64_t>{} : std::vector<int64_t>{1, t[0]->shape[1]};
  TG_RETURN_IF_ERROR(want_shape(t.size() == 4 && t[0]->shape.size() == 2 && t[1]->shape == row && t[2]->shape == row &&
                                    t[3]->shape == t[0]->shape,
                                "layer_norm (X[M,N], W[1,N], B[1,N], Y[M,N])"));
  return ln_rows(t[0]->values(), t[1]->values(), t[2]->values(), t[0]->shape[0], t[0]->shape[1], 1e-5);
}

/// H = X + R rounded to H's dtype, and Y = layer_norm(H) (examples/norm/layernorm_residual).
static Result<std::vector<Expected>> layer_norm_residual(const std::vector<const HostTensor*>& t, const Scalars&) {
  std::vector<int64_t> row = t.empty() || t[0]->shape.size() != 2 ? std::vector<int64_t>{} : std::vector<int64_t>{1, t[0]->shape[1]};
  TG_RETURN_IF_ERROR(want_shape(t.size() == 6 && t[0]->shape.size() == 2 && t[1]->shape == t[0]->shape &&
                                    t[2]->shape == row && t[3]->shape == row && t[4]->shape == t[0]->shape &&
                                    t[5]->shape == t[0]->shape,
                                "layer_norm_residual (X[M,N], R[M,N], W[1,N], B[1,N], H[M,N], Y[M,N])"));
  Expected h = residual_sum(*t[0], *t[1], t[4]->dtype);
  std::vector<Expected> out = ln_rows(h.value, t[2]->values(), t[3]->values(), t[0]->shape[0], t[0]->shape[1], 1e-5);
  out.insert(out.begin(), std::move(h));
  return out;
}

/// One head of MLA decode (examples/mla) over keys [j0, j1): s_j = scale * q . key(j) over D
/// columns, o = softmax(s) key(j)[0:DV], and the natural log-sum-exp; an empty range gives
/// o = 0 and -inf (what a split with no keys writes). The bound is attention's: the kernels
/// round P to bf16 before the values gemm, so each output's magnitude carries that rounding
/// over sum_j p_j |v_j| (in units of the comparison's 2^-18).
struct MlaHead {
  const double* q;
  int64_t d, dv;
  double scale, p_round;
};

static double mla_head(const MlaHead& h, const std::function<const double*(int64_t)>& key, int64_t j0, int64_t j1,
                       double* o, double* o_mag) {
  for (int64_t c = 0; c < h.dv; ++c) o[c] = o_mag[c] = 0;
  if (j0 >= j1) return -INFINITY;
  std::vector<double> p(size_t(j1 - j0));
  double mx = -INFINITY, sum = 0;
  for (int64_t j = j0; j < j1; ++j) {
    const double* k = key(j);
    double dot = 0;
    for (int64_t c = 0; c < h.d; ++c) dot += h.q[c] * k[c];
    mx = std::fmax(mx, p[size_t(j - j0)] = h.scale * dot);
  }
  for (double& pj : p) sum += (pj = std::exp(pj - mx));
  for (int64_t j = j0; j < j1; ++j) {
    const double* v = key(j);
    for (int64_t c = 0; c < h.dv; ++c) {
      o[c] += p[size_t(j - j0)] * v[c];
      o_mag[c] += p[size_t(j - j0)] * std::fabs(v[c]);
    }
  }
  for (int64_t c = 0; c < h.dv; ++c) {
    o[c] /= sum;
    o_mag[c] = h.p_round * o_mag[c] / sum + std::fabs(o[c]);
  }
  return mx + std::log(sum);
}

/// The KV cache an MLA kernel reads: the keys of sequence b (`length(b)` of them) and where
/// key j's row is.
struct MlaCache {
  std::function<int64_t(int64_t)> length;
  std::function<const double*(int64_t, int64_t)> row;
};

/// Outputs O [B, (NS,) H, DV] and LSE [B, (NS,) H, 1] of MLA decode for Q [B, H, D]. With
/// `splits` = NS > 0, the flash-decoding partials: split s of sequence b covers the key blocks
/// [s c, (s + 1) c) of 64 keys, c = ceildiv(ceildiv(L, 64), NS) (the kernels' partition), and
/// its LSE is in base 2; with 0, one softmax over all keys and the natural LSE.
static std::vector<Expected> mla_outputs(const HostTensor& qt, const MlaCache& cache, int64_t dv, int64_t splits,
                                         double scale) {
  int64_t b_count = qt.shape[0], heads = qt.shape[1], d = qt.shape[2], parts = splits ? splits : 1;
  std::vector<double> q = qt.values();
  Expected o, lse;
  o.value.resize(size_t(b_count * parts * heads * dv));
  o.magnitude.resize(o.value.size());
  for (int64_t b = 0; b < b_count; ++b) {
    int64_t len = cache.length(b), per = ((len + 63) / 64 + parts - 1) / parts * 64;
    for (int64_t s = 0; s < parts; ++s)
      for (int64_t h = 0; h < heads; ++h) {
        MlaHead head{q.data() + (b * heads + h) * d, d, dv, scale, 2 * unit_roundoff(DType::BF16) * 0x1p18};
        size_t at = size_t(((b * parts + s) * heads + h) * dv);
        int64_t j0 = splits ? std::min(s * per, len) : 0, j1 = splits ? std::min((s + 1) * per, len) : len;
        double l = mla_head(
            head, [&](int64_t j) { return cache.row(b, j); }, j0, j1, &o.value[at], &o.magnitude[at]);
        lse.value.push_back(splits ? l * 1.4426950408889634 : l);
        lse.magnitude.push_back(std::isfinite(l) ? 16 * (std::fabs(l) + 1) * 1.4426950408889634 : 0);
      }
  }
  return {std::move(o), std::move(lse)};
}

/// mla_decode (Q[B,H,D], KV[B,L,D], O[B,H,DV], LSE[B,H,1], scale) and mla_decode_partials
/// (Q, KV, Op[B,NS,H,DV], Lp[B,NS,H,1], scale): the dense cache, values its first DV columns.
static Result<std::vector<Expected>> mla_dense(const std::vector<const HostTensor*>& t, const Scalars& scalars,
                                               bool partials) {
  size_t out_rank = partials ? 4 : 3;
  bool ok = t.size() == 4 && scalars.size() == 5 && t[0]->shape.size() == 3 && t[1]->shape.size() == 3 &&
            t[2]->shape.size() == out_rank && t[3]->shape.size() == out_rank && t[1]->shape[0] == t[0]->shape[0] &&
            t[1]->shape[2] == t[0]->shape[2] && t[2]->shape[0] == t[0]->shape[0] &&
            t[2]->shape[out_rank - 2] == t[0]->shape[1] && t[2]->shape.back() <= t[0]->shape[2];
  std::vector<int64_t> lse_shape = ok ? t[2]->shape : std::vector<int64_t>{};
  if (ok) lse_shape.back() = 1;
  TG_RETURN_IF_ERROR(want_shape(ok && t[3]->shape == lse_shape,
                                partials
                                    ? "mla_decode_partials (Q[B,H,D], KV[B,L,D], Op[B,NS,H,DV], Lp[B,NS,H,1], scale)"
                                    : "mla_decode (Q[B,H,D], KV[B,L,D], O[B,H,DV], LSE[B,H,1], scale)"));
  int64_t len = t[1]->shape[1], d = t[1]->shape[2];
  std::vector<double> kv = t[1]->values();
  MlaCache cache{[&](int64_t) { return len; }, [&](int64_t b, int64_t j) { return kv.data() + (b * len + j) * d; }};
  return mla_outputs(*t[0], cache, t[2]->shape.back(), partials ? t[2]->shape[1] : 0, scalars[4]);
}

static Result<std::vector<Expected>> mla_decode(const std::vector<const HostTensor*>& t, const Scalars& scalars) {
  return mla_dense(t, scalars, false);
}

static Result<std::vector<Expected>> mla_decode_partials(const std::vector<const HostTensor*>& t,
                                                         const Scalars& scalars) {
  return mla_dense(t, scalars, true);
}

/// mla_paged_partials (Q[B,H,D], KV[NP,64,D], T i32[B,MP], Ls i32[B], Op[B,NS,H,DV],
/// Lp[B,NS,H,1], scale): key j of sequence b is KV[T[b, j / 64], j % 64].
static Result<std::vector<Expected>> mla_paged_partials(const std::vector<const HostTensor*>& t,
                                                        const Scalars& scalars) {
  bool ok = t.size() == 6 && scalars.size() == 7 && t[0]->shape.size() == 3 && t[1]->shape.size() == 3 &&
            t[1]->shape[1] == 64 && t[1]->shape[2] == t[0]->shape[2] && t[2]->shape.size() == 2 &&
            t[2]->shape[0] == t[0]->shape[0] && t[3]->shape == std::vector<int64_t>{t[0]->shape[0]} &&
            t[4]->shape.size() == 4 && t[4]->shape[0] == t[0]->shape[0] && t[4]->shape[2] == t[0]->shape[1] &&
            t[4]->shape[3] <= t[0]->shape[2] &&
            t[5]->shape == std::vector<int64_t>{t[4]->shape[0], t[4]->shape[1], t[4]->shape[2], 1};
  TG_RETURN_IF_ERROR(want_shape(ok,
                                "mla_paged_partials (Q[B,H,D], KV[NP,64,D], T[B,MP], Ls[B], Op[B,NS,H,DV], "
                                "Lp[B,NS,H,1], scale)"));
  int64_t pages = t[1]->shape[0], d = t[1]->shape[2], max_pages = t[2]->shape[1];
  std::vector<double> kv = t[1]->values(), table = t[2]->values(), lengths = t[3]->values();
  for (int64_t b = 0; b < t[0]->shape[0]; ++b) {
    int64_t len = int64_t(lengths[size_t(b)]);
    if (len < 0 || len > 64 * max_pages)
      return error(ErrorCode::InvalidArgument, "mla_paged_partials: Ls[" + std::to_string(b) +
                                                   "] = " + std::to_string(len) + " is outside [0, 64 * MP]");
    for (int64_t p = 0; p < (len + 63) / 64; ++p)
      if (table[size_t(b * max_pages + p)] < 0 || table[size_t(b * max_pages + p)] >= double(pages))
        return error(ErrorCode::InvalidArgument,
                     "mla_paged_partials: T[" + std::to_string(b) + ", " + std::to_string(p) + "] is not a page of KV");
  }
  MlaCache cache{[&](int64_t b) { return int64_t(lengths[size_t(b)]); },
                 [&](int64_t b, int64_t j) {
                   return kv.data() + (int64_t(table[size_t(b * max_pages + j / 64)]) * 64 + j % 64) * d;
                 }};
  return mla_outputs(*t[0], cache, t[4]->shape[3], t[4]->shape[1], scalars[6]);
}

/// mla_combine (Op[B,NS,H,DV], Lp[B,NS,H,1], O[B,H,DV], LSE[B,H,1]): the weighted mean of the
/// partials with weights 2^(Lp - max Lp), and the natural LSE of the whole.
static Result<std::vector<Expected>> mla_combine(const std::vector<const HostTensor*>& t, const Scalars&) {
  bool ok = t.size() == 4 && t[0]->shape.size() == 4 && t[1]->shape.size() == 4 && t[1]->shape[3] == 1 &&
            std::vector<int64_t>(t[1]->shape.begin(), t[1]->shape.begin() + 3) ==
                std::vector<int64_t>(t[0]->shape.begin(), t[0]->shape.begin() + 3) &&
            t[2]->shape == std::vector<int64_t>{t[0]->shape[0], t[0]->shape[2], t[0]->shape[3]} &&
            t[3]->shape == std::vector<int64_t>{t[0]->shape[0], t[0]->shape[2], 1};
  TG_RETURN_IF_ERROR(want_shape(ok, "mla_combine (Op[B,NS,H,DV], Lp[B,NS,H,1], O[B,H,DV], LSE[B,H,1])"));
  int64_t b_count = t[0]->shape[0], splits = t[0]->shape[1], heads = t[0]->shape[2], dv = t[0]->shape[3];
  std::vector<double> op = t[0]->values(), lp = t[1]->values();
  Expected o, lse;
  for (int64_t b = 0; b < b_count; ++b)
    for (int64_t h = 0; h < heads; ++h) {
      double mx = -INFINITY, sum = 0;
      for (int64_t s = 0; s < splits; ++s) mx = std::fmax(mx, lp[size_t((b * splits + s) * heads + h)]);
      for (int64_t s = 0; s < splits; ++s) sum += std::exp2(lp[size_t((b * splits + s) * heads + h)] - mx);
      for (int64_t c = 0; c < dv; ++c) {
        double acc = 0, mag = 0;
        for (int64_t s = 0; s < splits; ++s) {
          double w = std::exp2(lp[size_t((b * splits + s) * heads + h)] - mx);
          double v = op[size_t(((b * splits + s) * heads + h) * dv + c)];
          acc += w * v;
          mag += w * std::fabs(v);
        }
        o.value.push_back(acc / sum);
        o.magnitude.push_back(mag / sum);
      }
      double l = (mx + std::log2(sum)) * 0.6931471805599453;
      lse.value.push_back(l);
      lse.magnitude.push_back(16 * (std::fabs(l) + 1));
    }
  return std::vector<Expected>{std::move(o), std::move(lse)};
}

/// C = (sa * sb) * A B^T, for A[M, K], B[N, K] and the scalars sa, sb after C (FP8 GEMM with
/// per-tensor scales, torch._scaled_mm's layout).
static Result<std::vector<Expected>> scaled_matmul_bt(const std::vector<const HostTensor*>& t, const Scalars& scalars) {
  TG_RETURN_IF_ERROR(want_shape(t.size() == 3 && t[0]->shape.size() == 2 && t[1]->shape.size() == 2 &&
                                    t[2]->shape.size() == 2 && t[0]->shape[1] == t[1]->shape[1] &&
                                    t[2]->shape[0] == t[0]->shape[0] && t[2]->shape[1] == t[1]->shape[0] && scalars.size() == 5,
                                "scaled_matmul_bt (A[M,K], B[N,K], C[M,N], sa, sb)"));
  int64_t m = t[0]->shape[0], kk = t[0]->shape[1], n = t[1]->shape[0];
  double scale = scalars[3] * scalars[4];
  std::vector<double> a = t[0]->values(), b = t[1]->values();
  Expected e;
  e.value.assign(size_t(m * n), 0);
  e.magnitude.assign(size_t(m * n), 0);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double sum = 0, mag = 0;
      for (int64_t k = 0; k < kk; ++k) {
        sum += a[size_t(i * kk + k)] * b[size_t(j * kk + k)];
        mag += std::fabs(a[size_t(i * kk + k)] * b[size_t(j * kk + k)]);
      }
      e.value[size_t(i * n + j)] = scale * sum;
      // fp8 matrix instructions keep about 14 bits of the running sum (Hopper's wgmma: the
      // DeepSeek-V3 report, 3.3.2), so the bound is the suite's e4m3_f32 accumulate rule,
      // K * 2^-13 * sum |terms| (conformance/tolerances.json), in units of the 2^-18 the
      // comparison applies.
      e.magnitude[size_t(i * n + j)] = std::fabs(scale) * mag * double(kk) * 32.0;
    }
  return std::vector<Expected>{std::move(e)};
}

/// Y = X * dequant(W)^T for the W4A16 examples (examples/quant/gem*_int4*.tile): X[M, K],
/// W i32[N, ceildiv(K, 8)] with k = 8w + j in bits 4j..4j+3 of W[n, w], scales S[G, N] with
/// G = ceildiv(K, 128), and with `zero_points` Z u8[G, N]: the weight is (q - z) * s, where
/// z = 8 without zero points (signed-offset int4). Exact dequantisation (it is exact in f32),
/// so the bound is the matmul's. With `f16_weights` each weight is rounded to f16 first, as a
/// kernel that dequantises into f16 tiles (Marlin's way) computes it.
static Result<std::vector<Expected>> int4_matmul_of(const std::vector<const HostTensor*>& t, bool zero_points,
                                                    bool f16_weights = false) {
  size_t y = zero_points ? 4 : 3;
  bool shapes = t.size() == y + 1;
  for (size_t i = 0; shapes && i <= y; ++i) shapes = t[i]->shape.size() == 2;
  int64_t m = shapes ? t[0]->shape[0] : 0, kk = shapes ? t[0]->shape[1] : 0, n = shapes ? t[1]->shape[0] : 0;
  int64_t kw = (kk + 7) / 8, groups = (kk + 127) / 128;
  shapes = shapes && t[1]->dtype == DType::I32 && t[1]->shape[1] == kw &&
           t[2]->shape == std::vector<int64_t>{groups, n} && t[y]->shape == std::vector<int64_t>{m, n} &&
           (!zero_points || t[3]->shape == t[2]->shape);
  TG_RETURN_IF_ERROR(
      want_shape(shapes, zero_points ? "int4_zp_matmul (X[M,K], W i32[N,ceildiv(K,8)], S[ceildiv(K,128),N], "
                                       "Z[ceildiv(K,128),N], Y[M,N])"
                                     : "int4_matmul (X[M,K], W i32[N,ceildiv(K,8)], S[ceildiv(K,128),N], Y[M,N])"));
  std::vector<double> x = t[0]->values(), s = t[2]->values();
  std::vector<double> w(size_t(n * kk));
  for (int64_t j = 0; j < n; ++j)
    for (int64_t k = 0; k < kk; ++k) {
      uint32_t word = uint32_t(int64_t(t[1]->at(j * kw + k / 8)));
      double q = double((word >> (4 * (k % 8))) & 15u);
      size_t g = size_t((k / 128) * n + j);
      double z = zero_points ? t[3]->at(int64_t(g)) : 8.0;
      w[size_t(j * kk + k)] = f16_weights ? round_to_dtype(DType::F16, (q - z) * s[g]) : (q - z) * s[g];
    }
  Expected e;
  e.value.assign(size_t(m * n), 0);
  e.magnitude.assign(size_t(m * n), 0);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t k = 0; k < kk; ++k) {
        double term = x[size_t(i * kk + k)] * w[size_t(j * kk + k)];
        e.value[size_t(i * n + j)] += term;
        e.magnitude[size_t(i * n + j)] += std::fabs(term);
      }
  return std::vector<Expected>{std::move(e)};
}

static Result<std::vector<Expected>> int4_matmul(const std::vector<const HostTensor*>& t, const Scalars&) {
  return int4_matmul_of(t, false);
}

static Result<std::vector<Expected>> int4_zp_matmul(const std::vector<const HostTensor*>& t, const Scalars&) {
  return int4_matmul_of(t, true);
}

static Result<std::vector<Expected>> int4_matmul_f16w(const std::vector<const HostTensor*>& t, const Scalars&) {
  return int4_matmul_of(t, false, true);
}

/// O = softmax(scale * Q K^T [+ causal mask]) V and L = the natural log-sum-exp per query row,
/// for Q, K, V, O [B, H, S, D], L [B, H, S, 1] and the scalar scale after L. The kernel rounds
/// P to its operand dtype before the second gemm (as every FlashAttention does), so each
/// output's bound is that rounding over sum_j p_j |v_j|, in units of the 2^-18 the comparison
/// applies; L's bound covers the base-2 exponentials and logarithms of the backends.
static Result<std::vector<Expected>> attention_rows(const std::vector<const HostTensor*>& t, const Scalars& scalars,
                                                    bool causal) {
  // [B, H, S, D] or one head, [S, D]; L has Q's shape with D set to 1.
  size_t rank = t.empty() ? 0 : t[0]->shape.size();
  std::vector<int64_t> lse_shape = rank ? t[0]->shape : std::vector<int64_t>{};
  if (rank) lse_shape.back() = 1;
  bool ok = t.size() == 5 && (rank == 4 || rank == 2) && t[1]->shape == t[0]->shape && t[2]->shape == t[0]->shape &&
            t[3]->shape == t[0]->shape && t[4]->shape == lse_shape && scalars.size() == 6;
  TG_RETURN_IF_ERROR(want_shape(ok, "attention (Q, K, V, O [B,H,S,D] or [S,D], L of Q's shape with D = 1, scale)"));
  int64_t s = t[0]->shape[rank - 2], d = t[0]->shape[rank - 1], heads = t[0]->numel() / (s * d);
  double scale = scalars[5], p_round = 2 * unit_roundoff(t[0]->dtype) * 0x1p18;
  std::vector<double> q = t[0]->values(), k = t[1]->values(), v = t[2]->values();
  Expected o, l;
  o.value.assign(q.size(), 0);
  o.magnitude.assign(q.size(), 0);
  std::vector<double> p(static_cast<size_t>(s));
  for (int64_t h = 0; h < heads; ++h)
    for (int64_t i = 0; i < s; ++i) {
      const int64_t row = h * s + i, keys = causal ? i + 1 : s;
      double mx = -INFINITY, sum = 0;
      for (int64_t j = 0; j < keys; ++j) {
        double dot = 0;
        for (int64_t c = 0; c < d; ++c) dot += q[size_t(row * d + c)] * k[size_t((h * s + j) * d + c)];
        p[size_t(j)] = scale * dot;
        mx = std::fmax(mx, p[size_t(j)]);
      }
      for (int64_t j = 0; j < keys; ++j) sum += (p[size_t(j)] = std::exp(p[size_t(j)] - mx));
      for (int64_t c = 0; c < d; ++c) {
        double acc = 0, mag = 0;
        for (int64_t j = 0; j < keys; ++j) {
          acc += p[size_t(j)] * v[size_t((h * s + j) * d + c)];
          mag += p[size_t(j)] * std::fabs(v[size_t((h * s + j) * d + c)]);
        }
        o.value[size_t(row * d + c)] = acc / sum;
        o.magnitude[size_t(row * d + c)] = p_round * mag / sum + std::fabs(acc / sum);
      }
      l.value.push_back(mx + std::log(sum));
      l.magnitude.push_back(16 * (std::fabs(mx) + std::log(sum) + 1));
    }
  return std::vector<Expected>{std::move(o), std::move(l)};
}

static Result<std::vector<Expected>> attention(const std::vector<const HostTensor*>& t, const Scalars& scalars) {
  return attention_rows(t, scalars, false);
}

static Result<std::vector<Expected>> attention_causal(const std::vector<const HostTensor*>& t, const Scalars& scalars) {
  return attention_rows(t, scalars, true);
}

struct DirectComputation {
  const char* name;
  DirectFn fn;
};

static const std::vector<DirectComputation>& computations() {
  static const std::vector<DirectComputation> list = {{"matmul", matmul},
                                                      {"softmax_rows", softmax_rows},
                                                      {"sum_rows", sum_rows},
                                                      {"silu_mul", silu_mul},
                                                      {"rms_norm", rms_norm},
                                                      {"rms_norm_residual", rms_norm_residual},
                                                      {"layer_norm_residual", layer_norm_residual},
                                                      {"layer_norm", layer_norm},
                                                      {"mla_decode", mla_decode},
                                                      {"mla_decode_partials", mla_decode_partials},
                                                      {"mla_paged_partials", mla_paged_partials},
                                                      {"mla_combine", mla_combine},
                                                      {"scaled_matmul_bt", scaled_matmul_bt},
                                                      {"int4_matmul", int4_matmul},
                                                      {"int4_zp_matmul", int4_zp_matmul},
                                                      {"int4_matmul_f16w", int4_matmul_f16w},
                                                      {"attention", attention},
                                                      {"attention_causal", attention_causal},
                                                      {"mamba2_chunk_state", detail::mamba2_chunk_state},
                                                      {"mamba2_state_passing", detail::mamba2_state_passing},
                                                      {"mamba2_chunk_scan", detail::mamba2_chunk_scan},
                                                      {"mamba2_ssd", detail::mamba2_ssd}};
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
double detail::unit_roundoff(DType t) {
  switch (t) {
    case DType::F64: return 0x1p-53;
    case DType::F32: return 0x1p-24;
    case DType::TF32: return 0x1p-11;
    case DType::F16: return 0x1p-11;
    case DType::BF16: return 0x1p-8;
    case DType::E4M3: return 0x1p-4;
    case DType::E5M2: return 0x1p-3;
    default:
      // The other narrow floats (core/DType.h's FloatFormat); integers: exact up to
      // rounding of the final store.
      if (const FloatFormat* f = float_format(t)) return std::ldexp(1.0, -f->man_bits - 1);
      return 0.5;
  }
}

/// The spacing of a dtype's subnormals: the rounding step where the relative bound of
/// unit_roundoff no longer holds (results below the smallest normal value).
static double subnormal_step(DType t) {
  switch (t) {
    case DType::F64: return 0x1p-1074;
    case DType::F32:
    case DType::TF32: return 0x1p-149;
    case DType::F16: return 0x1p-24;
    case DType::BF16: return 0x1p-133;
    case DType::E4M3: return 0x1p-9;
    case DType::E5M2: return 0x1p-16;
    default:
      if (const FloatFormat* f = float_format(t)) return std::ldexp(1.0, f->min_normal_exponent() - f->man_bits);
      return 0;  // integers
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

/// One output against its expected values. Error budget: rounding of the result to its
/// dtype, plus float32 arithmetic over the terms (for a sum of n terms the error grows with
/// n; 2^-18 of the term magnitude covers the sizes we run with a wide margin while still
/// catching a wrong or missing term), plus one subnormal step for results that round there.
static OutputComparison compare_output(const std::string& name, const HostTensor& out, const Expected& expected) {
  OutputComparison cmp;
  cmp.name = name;
  cmp.elements = out.numel();
  double u_out = unit_roundoff(out.dtype), step = subnormal_step(out.dtype);
  for (int64_t i = 0; i < out.numel(); ++i) {
    double got = out.at(i), want = expected.value[size_t(i)];
    if (std::isinf(want) && got == want) continue;  // an infinity (an empty split's -inf LSE) matches only itself
    double err = std::fabs(got - want);
    double tol = 2 * u_out * std::fabs(want) + 0x1p-18 * expected.magnitude[size_t(i)] + step + 1e-30;
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
  return cmp;
}

Result<CheckResult> check_outputs(const ir::Kernel& k, const LaunchData& data) {
  std::string name = reference_name(k);
  const DirectComputation* comp = nullptr;
  for (const auto& c : computations())
    if (name == c.name) comp = &c;
  if (!comp) return error(ErrorCode::NotFound, "kernel '" + k.name + "' names no known direct computation ('" + name + "')");
  std::vector<const HostTensor*> tensors;
  for (size_t i = 0; i < k.params.size(); ++i)
    if (k.params[i].is_tensor) tensors.push_back(&data.tensors[i]);
  TG_ASSIGN_OR_RETURN(std::vector<Expected> expected, comp->fn(tensors, data.scalars));
  if (expected.size() != data.outputs.size())
    return error(ErrorCode::InvalidArgument, "kernel '" + k.name + "' writes " + std::to_string(data.outputs.size()) +
                                                 " tensors; its direct computation '" + name + "' computes " +
                                                 std::to_string(expected.size()));
  CheckResult r;
  r.passed = true;
  for (size_t o = 0; o < expected.size(); ++o) {
    OutputComparison cmp = compare_output(k.params[data.outputs[o]].name, data.tensors[data.outputs[o]], expected[o]);
    r.passed = r.passed && cmp.mismatches == 0;
    r.outputs.push_back(cmp);
  }
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
