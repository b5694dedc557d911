// Mamba-2's chunked scan (examples/mamba2) on the reference interpreter: each kernel matches
// its step of the chunked algorithm; the fused kernel and the three-kernel chain (chunk
// states, state passing, chunk scan) both equal the sequential recurrence h_t = exp(A_t)
// h_{t-1} + B_t x_t^T, y_t = C_t h_t at lengths 1, 7 (one partial chunk), 64 (one whole chunk)
// and 130 (chunks and a tail), with B and C shared by a group of heads; and the checks catch
// a broken causal mask, a state that is not passed or not decayed, and a missing decay.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "examples/checks/Checks.h"
#include "ir/Parser.h"
#include "ir/tests/TestUtil.h"

namespace examples_mamba2_test {

using namespace tegula;
using namespace tegula::ir;

namespace {

std::string mamba2_file(const std::string& name) {
  return testing::read_example(std::string(TEGULA_SOURCE_DIR) + "/examples/mamba2/" + name);
}

struct Launch {
  Kernel kernel;
  examples::LaunchData data;
};

/// A launch's random inputs; with `decaying`, the log-decays A (every kernel's second
/// parameter) are made negative, in [-0.5, -0.001), as a trained Mamba-2's dt * A are: uniform
/// [-1, 1) values let the state grow by up to e^64 a chunk, which loosens the bounds (they
/// scale with the terms) where decaying states keep them tight.
Result<Launch> prepare(const std::string& text, const std::string& bindings, uint64_t seed, bool decaying = false) {
  TG_ASSIGN_OR_RETURN(Kernel k, parse_and_verify(text, "example"));
  TG_ASSIGN_OR_RETURN(auto b, examples::parse_bindings(bindings));
  TG_ASSIGN_OR_RETURN(examples::LaunchData data, examples::make_launch_data(k, b, seed));
  examples::HostTensor& a = data.tensors[1];
  if (decaying && a.dtype == DType::F32)
    for (int64_t i = 0; i < a.numel(); ++i) store_element(DType::F32, -0.001 - 0.2495 * (a.at(i) + 1), a.bytes.data() + 4 * i);
  return Launch{std::move(k), std::move(data)};
}

Status run(Launch& l) {
  std::vector<Arg> args = examples::interpreter_args(l.kernel, l.data);
  return interpret(l.kernel, args);
}

Result<examples::CheckResult> run_and_check(const std::string& text, const std::string& bindings, uint64_t seed,
                                            bool decaying = false) {
  TG_ASSIGN_OR_RETURN(Launch l, prepare(text, bindings, seed, decaying));
  TG_RETURN_IF_ERROR(run(l));
  return examples::check_outputs(l.kernel, l.data);
}

struct Shape {
  int64_t b, h, g, l;
  std::string heads() const {
    return "B=" + std::to_string(b) + ",H=" + std::to_string(h) + ",L=" + std::to_string(l);
  }
  std::string with_groups() const { return heads() + ",G=" + std::to_string(g); }
  std::string states() const { return ",CN=" + std::to_string((l + 63) / 64 * 128); }
};

const Shape kShapes[] = {{1, 1, 1, 1}, {1, 2, 1, 7}, {2, 1, 1, 64}, {1, 4, 2, 130}};

/// The three kernels in order on mamba2_ssd.tile's inputs, whose sequential direct
/// computation then checks the chain's Y and final state.
Result<examples::CheckResult> chain(const std::string& state_text, const std::string& passing_text,
                                    const std::string& scan_text, const Shape& s, uint64_t seed,
                                    bool decaying = false) {
  TG_ASSIGN_OR_RETURN(Launch whole, prepare(mamba2_file("mamba2_ssd.tile"), s.with_groups(), seed, decaying));
  TG_ASSIGN_OR_RETURN(Launch state, prepare(state_text, s.with_groups() + s.states(), seed));
  for (size_t i : {0, 1, 2}) state.data.tensors[i] = whole.data.tensors[i];  // X, A, Bm
  TG_RETURN_IF_ERROR(run(state));
  TG_ASSIGN_OR_RETURN(Launch passing, prepare(passing_text, s.heads() + s.states(), seed));
  passing.data.tensors[0] = state.data.tensors[3];  // St
  passing.data.tensors[1] = whole.data.tensors[1];  // A
  TG_RETURN_IF_ERROR(run(passing));
  TG_ASSIGN_OR_RETURN(Launch scan, prepare(scan_text, s.with_groups() + s.states(), seed));
  for (size_t i : {0, 1, 2, 3}) scan.data.tensors[i] = whole.data.tensors[i];  // X, A, Bm, Cm
  scan.data.tensors[4] = passing.data.tensors[2];                              // Prev
  TG_RETURN_IF_ERROR(run(scan));
  whole.data.tensors[4] = scan.data.tensors[5];     // Y
  whole.data.tensors[5] = passing.data.tensors[3];  // Fin
  return examples::check_outputs(whole.kernel, whole.data);
}

Result<examples::CheckResult> chain(const Shape& s, uint64_t seed, bool decaying) {
  return chain(mamba2_file("mamba2_chunk_state.tile"), mamba2_file("mamba2_state_passing.tile"),
               mamba2_file("mamba2_chunk_scan.tile"), s, seed, decaying);
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  auto pos = text.find(from);
  REQUIRE_MESSAGE(pos != std::string::npos, from);
  return text.replace(pos, from.size(), to);
}

}  // namespace

TEST_CASE("each Mamba-2 kernel matches its step of the chunked algorithm") {
  for (const Shape& s : kShapes) {
    CAPTURE(s.with_groups());
    const std::pair<const char*, std::string> runs[] = {
        {"mamba2_chunk_state.tile", s.with_groups() + s.states()},
        {"mamba2_state_passing.tile", s.heads() + s.states()},
        {"mamba2_chunk_scan.tile", s.with_groups() + s.states()},
    };
    for (const auto& [file, bindings] : runs)
      for (bool decaying : {false, true}) {
        CAPTURE(file);
        CAPTURE(decaying);
        auto r = run_and_check(mamba2_file(file), bindings, 1, decaying);
        REQUIRE_MESSAGE(r.is_ok(), r.status().str());
        INFO(examples::format_check(*r));
        CHECK(r->passed);
      }
  }
}

TEST_CASE("the fused Mamba-2 kernel and the three-kernel chain equal the sequential recurrence") {
  for (const Shape& s : kShapes)
    for (bool decaying : {false, true}) {
      CAPTURE(s.with_groups());
      CAPTURE(decaying);
      auto fused = run_and_check(mamba2_file("mamba2_ssd.tile"), s.with_groups(), 2, decaying);
      REQUIRE_MESSAGE(fused.is_ok(), fused.status().str());
      INFO(examples::format_check(*fused));
      CHECK(fused->passed);
      auto chained = chain(s, 3, decaying);
      REQUIRE_MESSAGE(chained.is_ok(), chained.status().str());
      INFO(examples::format_check(*chained));
      CHECK(chained->passed);
    }
}

TEST_CASE("the Mamba-2 checks catch a broken causal mask, an unpassed or undecayed state and a missing decay") {
  const Shape two_chunks{1, 2, 1, 70};
  const std::string mask = "select(idx(1) <= idx(0), CB * exp(csc - cs), 0.0)";
  // The decay matrix lets each step see the next one of its chunk.
  const std::string leaky = "select(idx(1) <= idx(0) + 1, CB * exp(csc - cs), 0.0)";
  auto r = run_and_check(replaced(mamba2_file("mamba2_chunk_scan.tile"), mask, leaky), two_chunks.with_groups() + two_chunks.states(), 4);
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  CHECK_FALSE(r->passed);
  r = run_and_check(replaced(mamba2_file("mamba2_ssd.tile"), mask, leaky), two_chunks.with_groups(), 4);
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  CHECK_FALSE(r->passed);

  // State passing that forgets the chunk's decay, or passes nothing: caught by its own check
  // and by the sequential one through the chain.
  for (const char* wrong : {"map S = S + Cur", "map S = Cur + 0.0 * S * exp(s)"}) {
    CAPTURE(wrong);
    std::string passing = replaced(mamba2_file("mamba2_state_passing.tile"), "map S = S * exp(s) + Cur", wrong);
    r = run_and_check(passing, two_chunks.heads() + two_chunks.states(), 5);
    REQUIRE_MESSAGE(r.is_ok(), r.status().str());
    CHECK_FALSE(r->passed);
    r = chain(mamba2_file("mamba2_chunk_state.tile"), passing, mamba2_file("mamba2_chunk_scan.tile"), two_chunks, 5);
    REQUIRE_MESSAGE(r.is_ok(), r.status().str());
    CHECK_FALSE(r->passed);
  }
  r = run_and_check(replaced(mamba2_file("mamba2_ssd.tile"), "map S = S * exp(total) + Sc", "map S = Sc"),
                    two_chunks.with_groups(), 5);
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  CHECK_FALSE(r->passed);

  // Chunk states without the decay to the chunk's end, and outputs from the previous state
  // without the decay from the chunk's start.
  r = run_and_check(replaced(mamba2_file("mamba2_chunk_state.tile"), "exp(total - csc)", "exp(0.0 * csc)"),
                    two_chunks.with_groups() + two_chunks.states(), 6);
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  CHECK_FALSE(r->passed);
  r = run_and_check(replaced(mamba2_file("mamba2_chunk_scan.tile"), "Off * exp(csc)", "Off"),
                    two_chunks.with_groups() + two_chunks.states(), 6);
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  CHECK_FALSE(r->passed);
}

}  // namespace examples_mamba2_test
