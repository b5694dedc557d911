#include "ir/lower/Distribution.h"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <set>

namespace tegula::ir {

static int64_t product(const std::vector<Factor>& fs) {
  int64_t n = 1;
  for (const Factor& f : fs) n *= f.size;
  return n;
}

int64_t Distribution::thread_count() const { return product(threads); }
int64_t Distribution::value_count() const { return product(values); }

static void add_coords(const std::vector<Factor>& fs, int64_t index, std::vector<int64_t>& c) {
  for (const Factor& f : fs) {
    int64_t digit = index % f.size;
    index /= f.size;
    if (f.dim >= 0 && f.dim < int(c.size())) c[size_t(f.dim)] += digit * f.stride;
  }
}

std::vector<int64_t> Distribution::coords(int64_t t, int64_t v, int rank) const {
  std::vector<int64_t> c(size_t(rank), 0);
  add_coords(threads, t, c);
  add_coords(values, v, c);
  return c;
}

std::vector<int64_t> Distribution::span(int rank) const {
  std::vector<int64_t> s(size_t(rank), 1);
  for (const auto* fs : {&threads, &values})
    for (const Factor& f : *fs)
      if (f.dim >= 0 && f.dim < rank) s[size_t(f.dim)] += (f.size - 1) * f.stride;
  return s;
}

int64_t Distribution::vector_width(int rank) const {
  if (values.empty()) return 1;
  const Factor& f = values.front();
  return (f.dim == rank - 1 && f.stride == 1) ? f.size : 1;
}

static AttrValue factors_attr(const std::vector<Factor>& fs) {
  std::vector<AttrValue> items;
  for (const Factor& f : fs) items.push_back(AttrValue::of_ints({f.size, f.dim, f.stride}));
  return AttrValue::of_list(std::move(items));
}

void set_distribution(std::vector<Attr>& attrs, const std::string& prefix, const Distribution& d) {
  set_attr(attrs, prefix + ".threads", factors_attr(d.threads));
  set_attr(attrs, prefix + ".values", factors_attr(d.values));
}

static Result<std::vector<Factor>> read_factors(const std::vector<Attr>& attrs, const std::string& name) {
  const Attr* a = find_attr(attrs, name);
  if (!a) return error(ErrorCode::NotFound, "no attribute '" + name + "'");
  std::vector<Factor> out;
  if (a->value.kind != AttrValue::Kind::List) return error(ErrorCode::Verify, "'" + name + "' must be a list of [size, dim, stride]", a->loc);
  for (const AttrValue& item : a->value.list) {
    bool ok = item.kind == AttrValue::Kind::List && item.list.size() == 3;
    for (size_t i = 0; ok && i < 3; ++i) ok = item.list[i].kind == AttrValue::Kind::Int;
    if (!ok) return error(ErrorCode::Verify, "'" + name + "' must be a list of [size, dim, stride]", a->loc);
    Factor f{item.list[0].i, int(item.list[1].i), item.list[2].i};
    if (f.size < 1 || f.size > (int64_t(1) << 24) || f.dim < -1 || f.dim > 3 || f.stride < 0)
      return error(ErrorCode::Verify, "bad factor in '" + name + "'", a->loc);
    out.push_back(f);
  }
  return out;
}

Result<Distribution> get_distribution(const std::vector<Attr>& attrs, const std::string& prefix) {
  Distribution d;
  TG_ASSIGN_OR_RETURN(d.threads, read_factors(attrs, prefix + ".threads"));
  TG_ASSIGN_OR_RETURN(d.values, read_factors(attrs, prefix + ".values"));
  return d;
}

std::string distribution_str(const Distribution& d) {
  auto list = [](const std::vector<Factor>& fs) {
    std::string s = "[";
    for (size_t i = 0; i < fs.size(); ++i) {
      if (i) s += ", ";
      s += std::to_string(fs[i].size) + (fs[i].dim < 0 ? std::string(" x rep") : " x d" + std::to_string(fs[i].dim) + "/" + std::to_string(fs[i].stride));
    }
    return s + "]";
  };
  return "threads " + list(d.threads) + ", values " + list(d.values);
}

static std::string coord_str(const std::vector<int64_t>& c) {
  std::string s = "[";
  for (size_t i = 0; i < c.size(); ++i) s += (i ? ", " : "") + std::to_string(c[i]);
  return s + "]";
}

Status check_coverage(const Distribution& d, const std::vector<int64_t>& shape, bool allow_padding) {
  int rank = int(shape.size());
  for (const auto* fs : {&d.threads, &d.values})
    for (const Factor& f : *fs)
      if (f.dim >= rank) return error(ErrorCode::Verify, "a factor moves dimension " + std::to_string(f.dim) + " of a rank-" + std::to_string(rank) + " tile");
  int64_t total = 1;
  for (int64_t s : shape) total *= s;
  // Only the non-replicated digits name distinct slots; walk them.
  Distribution unique;
  for (const Factor& f : d.threads)
    if (f.dim >= 0) unique.threads.push_back(f);
  for (const Factor& f : d.values)
    if (f.dim >= 0) unique.values.push_back(f);
  int64_t slots = unique.thread_count() * unique.value_count();
  if (slots > (int64_t(1) << 26)) return error(ErrorCode::Verify, "distribution too large to check");
  std::vector<uint8_t> seen(size_t(total), 0);
  for (int64_t t = 0; t < unique.thread_count(); ++t) {
    for (int64_t v = 0; v < unique.value_count(); ++v) {
      std::vector<int64_t> c = unique.coords(t, v, rank);
      int64_t linear = 0;
      bool inside = true;
      for (int i = 0; i < rank; ++i) {
        inside = inside && c[size_t(i)] < shape[size_t(i)];
        linear = linear * shape[size_t(i)] + c[size_t(i)];
      }
      if (!inside) {
        if (allow_padding) continue;
        return error(ErrorCode::Verify, "element " + coord_str(c) + " lies outside the tile " + coord_str(shape));
      }
      if (seen[size_t(linear)]++) return error(ErrorCode::Verify, "element " + coord_str(c) + " is held twice");
    }
  }
  for (int64_t i = 0; i < total; ++i) {
    if (seen[size_t(i)]) continue;
    std::vector<int64_t> c(static_cast<size_t>(rank));
    int64_t rest = i;
    for (int d2 = rank - 1; d2 >= 0; --d2) {
      c[size_t(d2)] = rest % shape[size_t(d2)];
      rest /= shape[size_t(d2)];
    }
    return error(ErrorCode::Verify, "element " + coord_str(c) + " is held by no thread");
  }
  return Status::ok();
}

static int64_t largest_pow2_dividing(int64_t n, int64_t cap) {
  int64_t p = 1;
  while (p * 2 <= cap && n % (p * 2) == 0) p *= 2;
  return p;
}

Distribution free_distribution(const std::vector<int64_t>& shape, int64_t threads, int64_t vec) {
  Distribution d;
  int rank = int(shape.size());
  // Each dimension, innermost first: how much of it is still unassigned, and its stride.
  std::vector<int64_t> left(shape.begin(), shape.end()), stride(size_t(rank), 1);
  int last = rank - 1;
  int64_t v = largest_pow2_dividing(left[size_t(last)], std::max<int64_t>(vec, 1));
  if (v > 1) {
    d.values.push_back({v, last, 1});
    left[size_t(last)] /= v;
    stride[size_t(last)] = v;
  }
  int64_t t_left = threads;
  for (int dim = last; dim >= 0 && t_left > 1; --dim) {
    // A power of two that divides both what is left of this dimension and the threads left,
    // so that every thread stays accounted for (96 threads: 32 spread, 3 replicate).
    int64_t t = largest_pow2_dividing(std::gcd(left[size_t(dim)], t_left), t_left);
    if (t <= 1) continue;
    d.threads.push_back({t, dim, stride[size_t(dim)]});
    left[size_t(dim)] /= t;
    stride[size_t(dim)] *= t;
    t_left /= t;
  }
  if (t_left > 1) d.threads.push_back({t_left, -1, 0});
  for (int dim = last; dim >= 0; --dim) {
    if (left[size_t(dim)] <= 1) continue;
    d.values.push_back({left[size_t(dim)], dim, stride[size_t(dim)]});
  }
  return d;
}

Distribution reduced_distribution(const Distribution& d, int axis, bool keep_dim) {
  Distribution out;
  auto rewrite = [&](const Factor& f, bool is_thread) -> std::optional<Factor> {
    if (f.dim == axis) {
      if (is_thread) return Factor{f.size, -1, 0};
      return std::nullopt;
    }
    Factor g = f;
    if (!keep_dim && g.dim > axis) --g.dim;
    return g;
  };
  for (const Factor& f : d.threads)
    if (auto g = rewrite(f, true)) out.threads.push_back(*g);
  for (const Factor& f : d.values)
    if (auto g = rewrite(f, false)) out.values.push_back(*g);
  return out;
}

/// For every thread, the set of elements it holds.
std::vector<std::set<std::vector<int64_t>>> ownership(const Distribution& d, int rank) {
  std::vector<std::set<std::vector<int64_t>>> out(size_t(d.thread_count()));
  for (int64_t t = 0; t < d.thread_count(); ++t)
    for (int64_t v = 0; v < d.value_count(); ++v) out[size_t(t)].insert(d.coords(t, v, rank));
  return out;
}

/// Every element `exec` gives a thread, broadcast to `shape`, is held by that thread in `op`.
bool holds_needed(const Distribution& exec, const std::vector<int64_t>& exec_shape, const Distribution& op,
                  const std::vector<int64_t>& op_shape) {
  if (exec.thread_count() != op.thread_count()) return false;
  int rank = int(exec_shape.size());
  // Shapes align at the trailing axes (a lower-rank operand broadcasts along the leading ones).
  int op_rank = int(op_shape.size());
  if (op_rank > rank) return false;
  size_t lead = size_t(rank - op_rank);
  auto own = ownership(op, op_rank);
  for (int64_t t = 0; t < exec.thread_count(); ++t) {
    for (int64_t v = 0; v < exec.value_count(); ++v) {
      std::vector<int64_t> c = exec.coords(t, v, rank);
      bool inside = true;
      for (int i = 0; i < rank; ++i) inside = inside && c[size_t(i)] < exec_shape[size_t(i)];
      std::vector<int64_t> oc(c.begin() + std::ptrdiff_t(lead), c.end());
      for (int i = 0; i < op_rank; ++i)
        if (op_shape[size_t(i)] == 1) oc[size_t(i)] = 0;
      if (inside && !own[size_t(t)].count(oc)) return false;
    }
  }
  return true;
}

}  // namespace tegula::ir
