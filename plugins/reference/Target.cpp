/// \file
/// The "reference" target description: what the reference device tells the shared lowering
/// about itself. It has no hardware limits worth the name (one "thread" runs a whole block,
/// and shared memory is host memory), no matrix units, and computes every dtype, so the only
/// matrix instruction is the scalar fma: the lowering takes its generic path.
#include "plugins/reference/Reference.h"

namespace tegula::reference {

const char* target_json() {
  return R"json({
  "schema": "tegula.target.v1",
  "name": "reference",
  "version": 1,
  "vendor": "tegula",
  "arch": "reference_interpreter",
  "backend": "cpu",
  "subgroup_width": 1,
  "max_threads_per_block": 1024,
  "shared_memory_per_block": 1073741824,
  "vector_bytes": 8,
  "features": ["f64", "nonsaturating_stores")json" TG_REFERENCE_EXTRA_FEATURES R"json(],
  "dtypes": ["f64", "f32", "tf32", "f16", "bf16", "e4m3", "e5m2", "i8", "u8", "i32", "bool", "e4m3fnuz", "e5m2fnuz", "e2m3", "e3m2", "e2m1", "e8m0", "ue4m3"],
  "notes": [
    "The reference interpreter (ir/Interpreter.h) behind the plugin ABI: float64 arithmetic, every store rounded to its dtype. Its limits are the ones the IR sets, not hardware ones."
  ],
  "matrix_instructions": [
    {
      "id": "fma.scalar",
      "kind": "fma",
      "m": 1,
      "n": 1,
      "k": 1,
      "dtypes": {
        "a": ["f64", "f32", "tf32", "f16", "bf16", "e4m3", "e5m2", "i8", "u8", "i32", "e4m3fnuz", "e5m2fnuz"],
        "b": ["f64", "f32", "tf32", "f16", "bf16", "e4m3", "e5m2", "i8", "u8", "i32", "e4m3fnuz", "e5m2fnuz"],
        "c": ["f32", "f64", "i32"],
        "d": ["f32", "f64", "i32"]
      },
      "locations": {"a": ["registers"], "b": ["registers"], "acc": ["registers"]},
      "scope": "thread",
      "group_threads": 1,
      "issue_threads": 1,
      "majors": {"a": ["k", "mn"], "b": ["k", "mn"]},
      "layouts": {
        "a": {"registers": {"layout": "free"}},
        "b": {"registers": {"layout": "free"}},
        "acc": {"registers": {"layout": "free"}}
      },
      "mnemonic": "fma (float64, in the interpreter)",
      "requires": [],
      "rate": 2
    }
  ]
}
)json";
}

}  // namespace tegula::reference
