/// \file
/// A small valid description for tests to mutate: one mma.sync entry with register
/// layouts, one wgmma entry with an N range, and the fma fallback.
#pragma once

#include <string>

#include <doctest/doctest.h>

namespace tegula::test {

inline const char* kSmallTarget = R"json({
  "schema": "tegula.target.v1",
  "name": "small",
  "version": 1,
  "vendor": "nvidia",
  "arch": "hopper",
  "backend": "cuda",
  "subgroup_width": 32,
  "max_threads_per_block": 1024,
  "shared_memory_per_block": 232448,
  "shared_memory_banks": {"count": 32, "width_bytes": 4},
  "vector_bytes": 16,
  "peak": {"tflops": {"bf16": 989}, "memory_gbps": 4800},
  "features": ["mma_sync", "wgmma", "bf16"],
  "dtypes": ["f32", "bf16"],
  "matrix_instructions": [
    {
      "id": "mma_sync.m16n8k16.bf16_f32",
      "kind": "mma_sync",
      "m": 16, "n": 8, "k": 16,
      "dtypes": {"a": "bf16", "b": "bf16", "c": "f32", "d": "f32"},
      "locations": {"a": ["registers"], "b": ["registers"], "acc": ["registers"]},
      "scope": "warp", "group_threads": 32, "issue_threads": 32,
      "majors": {"a": ["k"], "b": ["k"]},
      "layouts": {
        "a": {"registers": {"layout": "((4,8),(2,2,2)):((32,1),(16,8,128))"}},
        "b": {"registers": {"layout": "((4,8),(2,2)):((16,1),(8,64))"}},
        "acc": {"registers": {"layout": "((4,8),(2,2)):((32,1),(16,8))"}}
      },
      "mnemonic": "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32",
      "requires": ["mma_sync", "bf16"],
      "rate": 512
    },
    {
      "id": "wgmma.m64nNk16.bf16_f32",
      "kind": "wgmma",
      "m": 64, "n": {"min": 8, "max": 256, "step": 8}, "k": 16,
      "dtypes": {"a": "bf16", "b": "bf16", "c": "f32", "d": "f32"},
      "locations": {"a": ["registers", "shared"], "b": ["shared"], "acc": ["registers"]},
      "scope": "warpgroup", "group_threads": 128, "issue_threads": 128,
      "majors": {"a": ["k", "mn"], "b": ["k", "mn"]},
      "layouts": {
        "a": {"registers": {"layout": "((4,8,4),(2,2,2)):((128,1,16),(64,8,512))"},
              "shared": {"layout": "opaque", "swizzles": ["none", "128B"], "alignment_bytes": 16}},
        "b": {"shared": {"layout": "opaque", "swizzles": ["none", "128B"], "alignment_bytes": 16}},
        "acc": {"registers": {"layout": "((4,8,4),(2,2,N/8)):((128,1,16),(64,8,512))"}}
      },
      "mnemonic": "wgmma.mma_async.sync.aligned.m64nNk16.f32.bf16.bf16",
      "requires": ["wgmma", "bf16"],
      "rate": 4096
    },
    {
      "id": "fma.scalar",
      "kind": "fma",
      "m": 1, "n": 1, "k": 1,
      "dtypes": {"a": ["f32", "bf16"], "b": ["f32", "bf16"], "c": "f32", "d": "f32"},
      "locations": {"a": ["registers"], "b": ["registers"], "acc": ["registers"]},
      "scope": "thread", "group_threads": 1, "issue_threads": 1,
      "majors": {"a": ["k", "mn"], "b": ["k", "mn"]},
      "layouts": {
        "a": {"registers": {"layout": "free"}},
        "b": {"registers": {"layout": "free"}},
        "acc": {"registers": {"layout": "free"}}
      },
      "mnemonic": "fma.rn.f32",
      "requires": [],
      "rate": 2
    }
  ]
})json";

/// `text` with the single occurrence of `from` replaced by `to`; fails the test when `from`
/// does not occur exactly once, so a mutation can never silently miss.
inline std::string mutate(const std::string& text, const std::string& from, const std::string& to) {
  size_t at = text.find(from);
  REQUIRE_MESSAGE(at != std::string::npos, "mutation anchor not found: " << from);
  REQUIRE_MESSAGE(text.find(from, at + 1) == std::string::npos, "mutation anchor repeats: " << from);
  return text.substr(0, at) + to + text.substr(at + from.size());
}

}  // namespace tegula::test
