// Bad specs are refused with a clear message located at the column in the spec string
// ("spec:1:COLUMN"), never a kernel that means something else.
#include <string>

#include "ir/spec/tests/SpecRun.h"

namespace spec_misuse_test {

using namespace tegula;
using namespace tegula::ir;

namespace {

// The error for `spec` with `dtypes`; checks its location and that it mentions `words`.
void refused(const std::string& spec, const std::string& dtypes, int column, const std::string& words) {
  CAPTURE(spec);
  SpecOptions options;
  auto parsed = parse_spec_dtypes(dtypes);
  REQUIRE_MESSAGE(parsed.is_ok(), parsed.status().str());
  options.dtypes = *parsed;
  auto text = kernel_from_spec(spec, options);
  REQUIRE_FALSE(text.is_ok());
  std::string msg = text.status().str();
  CAPTURE(msg);
  CHECK(text.status().code() == ErrorCode::InvalidArgument);
  CHECK(msg.rfind("spec:1:" + std::to_string(column) + ": error: ", 0) == 0);
  CHECK(msg.find(words) != std::string::npos);
}

const char* kAB = "A=bf16,B=bf16,C=bf16";

}  // namespace

TEST_CASE("an unknown tensor in --dtypes, and a tensor without a dtype") {
  refused("C[m,n] = A[m,k] * B[k,n]", "A=bf16,B=bf16,C=bf16,D=f32", 1, "unknown tensor 'D' in --dtypes");
  refused("C[m,n] = A[m,k] * B[k,n]", "A=bf16,C=bf16", 19, "no dtype for tensor 'B'");
}

TEST_CASE("an output index that appears in no input") {
  refused("C[m,p] = A[m,k] * B[k,n]", kAB, 5, "index 'p' of the output appears in no input");
}

TEST_CASE("a reduction index on the output") {
  refused("Y[m,n] = sum(X[m,n])", "X=f16,Y=f32", 5, "index 'n' is reduced by sum() (column 10) but is on the output");
}

TEST_CASE("mismatched ranks") {
  refused("C[m,n] = A[m,k] * B[k,n] + A[m]", kAB, 28, "mismatched ranks: A has 1 indices here but 2 at column 10");
  refused("C[m,n] = A[m,k] * B[k,n] + bias[n,m]", "A=bf16,B=bf16,C=bf16,bias=f32", 28, "mismatched ranks: bias[...]");
  refused("C[m,n] = A[m,k,j] * B[k,n]", kAB, 16, "index 'j' is on no output and is not the contracted index k");
  refused("C[b,m,n] = A[m,k,b] * B[b,k,n]", kAB, 12, "A[...] must be indexed (m, k) in either order, after the batch index b");
}

TEST_CASE("an unsupported function, with the list of those supported") {
  refused("C[m,n] = mish(A[m,k] * B[k,n])", kAB, 10, "unsupported function 'mish'");
  refused("C[m,n] = exp(A[m,k] * B[k,n], 2)", kAB, 10, "exp() takes 1 argument, not 2");
  refused("C[m,n] = cast<f17>(A[m,k] * B[k,n])", kAB, 10, "unknown dtype 'f17'");
}

TEST_CASE("a contracted index in only one operand, or several, or none") {
  refused("C[m,n] = A[m,k] * B[j,n]", kAB, 14, "index 'k' is on no output, but no product");
  refused("C[m,n] = A[m,n] * B[m,n]", kAB, 10, "no contraction or reduction");
  refused("C[m,n] = A[m,k,l] * B[k,l,n]", kAB, 19, "contracts over 2 indices");
  refused("C[m,n] = A[m,k] * B[k,n] * D[k,m]", "A=bf16,B=bf16,C=bf16,D=bf16", 28, "D[...] must index (m, n), (n) or (m)");
}

TEST_CASE("malformed statements") {
  refused("C[m,n] A[m,k] * B[k,n]", kAB, 8, "expected '=' or '+='");
  refused("C[m,n] = A[m,k] * B[k,n", kAB, 24, "expected ','");
  refused("C[m,n] = A[m,k] * B[k,n] )", kAB, 26, "unexpected ')'");
  refused("C[m,m] = A[m,k] * B[k,m]", kAB, 5, "index 'm' appears twice");
  refused("C[m,n] = A[m,k] * B[k,n] + C[m,n]", kAB, 28, "the output C is also read");
  refused("C[m,n] = A[m,k] * B[k,n] * n", kAB, 28, "index 'n' used as a value");
  refused("acc[m,n] = A[m,k] * B[k,n]", "A=bf16,B=bf16,acc=bf16", 1, "a name the generated kernel uses");
}

TEST_CASE("reductions that the row generator does not take") {
  refused("Y[m] = sum(X[m,n]) + Z[m]", "X=f16,Y=f32,Z=f32", 22, "only numbers and scalars may combine");
  refused("Y[n] = sum(X[m,n])", "X=f16,Y=f32", 3, "index 'n' is reduced");
  refused("Y[m,n] = softmax(X[m,n], m)", "X=f16,Y=f32", 26, "softmax normalizes over X's last index (n)");
  refused("Y[m] = sum(X[m,n]) + max(X[m,n])", "X=f16,Y=f32", 22, "one reduction per kernel");
}

TEST_CASE("--dtypes errors are located in the --dtypes text") {
  auto bad = parse_spec_dtypes("A=bf16,B=bf17");
  REQUIRE_FALSE(bad.is_ok());
  CHECK(bad.status().str() == "--dtypes:1:8: error: unknown dtype 'bf17'");
  bad = parse_spec_dtypes("A=bf16,,B=f16");
  REQUIRE_FALSE(bad.is_ok());
  CHECK(bad.status().str().find("--dtypes:1:8: error: expected NAME=DTYPE") == 0);
  bad = parse_spec_dtypes("A=bf16,A=f16");
  REQUIRE_FALSE(bad.is_ok());
  CHECK(bad.status().str().find("'A' is given twice") != std::string::npos);
}

TEST_CASE("a kernel name that is not an identifier") {
  SpecOptions options;
  options.dtypes = {{"X", DType::F16}, {"Y", DType::F32}};
  options.name = "my kernel";
  auto text = kernel_from_spec("Y[m] = sum(X[m,n])", options);
  REQUIRE_FALSE(text.is_ok());
  CHECK(text.status().str() == "error: --name: 'my kernel' is not an identifier");
}

}  // namespace spec_misuse_test
