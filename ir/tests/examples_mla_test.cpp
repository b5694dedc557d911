// The MLA decode kernels (examples/mla) on the reference interpreter: the flash-decoding pair
// (split, then combine) gives mla_decode's direct computation of the final output, the paged
// split reads its pages through the block table, and the checks catch kernels that drop the
// rotary part, ignore the table or weigh the splits equally.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "examples/checks/Checks.h"
#include "ir/Parser.h"
#include "ir/tests/TestUtil.h"

namespace examples_mla_test {

using namespace tegula;
using namespace tegula::ir;

namespace {

std::string mla_file(const std::string& name) {
  return testing::read_example(std::string(TEGULA_SOURCE_DIR) + "/examples/mla/" + name);
}

struct Launch {
  Kernel kernel;
  examples::LaunchData data;
};

Result<Launch> prepare(const std::string& text, const std::string& bindings, uint64_t seed) {
  TG_ASSIGN_OR_RETURN(Kernel k, parse_and_verify(text, "example"));
  TG_ASSIGN_OR_RETURN(auto b, examples::parse_bindings(bindings));
  TG_ASSIGN_OR_RETURN(examples::LaunchData data, examples::make_launch_data(k, b, seed));
  return Launch{std::move(k), std::move(data)};
}

Status run(Launch& l) {
  std::vector<Arg> args = examples::interpreter_args(l.kernel, l.data);
  return interpret(l.kernel, args);
}

/// Runs mla_decode_split then mla_combine on the inputs of mla_decode.tile's launch (Q, KV,
/// scale) and checks the combine's O and LSE against mla_decode's direct computation.
Result<examples::CheckResult> split_then_combine(const std::string& split_text, const std::string& heads,
                                                 int64_t length, int64_t splits, uint64_t seed) {
  const std::string with_splits = heads + ",NS=" + std::to_string(splits), l = ",L=" + std::to_string(length);
  TG_ASSIGN_OR_RETURN(Launch whole, prepare(mla_file("mla_decode.tile"), heads + l, seed));
  TG_ASSIGN_OR_RETURN(Launch split, prepare(split_text, with_splits + l, seed));
  split.data.tensors[0] = whole.data.tensors[0];  // Q
  split.data.tensors[1] = whole.data.tensors[1];  // KV
  split.data.scalars[4] = whole.data.scalars[4];  // scale
  TG_RETURN_IF_ERROR(run(split));
  TG_ASSIGN_OR_RETURN(Launch combine, prepare(mla_file("mla_combine.tile"), with_splits, seed));
  combine.data.tensors[0] = split.data.tensors[2];  // Op
  combine.data.tensors[1] = split.data.tensors[3];  // Lp
  TG_RETURN_IF_ERROR(run(combine));
  whole.data.tensors[2] = combine.data.tensors[2];  // O
  whole.data.tensors[3] = combine.data.tensors[3];  // LSE
  return examples::check_outputs(whole.kernel, whole.data);
}

void set_i32(examples::HostTensor& t, const std::vector<int32_t>& values) {
  REQUIRE(t.numel() == int64_t(values.size()));
  for (size_t i = 0; i < values.size(); ++i) store_element(DType::I32, values[i], t.bytes.data() + 4 * i);
}

/// The paged split over 5 pages: sequence 0 has 130 keys on pages 4, 0, 2; sequence 1 has
/// `second` keys on pages 3 and 1 (table entries past a sequence's pages are never read).
Result<examples::CheckResult> paged(const std::string& text, int32_t second, int64_t splits) {
  TG_ASSIGN_OR_RETURN(Launch l, prepare(text, "B=2,H=5,NP=5,MP=3,NS=" + std::to_string(splits), 7));
  set_i32(l.data.tensors[2], {4, 0, 2, 3, 1, -1});
  set_i32(l.data.tensors[3], {130, second});
  TG_RETURN_IF_ERROR(run(l));
  return examples::check_outputs(l.kernel, l.data);
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  auto pos = text.find(from);
  REQUIRE_MESSAGE(pos != std::string::npos, from);
  return text.replace(pos, from.size(), to);
}

}  // namespace

TEST_CASE("MLA decode split and combine give the one-pass result (L = 1, 7, 130; empty splits)") {
  struct Case {
    const char* heads;
    int64_t length, splits;
  };
  const Case cases[] = {{"B=1,H=4", 1, 2}, {"B=2,H=16", 7, 3}, {"B=1,H=5", 130, 2}, {"B=2,H=4", 130, 4}};
  for (const Case& c : cases) {
    CAPTURE(c.heads);
    CAPTURE(c.length);
    CAPTURE(c.splits);
    auto r = split_then_combine(mla_file("mla_decode_split.tile"), c.heads, c.length, c.splits, 1);
    REQUIRE_MESSAGE(r.is_ok(), r.status().str());
    INFO(examples::format_check(*r));
    CHECK(r->passed);
  }
}

TEST_CASE("MLA paged split reads its pages through the block table (a tail page, a short and an empty sequence)") {
  for (int32_t second : {70, 1, 0}) {
    CAPTURE(second);
    auto r = paged(mla_file("mla_decode_paged_split.tile"), second, 2);
    REQUIRE_MESSAGE(r.is_ok(), r.status().str());
    INFO(examples::format_check(*r));
    CHECK(r->passed);
  }
}

TEST_CASE("the MLA checks catch a missing rotary part, an ignored block table and unweighted splits") {
  std::string no_rope =
      replaced(mla_file("mla_decode_split.tile"), "gemm Qr, Kr, Sc, trans_b=true, accumulate=true", "");
  auto r = split_then_combine(no_rope, "B=1,H=4", 70, 2, 2);
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  CHECK_FALSE(r->passed);

  std::string no_table =
      replaced(mla_file("mla_decode_paged_split.tile"), "copy KV[T[bz, j], 0, 0], Kc", "copy KV[j, 0, 0], Kc");
  r = paged(no_table, 70, 2);
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  CHECK_FALSE(r->passed);

  std::string unweighted = replaced(mla_file("mla_combine.tile"), "map w = exp2(ls - m_new)", "map w = 1.0 + 0.0 * ls");
  auto l = prepare(unweighted, "B=1,H=3,NS=2", 3);
  REQUIRE_MESSAGE(l.is_ok(), l.status().str());
  REQUIRE(run(*l).is_ok());
  r = examples::check_outputs(l->kernel, l->data);
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  CHECK_FALSE(r->passed);
}

}  // namespace examples_mla_test
