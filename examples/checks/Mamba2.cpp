// Direct computations for Mamba-2's chunked scan (examples/mamba2), in float64 from the
// definitions: each step of the chunked algorithm on its own inputs, and the sequential
// recurrence the whole must equal. Layouts are the kernels' (head-major): X, Y [B, H, L, P],
// A [B, H, L] (the log-decay dt * A of each step), Bm, Cm [B, G, L, N] (head h reads group
// h / (H / G)), chunk states stacked as [B, H, ceildiv(L, Q) * N, P], final states [B, H, N, P].
// The kernels round two operands of their gemms to bf16 (B scaled by its decay; (C B^T) o L
// and the state entering a chunk), as mamba_ssm does: each output's magnitude carries that
// rounding over the sum of its absolute terms, in units of the comparison's 2^-18.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "examples/checks/Direct.h"

namespace tegula::examples::detail {
namespace {

constexpr int64_t kChunk = 64;  // the kernels' chunk length Q

/// The decoded inputs and sizes of one launch.
struct Ssd {
  int64_t b = 0, h = 0, l = 0, p = 0, g = 0, n = 0;
  std::vector<double> x, a, bm, cm;

  int64_t chunks() const { return (l + kChunk - 1) / kChunk; }
  int64_t group(int64_t head) const { return head / (h / g); }
  double X(int64_t bi, int64_t hi, int64_t li, int64_t pi) const { return x[size_t(((bi * h + hi) * l + li) * p + pi)]; }
  double A(int64_t bi, int64_t hi, int64_t li) const { return a[size_t((bi * h + hi) * l + li)]; }
  double Bv(int64_t bi, int64_t hi, int64_t li, int64_t ni) const {
    return bm[size_t(((bi * g + group(hi)) * l + li) * n + ni)];
  }
  double Cv(int64_t bi, int64_t hi, int64_t li, int64_t ni) const {
    return cm[size_t(((bi * g + group(hi)) * l + li) * n + ni)];
  }
  /// Inclusive running sum of A over the chunk of step li, from the chunk's first step.
  double cs(int64_t bi, int64_t hi, int64_t li) const {
    double s = 0;
    for (int64_t k = li / kChunk * kChunk; k <= li; ++k) s += A(bi, hi, k);
    return s;
  }
  /// Sum of A over chunk c (its valid steps).
  double chunk_sum(int64_t bi, int64_t hi, int64_t c) const {
    int64_t last = std::min(l, (c + 1) * kChunk) - 1;
    return cs(bi, hi, last);
  }
};

bool rank(const HostTensor* t, size_t r) { return t->shape.size() == r; }

/// X [B,H,L,P], A [B,H,L], and (if `with_b`, `with_c`) Bm / Cm [B,G,L,N] with G dividing H.
Result<Ssd> decode(const HostTensor* x, const HostTensor* a, const HostTensor* bm, const HostTensor* cm,
                   const std::string& what) {
  bool ok = rank(x, 4) && rank(a, 3) && a->shape[0] == x->shape[0] && a->shape[1] == x->shape[1] &&
            a->shape[2] == x->shape[2];
  for (const HostTensor* t : {bm, cm})
    ok = ok && (!t || (rank(t, 4) && t->shape[0] == x->shape[0] && t->shape[1] > 0 &&
                       x->shape[1] % t->shape[1] == 0 && t->shape[2] == x->shape[2]));
  ok = ok && (!bm || !cm || bm->shape == cm->shape);
  TG_RETURN_IF_ERROR(want_shape(ok, what));
  Ssd s;
  s.b = x->shape[0], s.h = x->shape[1], s.l = x->shape[2], s.p = x->shape[3];
  s.x = x->values(), s.a = a->values();
  const HostTensor* groups = bm ? bm : cm;
  if (groups) s.g = groups->shape[1], s.n = groups->shape[3];
  if (bm) s.bm = bm->values();
  if (cm) s.cm = cm->values();
  return s;
}

double bf16_round() { return 2 * unit_roundoff(DType::BF16) * 0x1p18; }

}  // namespace

/// mamba2_chunk_state (X, A, Bm, St [B,H,NC*N,P]): St[c*N + n, p] = sum over the chunk's steps l
/// of exp(cs[last] - cs[l]) Bm[l, n] X[l, p].
Result<std::vector<Expected>> mamba2_chunk_state(const Tensors& t, const Scalars&) {
  const char* what = "mamba2_chunk_state (X[B,H,L,P], A[B,H,L], Bm[B,G,L,N], St[B,H,ceildiv(L,64)*N,P])";
  TG_RETURN_IF_ERROR(want_shape(t.size() == 4, what));
  TG_ASSIGN_OR_RETURN(Ssd s, decode(t[0], t[1], t[2], nullptr, what));
  TG_RETURN_IF_ERROR(want_shape(t[3]->shape == std::vector<int64_t>{s.b, s.h, s.chunks() * s.n, s.p}, what));
  Expected e;
  for (int64_t bi = 0; bi < s.b; ++bi)
    for (int64_t hi = 0; hi < s.h; ++hi)
      for (int64_t c = 0; c < s.chunks(); ++c) {
        int64_t l0 = c * kChunk, l1 = std::min(s.l, l0 + kChunk);
        double total = s.chunk_sum(bi, hi, c);
        std::vector<double> decay;
        for (int64_t li = l0; li < l1; ++li) decay.push_back(std::exp(total - s.cs(bi, hi, li)));
        for (int64_t ni = 0; ni < s.n; ++ni)
          for (int64_t pi = 0; pi < s.p; ++pi) {
            double acc = 0, mag = 0;
            for (int64_t li = l0; li < l1; ++li) {
              double term = decay[size_t(li - l0)] * s.Bv(bi, hi, li, ni) * s.X(bi, hi, li, pi);
              acc += term;
              mag += std::fabs(term);
            }
            e.value.push_back(acc);
            e.magnitude.push_back(bf16_round() * mag + std::fabs(acc));
          }
      }
  return std::vector<Expected>{std::move(e)};
}

/// mamba2_state_passing (St, A, Prev [B,H,NC*N,P], Fin [B,H,N,P]): Prev[c] = S_{c-1} with
/// S_{-1} = 0 and S_c = exp(sum of A over chunk c) S_{c-1} + St[c]; Fin = S_{NC-1}. The kernel
/// is f32 throughout: a term's bound grows with the decays' f32 sums it went through.
Result<std::vector<Expected>> mamba2_state_passing(const Tensors& t, const Scalars&) {
  const char* what = "mamba2_state_passing (St[B,H,ceildiv(L,64)*N,P], A[B,H,L], Prev of St's shape, Fin[B,H,N,P])";
  bool ok = t.size() == 4 && rank(t[0], 4) && rank(t[1], 3) && rank(t[3], 4) && t[2]->shape == t[0]->shape &&
            t[1]->shape[0] == t[0]->shape[0] && t[1]->shape[1] == t[0]->shape[1] && t[3]->shape[0] == t[0]->shape[0] &&
            t[3]->shape[1] == t[0]->shape[1] && t[3]->shape[3] == t[0]->shape[3] && t[3]->shape[2] > 0;
  TG_RETURN_IF_ERROR(want_shape(ok, what));
  int64_t b = t[0]->shape[0], h = t[0]->shape[1], rows = t[0]->shape[2], p = t[0]->shape[3], n = t[3]->shape[2];
  int64_t l = t[1]->shape[2], chunks = (l + kChunk - 1) / kChunk;
  TG_RETURN_IF_ERROR(want_shape(rows == chunks * n, what));
  std::vector<double> st = t[0]->values(), a = t[1]->values();
  Expected prev, fin;
  prev.value.assign(st.size(), 0);
  prev.magnitude.assign(st.size(), 0);
  for (int64_t bi = 0; bi < b; ++bi)
    for (int64_t hi = 0; hi < h; ++hi) {
      std::vector<double> sum(size_t(chunks), 0), abs_sum(size_t(chunks), 0);
      for (int64_t li = 0; li < l; ++li) {
        sum[size_t(li / kChunk)] += a[size_t((bi * h + hi) * l + li)];
        abs_sum[size_t(li / kChunk)] += std::fabs(a[size_t((bi * h + hi) * l + li)]);
      }
      // Per element: the state, the sum of its absolute terms (decayed), and that sum with each
      // term weighted by 1 + the |A| its decays summed: exp of an f32 sum of 64 steps is off by
      // about 2^-18 of the sum of their |A|, relatively, and these errors add up over chunks.
      std::vector<double> s(size_t(n * p), 0), abs_s(size_t(n * p), 0), mag(size_t(n * p), 0);
      for (int64_t c = 0; c <= chunks; ++c) {
        for (int64_t i = 0; i < n * p; ++i) {
          size_t at = size_t(((bi * h + hi) * rows + c * n) * p + i);
          if (c == chunks) {
            fin.value.push_back(s[size_t(i)]);
            fin.magnitude.push_back(16 * mag[size_t(i)]);
            continue;
          }
          prev.value[at] = s[size_t(i)];
          prev.magnitude[at] = 16 * mag[size_t(i)];
          double decay = std::exp(sum[size_t(c)]);
          s[size_t(i)] = decay * s[size_t(i)] + st[at];
          mag[size_t(i)] = decay * (mag[size_t(i)] + abs_sum[size_t(c)] * abs_s[size_t(i)]) + std::fabs(st[at]);
          abs_s[size_t(i)] = decay * abs_s[size_t(i)] + std::fabs(st[at]);
        }
      }
    }
  return std::vector<Expected>{std::move(prev), std::move(fin)};
}

/// mamba2_chunk_scan (X, A, Bm, Cm, Prev [B,H,NC*N,P], Y [B,H,L,P]): Y[l] = sum over the chunk's
/// steps j <= l of (C[l] . B[j]) exp(cs[l] - cs[j]) X[j], plus exp(cs[l]) C[l] . Prev[chunk of l].
Result<std::vector<Expected>> mamba2_chunk_scan(const Tensors& t, const Scalars&) {
  const char* what =
      "mamba2_chunk_scan (X[B,H,L,P], A[B,H,L], Bm, Cm[B,G,L,N], Prev[B,H,ceildiv(L,64)*N,P], Y of X's shape)";
  TG_RETURN_IF_ERROR(want_shape(t.size() == 6, what));
  TG_ASSIGN_OR_RETURN(Ssd s, decode(t[0], t[1], t[2], t[3], what));
  TG_RETURN_IF_ERROR(
      want_shape(t[4]->shape == std::vector<int64_t>{s.b, s.h, s.chunks() * s.n, s.p} && t[5]->shape == t[0]->shape, what));
  std::vector<double> prev = t[4]->values();
  Expected y;
  for (int64_t bi = 0; bi < s.b; ++bi)
    for (int64_t hi = 0; hi < s.h; ++hi)
      for (int64_t li = 0; li < s.l; ++li) {
        int64_t c = li / kChunk;
        double cs_l = s.cs(bi, hi, li);
        std::vector<double> cb, cb_abs, decay;  // per step j of the chunk up to l
        for (int64_t j = c * kChunk; j <= li; ++j) {
          double dot = 0, dot_abs = 0;
          for (int64_t ni = 0; ni < s.n; ++ni) {
            dot += s.Cv(bi, hi, li, ni) * s.Bv(bi, hi, j, ni);
            dot_abs += std::fabs(s.Cv(bi, hi, li, ni) * s.Bv(bi, hi, j, ni));
          }
          cb.push_back(dot), cb_abs.push_back(dot_abs), decay.push_back(std::exp(cs_l - s.cs(bi, hi, j)));
        }
        for (int64_t pi = 0; pi < s.p; ++pi) {
          double acc = 0, mag = 0;
          for (size_t j = 0; j < cb.size(); ++j) {
            double xj = s.X(bi, hi, c * kChunk + int64_t(j), pi);
            acc += cb[j] * decay[j] * xj;
            mag += cb_abs[j] * decay[j] * std::fabs(xj);
          }
          for (int64_t ni = 0; ni < s.n; ++ni) {
            double term = std::exp(cs_l) * s.Cv(bi, hi, li, ni) * prev[size_t(((bi * s.h + hi) * s.chunks() * s.n + c * s.n + ni) * s.p + pi)];
            acc += term;
            mag += std::fabs(term);
          }
          y.value.push_back(acc);
          y.magnitude.push_back(bf16_round() * mag + std::fabs(acc));
        }
      }
  return std::vector<Expected>{std::move(y)};
}

/// mamba2_ssd (X, A, Bm, Cm, Y [B,H,L,P], Fin [B,H,N,P]): the sequential recurrence, step by
/// step, with no chunks: h_t = exp(A_t) h_{t-1} + B_t X_t^T (h [N, P], h_{-1} = 0),
/// Y_t = C_t h_t, Fin = h_{L-1}. The bound runs the same recurrence on absolute values.
Result<std::vector<Expected>> mamba2_ssd(const Tensors& t, const Scalars&) {
  const char* what = "mamba2_ssd (X[B,H,L,P], A[B,H,L], Bm, Cm[B,G,L,N], Y of X's shape, Fin[B,H,N,P])";
  TG_RETURN_IF_ERROR(want_shape(t.size() == 6, what));
  TG_ASSIGN_OR_RETURN(Ssd s, decode(t[0], t[1], t[2], t[3], what));
  TG_RETURN_IF_ERROR(
      want_shape(t[4]->shape == t[0]->shape && t[5]->shape == std::vector<int64_t>{s.b, s.h, s.n, s.p}, what));
  Expected y, fin;
  y.value.assign(s.x.size(), 0);
  y.magnitude.assign(s.x.size(), 0);
  for (int64_t bi = 0; bi < s.b; ++bi)
    for (int64_t hi = 0; hi < s.h; ++hi) {
      std::vector<double> st(size_t(s.n * s.p), 0), st_abs(size_t(s.n * s.p), 0);
      for (int64_t li = 0; li < s.l; ++li) {
        double decay = std::exp(s.A(bi, hi, li));
        for (int64_t ni = 0; ni < s.n; ++ni)
          for (int64_t pi = 0; pi < s.p; ++pi) {
            size_t at = size_t(ni * s.p + pi);
            double bx = s.Bv(bi, hi, li, ni) * s.X(bi, hi, li, pi);
            st[at] = decay * st[at] + bx;
            st_abs[at] = decay * st_abs[at] + std::fabs(bx);
          }
        for (int64_t pi = 0; pi < s.p; ++pi) {
          double acc = 0, mag = 0;
          for (int64_t ni = 0; ni < s.n; ++ni) {
            acc += s.Cv(bi, hi, li, ni) * st[size_t(ni * s.p + pi)];
            mag += std::fabs(s.Cv(bi, hi, li, ni)) * st_abs[size_t(ni * s.p + pi)];
          }
          size_t at = size_t(((bi * s.h + hi) * s.l + li) * s.p + pi);
          y.value[at] = acc;
          y.magnitude[at] = bf16_round() * mag + std::fabs(acc);
        }
      }
      for (size_t i = 0; i < st.size(); ++i) {
        fin.value.push_back(st[i]);
        fin.magnitude.push_back(bf16_round() * st_abs[i] + std::fabs(st[i]));
      }
    }
  return std::vector<Expected>{std::move(y), std::move(fin)};
}

}  // namespace tegula::examples::detail
