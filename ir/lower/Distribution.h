/// \file
/// Distributions: how the elements of a tile, or the iterations of a parallel loop, are
/// spread over the threads of a block and the values (registers) of each thread.
///
/// A distribution is a list of thread factors and a list of value factors. The thread index
/// is mixed-radix over the thread factors (the first factor varies fastest), the value index
/// likewise over the value factors, and each factor moves one coordinate:
///
///   coord[d] = sum over factors f with f.dim == d of (digit_f * f.stride)
///
/// A factor with dim -1 replicates: the threads (or values) it spans hold the same elements.
/// Every matrix-instruction fragment layout in the target descriptions has this form (each
/// CuTe stride moves one dimension), so instruction layouts, free layouts and loop mappings
/// share one representation, one printer and one coverage check.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "core/Status.h"
#include "ir/IR.h"

namespace tegula::ir {

struct Factor {
  int64_t size = 1;
  int dim = -1;  ///< the coordinate it moves, or -1 to replicate
  int64_t stride = 0;
  bool operator==(const Factor&) const = default;
};

struct Distribution {
  std::vector<Factor> threads;
  std::vector<Factor> values;

  int64_t thread_count() const;
  int64_t value_count() const;
  /// The coordinates (one per dimension of a rank-`rank` tile) of thread t's value v.
  std::vector<int64_t> coords(int64_t t, int64_t v, int rank) const;
  /// The smallest shape containing every coordinate (the span; may exceed the tile: padding).
  std::vector<int64_t> span(int rank) const;
  /// The number of contiguous elements along the last dimension that each value group holds:
  /// the size of the leading value factor if it moves the last dimension with stride 1.
  int64_t vector_width(int rank) const;
  bool operator==(const Distribution&) const = default;
};

/// Attributes `<prefix>.threads` and `<prefix>.values`, each a list of [size, dim, stride].
void set_distribution(std::vector<Attr>& attrs, const std::string& prefix, const Distribution& d);
/// Read them back; NotFound when absent, Verify when malformed.
Result<Distribution> get_distribution(const std::vector<Attr>& attrs, const std::string& prefix);
std::string distribution_str(const Distribution& d);

/// Every element of `shape` is held by exactly one (thread, value) pair, up to replication;
/// coordinates past `shape` (padding) are allowed only when `allow_padding`. The error names
/// the first element missing or held twice.
Status check_coverage(const Distribution& d, const std::vector<int64_t>& shape, bool allow_padding);

/// A distribution for a tile nobody constrains: each thread takes `vec` contiguous elements
/// of the last dimension, consecutive threads take consecutive groups (coalesced), and what
/// is left repeats as more values per thread; leftover threads replicate.
Distribution free_distribution(const std::vector<int64_t>& shape, int64_t threads, int64_t vec);

/// The distribution of a tile reduced along `axis` (to size 1 when `keep_dim`, else
/// removed): factors of that axis become replication (threads) or disappear (values).
Distribution reduced_distribution(const Distribution& d, int axis, bool keep_dim);

/// For every thread, the set of element coordinates it holds.
std::vector<std::set<std::vector<int64_t>>> ownership(const Distribution& d, int rank);

/// Whether every element `exec` gives a thread (within `exec_shape`, broadcast along the
/// size-1 dimensions of `op_shape`) is held by that same thread in `op`: an op executed
/// under `exec` can read `op` from registers.
bool holds_needed(const Distribution& exec, const std::vector<int64_t>& exec_shape, const Distribution& op,
                  const std::vector<int64_t>& op_shape);

}  // namespace tegula::ir
