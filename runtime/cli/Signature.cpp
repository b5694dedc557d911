// tegula signature: what a kernel takes, in the order a positional launch passes it. The
// shape symbols come last, in order of first appearance in the parameters' shapes (M, K, N
// for a gemm whose A is [M, K]): the order that is easy to get wrong by hand.
#include <cstdio>

#include "core/Files.h"
#include "ir/Analysis.h"
#include "ir/Parser.h"
#include "ir/Printer.h"
#include "runtime/cli/Cli.h"

namespace tegula::cli {

static std::string param_type(const ir::Param& p) {
  std::string out = dtype_name(p.dtype);
  if (!p.is_tensor) return out;
  out += "[";
  for (size_t d = 0; d < p.shape.size(); ++d) out += (d ? ", " : "") + ir::print_expr(p.shape[d]);
  return out + "]";
}

int cmd_signature(const std::vector<std::string>& args) {
  if (args.size() != 1 || args[0].rfind("--", 0) == 0) return command_usage("signature");
  auto text = read_file(args[0]);
  if (!text.is_ok()) return fail("signature", text.status());
  auto k = ir::parse_and_verify(*text, args[0]);
  if (!k.is_ok()) return fail("signature", k.status());
  std::vector<size_t> written = ir::written_params(*k);
  std::printf("kernel %s\n", k->name.c_str());
  std::printf("parameters:\n");
  for (size_t i = 0; i < k->params.size(); ++i) {
    const ir::Param& p = k->params[i];
    bool out = false;
    for (size_t w : written) out = out || w == i;
    const char* role = !p.is_tensor ? "scalar" : out ? "tensor, written" : "tensor, read";
    std::printf("  %-3zu %-10s %-24s %s\n", i, p.name.c_str(), param_type(p).c_str(), role);
  }
  std::vector<std::string> symbols = k->symbols();
  std::printf("shape symbols (launch order):");
  for (const std::string& s : symbols) std::printf(" %s", s.c_str());
  std::printf("%s\nlaunch order:", symbols.empty() ? " none" : "");
  for (const ir::Param& p : k->params) std::printf(" %s", p.name.c_str());
  for (const std::string& s : symbols) std::printf(" %s", s.c_str());
  std::printf("\n");
  return 0;
}

}  // namespace tegula::cli
