// read_lowered(text, target) refuses, with a located error, lowered text that lowering never
// writes: unknown annotations, ill-typed values, forged combinations of plans, plans the
// target cannot run, and kernels lowered for another target or another description of it.
// Each case lowers a real kernel, changes one thing, prints it and reads it back.
#include "ir/lower/Lowered.h"
#include "ir/lower/SharedLayout.h"
#include "ir/lower/tests/LowerCases.h"

namespace lowered_reader_refuses_misuse_test {

using namespace tegula;
using namespace tegula::ir;
using namespace tegula::ir::testing;

namespace {

Kernel lowered(const std::string& example, const std::string& target_name, LowerOptions o = {}) {
  auto r = lower_text(example_text(example), target_name, o);
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  return r->kernel;
}

/// Read `k` back for `target_name`; the refusal's status.
Status read_back(const Kernel& k, const std::string& target_name) {
  TargetDescription t = target(target_name);
  auto r = read_lowered(print_kernel(k), t, "forged.lowered");
  return r.status();
}

/// The refusal says `needle` and is located: at the forged attribute in the lowered text, or
/// at the statement's line in the .tile source (which the lowered text carries, loc=...).
void check_refused(const Status& st, ErrorCode code, const std::string& needle) {
  INFO(st.str());
  REQUIRE_FALSE(st.is_ok());
  CHECK(st.code() == code);
  CHECK(st.str().find(needle) != std::string::npos);
  CHECK((st.loc().file == "forged.lowered" || st.loc().file == "case.tile"));
  CHECK(st.loc().line > 0);
}

/// The gemm example as the runtime lowers it for aligned, divisible shapes: its pipelined
/// loop prefetches A and B (by the tensor copy engine on sm_90a).
Kernel pipelined_gemm(const std::string& target_name) {
  LowerOptions o;
  o.divisibility = {{"M", 16}, {"N", 16}, {"K", 16}};
  o.tensors_aligned = true;
  return lowered("gemm/gemm_bf16.tile", target_name, o);
}

Stmt* first(Block& b, OpKind op) { return const_cast<Stmt*>(first_op(b, op)); }

Stmt* alloc_named(Kernel& k, const std::string& name) {
  for (Stmt& s : k.body.stmts)
    if (s.op == OpKind::Alloc && s.name == name) return &s;
  return nullptr;
}

}  // namespace

TEST_CASE("the lowering's own output is read back for its target") {
  for (const char* t : {"sm_80", "sm_90a", "vulkan_generic", "host_cpu"}) {
    Kernel k = pipelined_gemm(t);
    CHECK_MESSAGE(read_back(k, t).is_ok(), read_back(k, t).str());
  }
}

TEST_CASE("unknown annotations are refused where they stand") {
  Kernel k = lowered("reduce/row_sum.tile", "sm_90a");
  SUBCASE("on the kernel") {
    set_attr(k.attrs, "lower.bogus", AttrValue::of_int(1));
    check_refused(read_back(k, "sm_90a"), ErrorCode::Verify, "unknown kernel annotation 'lower.bogus'");
  }
  SUBCASE("on a statement") {
    set_attr(first(k.body, OpKind::Copy)->attrs, "plan.bogus", AttrValue::of_int(1));
    check_refused(read_back(k, "sm_90a"), ErrorCode::Verify, "'plan.bogus' is no annotation of a copy");
  }
  SUBCASE("a known annotation on the wrong op") {
    set_attr(first(k.body, OpKind::Fill)->attrs, "plan.engine", AttrValue::of_ident("bulk"));
    check_refused(read_back(k, "sm_90a"), ErrorCode::Verify, "'plan.engine' is no annotation of a fill");
  }
  SUBCASE("a shared layout on a fragment") {
    set_attr(alloc_named(k, "acc")->attrs, "layout.swizzle", AttrValue::of_ints({3, 4, 3}));
    check_refused(read_back(k, "sm_90a"), ErrorCode::Verify, "'layout.swizzle' is no annotation of a fragment alloc");
  }
}

TEST_CASE("ill-typed annotations are refused") {
  Kernel k = lowered("reduce/row_sum.tile", "sm_90a");
  SUBCASE("plan.vec not an integer") {
    set_attr(first(k.body, OpKind::Copy)->attrs, "plan.vec", AttrValue::of_ident("wide"));
    check_refused(read_back(k, "sm_90a"), ErrorCode::Verify, "'plan.vec' must be an integer");
  }
  SUBCASE("plan.kind not a kind") {
    set_attr(first(k.body, OpKind::Copy)->attrs, "plan.kind", AttrValue::of_ident("sideways"));
    check_refused(read_back(k, "sm_90a"), ErrorCode::Verify, "'plan.kind' must be free | fragment | opaque");
  }
  SUBCASE("lower.assume with a divisor that is no power of two") {
    set_attr(k.attrs, "lower.assume", AttrValue::of_list({AttrValue::of_list({AttrValue::of_ident("N"), AttrValue::of_int(3)})}));
    check_refused(read_back(k, "sm_90a"), ErrorCode::Verify, "divisor of 'N' must be a power of two");
  }
  SUBCASE("lower.assume naming no shape symbol") {
    set_attr(k.attrs, "lower.assume", AttrValue::of_list({AttrValue::of_list({AttrValue::of_ident("Q"), AttrValue::of_int(4)})}));
    check_refused(read_back(k, "sm_90a"), ErrorCode::Verify, "'lower.assume' names 'Q', which is no shape symbol");
  }
  SUBCASE("lower.assume not a list") {
    set_attr(k.attrs, "lower.assume", AttrValue::of_int(4));
    check_refused(read_back(k, "sm_90a"), ErrorCode::Verify, "'lower.assume' must be a list of [symbol, divisor] pairs");
  }
  SUBCASE("lower.tensor_align no power of two") {
    set_attr(k.attrs, "lower.tensor_align", AttrValue::of_int(12));
    check_refused(read_back(k, "sm_90a"), ErrorCode::Verify, "'lower.tensor_align' must be a power of two");
  }
  SUBCASE("lower.raster past the 32-bit remap") {
    set_attr(k.attrs, "lower.raster", AttrValue::of_int(70000));
    check_refused(read_back(k, "sm_90a"), ErrorCode::Verify, "'lower.raster' must be an integer in 1..65535");
  }
  SUBCASE("plan.inbounds not two lists of bools") {
    set_attr(first(k.body, OpKind::Copy)->attrs, "plan.inbounds", AttrValue::of_list({AttrValue::of_ints({1, 1}), AttrValue::of_list({})}));
    check_refused(read_back(k, "sm_90a"), ErrorCode::Verify, "'plan.inbounds' must be [[source dims], [destination dims]]");
  }
  SUBCASE("plan.inbounds on an op that has no tile to prove") {
    set_attr(first(k.body, OpKind::Fill)->attrs, "plan.inbounds", AttrValue::of_list({AttrValue::of_list({}), AttrValue::of_list({})}));
    check_refused(read_back(k, "sm_90a"), ErrorCode::Verify, "'plan.inbounds' is no annotation of a fill");
  }
  SUBCASE("a reduce xor offset that is not a positive integer") {
    set_attr(first(k.body, OpKind::Reduce)->attrs, "plan.shuffle", AttrValue::of_ints({0}));
    check_refused(read_back(k, "sm_90a"), ErrorCode::Verify, "'plan.shuffle' must be a list of integers");
  }
}

TEST_CASE("forged combinations of plans are refused") {
  SUBCASE("a fragment plan naming a buffer that is no fragment") {
    Kernel k = lowered("reduce/row_sum.tile", "sm_90a");
    set_attr(first(k.body, OpKind::Fill)->attrs, "plan.layout", AttrValue::of_ident("X"));
    check_refused(read_back(k, "sm_90a"), ErrorCode::Verify, "plan.layout names 'X', which is no fragment");
  }
  SUBCASE("an opaque plan on a fragment with a distribution") {
    Kernel k = lowered("reduce/row_sum.tile", "sm_90a");
    set_attr(first(k.body, OpKind::Fill)->attrs, "plan.kind", AttrValue::of_ident("opaque"));
    check_refused(read_back(k, "sm_90a"), ErrorCode::Verify, "which is not opaque");
  }
  SUBCASE("a reduce across subgroups without its scratch") {
    Kernel k = lowered("reduce/row_sum.tile", "sm_90a");
    Stmt* r = first(k.body, OpKind::Reduce);
    set_attr(r->attrs, "plan.cross", AttrValue::of_ints({64}));
    r->attrs.erase(std::remove_if(r->attrs.begin(), r->attrs.end(), [](const Attr& a) { return a.name == "plan.scratch"; }),
                   r->attrs.end());
    check_refused(read_back(k, "sm_90a"), ErrorCode::Verify, "without its scratch buffer");
  }
  SUBCASE("a reduce planned over another thread count") {
    Kernel k = lowered("reduce/row_sum.tile", "sm_90a");
    Stmt* r = first(k.body, OpKind::Reduce);
    Distribution d = *get_distribution(r->attrs, "plan");
    d.threads.push_back(Factor{2, -1, 0});
    set_distribution(r->attrs, "plan", d);
    check_refused(read_back(k, "sm_90a"), ErrorCode::Verify, "a reduce planned over 256 threads; the block has 128");
  }
  SUBCASE("a prefetch naming a statement that is no asynchronous copy") {
    Kernel k = pipelined_gemm("sm_90a");
    Stmt* loop = first(k.body, OpKind::Pipelined);
    REQUIRE(loop);
    REQUIRE(find_attr(loop->attrs, "plan.prefetch"));
    size_t gemm_at = 0;
    while (loop->blocks[0].stmts[gemm_at].op != OpKind::Gemm) ++gemm_at;
    set_attr(loop->attrs, "plan.prefetch", AttrValue::of_ints({int64_t(gemm_at)}));
    check_refused(read_back(k, "sm_90a"), ErrorCode::Verify, "which is not an asynchronous copy");
  }
  SUBCASE("a prefetched copy into a buffer with other stages than its pipeline") {
    Kernel k = pipelined_gemm("sm_90a");
    Stmt* as = alloc_named(k, "As");
    SharedLayout l = *get_shared_layout(as->attrs);
    REQUIRE(l.stages > 1);
    l.stages -= 1;
    set_shared_layout(as->attrs, l);
    check_refused(read_back(k, "sm_90a"), ErrorCode::Verify, "stages (layout.stages), its pipeline");
  }
  SUBCASE("a copy engine on a copy that is not prefetched") {
    Kernel k = pipelined_gemm("sm_90a");
    Stmt& store = k.body.stmts.back();
    REQUIRE(store.op == OpKind::Copy);
    set_attr(store.attrs, "plan.engine", AttrValue::of_ident("bulk"));
    check_refused(read_back(k, "sm_90a"), ErrorCode::Verify, "plan.async and plan.engine go together");
  }
  SUBCASE("a forwarded copy into a tile that is not forwarded") {
    Kernel k = pipelined_gemm("sm_90a");
    Stmt* loop = first(k.body, OpKind::Pipelined);
    Stmt* copy = first(loop->blocks[0], OpKind::Copy);
    loop->attrs.erase(std::remove_if(loop->attrs.begin(), loop->attrs.end(), [](const Attr& a) { return a.name == "plan.prefetch"; }),
                      loop->attrs.end());
    copy->attrs.erase(std::remove_if(copy->attrs.begin(), copy->attrs.end(),
                                     [](const Attr& a) { return a.name == "plan.engine" || a.name == "plan.async"; }),
                      copy->attrs.end());
    set_attr(copy->attrs, "plan.forward", AttrValue::of_ident("a"));
    check_refused(read_back(k, "sm_90a"), ErrorCode::Verify, "which is not forwarded (layout.forwarded)");
  }
  SUBCASE("a parallel loop reading a fragment by index instead of its shared copy") {
    auto r = lower_text("kernel g(X: f32[64], Y: f32[64]) grid(1) threads(64) {\n  alloc f: fragment f32[64]\n  copy X[0], f\n"
                        "  parallel i in 64 {\n    store Y[i] = f[63 - i]\n  }\n}\n",
                        "sm_90a");
    REQUIRE_MESSAGE(r.is_ok(), r.status().str());
    Stmt* store = first(first(r->kernel.body, OpKind::Parallel)->blocks[0], OpKind::Store);
    REQUIRE(store);
    REQUIRE(store->exprs[0]->kind == ExprKind::Load);
    store->exprs[0]->name = "f";
    check_refused(read_back(r->kernel, "sm_90a"), ErrorCode::Verify, "the parallel loop reads fragment 'f' by index");
  }
  SUBCASE("a forwarded tile read by an op that does not load it from its tensor") {
    Kernel k = pipelined_gemm("sm_90a");
    set_attr(alloc_named(k, "As")->attrs, "layout.forwarded", AttrValue::of_bool(true));
    check_refused(read_back(k, "sm_90a"), ErrorCode::Verify, "forwarded tile 'As' (layout.forwarded) is used by an op");
  }
}

TEST_CASE("in-bounds claims that the index ranges do not prove are refused") {
  // Columns: bx in [0, 1], so every tile ends by column 128 (proven); rows: M is symbolic.
  auto r = lower_text("kernel g(X: f32[M, 128], Y: f32[M, 128]) grid(2, ceildiv(M, 16)) threads(128) {\n"
                      "  alloc S: shared f32[16, 64]\n  copy X[by * 16, bx * 64], S\n  copy S, Y[by * 16, bx * 64]\n}\n",
                      "sm_90a");
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  Kernel k = r->kernel;
  std::vector<Stmt*> copies;
  for (Stmt& s : k.body.stmts)
    if (s.op == OpKind::Copy) copies.push_back(&s);
  REQUIRE(copies.size() == 2);
  Stmt *load = copies[0], *store = copies[1];
  REQUIRE(attr_text(*load, "plan.inbounds") == "[[false, true], []]");
  REQUIRE(read_back(k, "sm_90a").is_ok());
  auto claim = [](std::vector<std::vector<bool>> sides) {
    std::vector<AttrValue> v;
    for (const auto& side : sides) {
      std::vector<AttrValue> dims;
      for (bool b : side) dims.push_back(AttrValue::of_bool(b));
      v.push_back(AttrValue::of_list(dims));
    }
    return AttrValue::of_list(v);
  };
  SUBCASE("a dimension the ranges leave open") {
    set_attr(load->attrs, "plan.inbounds", claim({{true, true}, {}}));
    check_refused(read_back(k, "sm_90a"), ErrorCode::Verify, "claims dimension 0 of the source tile of 'X' stays inside the tensor");
  }
  SUBCASE("a claim on a copy lowering proved nothing of") {
    Kernel open = lowered("reduce/row_sum.tile", "sm_90a");
    Stmt* c = first(open.body, OpKind::Copy);
    REQUIRE(attr_text(*c, "plan.inbounds").empty());
    set_attr(c->attrs, "plan.inbounds", claim({{true, true}, {}}));
    check_refused(read_back(open, "sm_90a"), ErrorCode::Verify, "which the index ranges do not prove");
  }
  SUBCASE("another number of dimensions than the tensor's") {
    set_attr(load->attrs, "plan.inbounds", claim({{true}, {}}));
    check_refused(read_back(k, "sm_90a"), ErrorCode::Verify, "plan.inbounds lists 1 dimensions for the source 'X', which has 2");
  }
  SUBCASE("dimensions for a side that is no tensor") {
    set_attr(store->attrs, "plan.inbounds", claim({{true, true}, {false, true}}));
    check_refused(read_back(k, "sm_90a"), ErrorCode::Verify, "plan.inbounds lists dimensions for the source 'S', which is no tensor");
  }
}

TEST_CASE("plans the target cannot run are refused") {
  // sm_90a's lowering of the gemm uses the tensor copy engine; a description of the same
  // name without the engine (as a forged or stale one would say) cannot run it.
  Kernel k = pipelined_gemm("sm_90a");
  TargetDescription t = target("sm_90a");
  SUBCASE("a copy engine it lacks") {
    std::string hash = target_hash(t);
    std::erase(t.features, Feature::BulkTensorCopy);
    auto r = read_lowered(print_kernel(k), t, hash, "forged.lowered");
    check_refused(r.status(), ErrorCode::Verify, "plan.engine=bulk, but target 'sm_90a' has no tensor copy engine");
  }
  SUBCASE("an instruction it lacks") {
    Stmt* gemm = first(k.body, OpKind::Gemm);
    set_attr(gemm->attrs, "mma.inst", AttrValue::of_string("mma_sync.m99n8k16.bf16_f32"));
    check_refused(read_back(k, "sm_90a"), ErrorCode::Verify, "mma.inst 'mma_sync.m99n8k16.bf16_f32' is no instruction of target 'sm_90a'");
  }
}

TEST_CASE("a kernel lowered for another target or description is refused") {
  Kernel k = lowered("reduce/row_sum.tile", "sm_90a");
  SUBCASE("another target") {
    Status st = read_back(k, "sm_80");
    REQUIRE_FALSE(st.is_ok());
    CHECK(st.code() == ErrorCode::InvalidArgument);
    CHECK(st.str().find("was lowered for 'sm_90a', not for 'sm_80'") != std::string::npos);
  }
  SUBCASE("another description of the same target") {
    set_attr(k.attrs, "lower.target_hash", AttrValue::of_string(std::string(64, '0')));
    Status st = read_back(k, "sm_90a");
    REQUIRE_FALSE(st.is_ok());
    CHECK(st.code() == ErrorCode::InvalidArgument);
    CHECK(st.str().find("was lowered for another description of 'sm_90a'") != std::string::npos);
  }
  SUBCASE("no hash") {
    k.attrs.erase(std::remove_if(k.attrs.begin(), k.attrs.end(), [](const Attr& a) { return a.name == "lower.target_hash"; }),
                  k.attrs.end());
    Status st = read_back(k, "sm_90a");
    REQUIRE_FALSE(st.is_ok());
    CHECK(st.str().find("another description of 'sm_90a'") != std::string::npos);
  }
  SUBCASE("not lowered") {
    Kernel plain = *parse_and_verify(example_text("reduce/row_sum.tile"), "case.tile");
    Status st = read_back(plain, "sm_90a");
    REQUIRE_FALSE(st.is_ok());
    CHECK(st.str().find("is not lowered (no lower.target)") != std::string::npos);
  }
}

TEST_CASE("a refusal about a statement names its line in the .tile source") {
  // The printer writes each statement's source location into the lowered text (loc=...) and
  // the reader restores it, so errors about lowered statements point at what the user wrote.
  Kernel k = lowered("reduce/row_sum.tile", "sm_90a");
  std::string text = print_kernel(k);
  CHECK(text.find("loc=\"case.tile:") != std::string::npos);
  Stmt* fill = first(k.body, OpKind::Fill);
  REQUIRE(fill->loc.file == "case.tile");
  int fill_line = fill->loc.line;
  set_attr(fill->attrs, "plan.layout", AttrValue::of_ident("X"));
  Status st = read_back(k, "sm_90a");
  REQUIRE_FALSE(st.is_ok());
  CHECK(st.loc().file == "case.tile");
  CHECK(st.loc().line == fill_line);
  // row_sum.tile: the fill is on line 5 of the example.
  CHECK(fill_line == 5);
}

TEST_CASE("a malformed loc is a parse error") {
  Kernel k = lowered("reduce/row_sum.tile", "sm_90a");
  std::string text = print_kernel(k);
  size_t at = text.find("loc=\"case.tile:");
  REQUIRE(at != std::string::npos);
  text.replace(at, 15, "loc=\"case.tile:x");
  auto r = read_lowered(text, target("sm_90a"), "forged.lowered");
  REQUIRE_FALSE(r.is_ok());
  CHECK(r.status().code() == ErrorCode::Parse);
  CHECK(r.status().message().find("loc must be") != std::string::npos);
}

}  // namespace lowered_reader_refuses_misuse_test
