// The help of every tegula command, in one table: `tegula --help` lists every command with
// its options, `tegula COMMAND --help` adds the details. Help asked for goes to stdout
// (exit 0); usage shown for a mistake goes to stderr (exit 2).
#include <cstdio>
#include <cstring>

#include "runtime/cli/Cli.h"

namespace tegula::cli {
namespace {

struct CommandHelp {
  const char* name;
  const char* synopsis;  ///< the lines the top-level usage lists
  const char* details;   ///< what COMMAND --help adds
};

const CommandHelp kCommands[] = {
    {"check", "check [--strict] FILE...              parse and verify kernels; errors as file:line:column\n",
     "  Also warns, at the write, where two blocks of one launch may write the same element of a\n"
     "  tensor (a race between blocks: the offsets of some dimension must be s * bx + r with\n"
     "  0 <= r <= s - extent; atomic_add is exempt).\n"
     "  --strict    such a write is an error\n"
     "  Exit status 1 when any file has an error.\n"},
    {"print", "print FILE [--tune NAME=V,...]        print a kernel in canonical form\n",
     "  A kernel with tunables (tune(...) in its header) prints as one instance: the one --tune\n"
     "  names, else the first candidate the verifier accepts, after a comment listing the tunables.\n"},
    {"signature", "signature FILE                        parameters, dtypes, shapes and the launch order\n",
     "  Prints each parameter (tensor dtype and shape, or scalar dtype), which tensors the kernel\n"
     "  writes, and the launch signature: the parameters, then the shape symbols in order of\n"
     "  first appearance in the parameters' shapes (what a positional launch passes).\n"},
    {"run",
     "run FILE [--device D] [--bind SYM=INT,SCALAR=NUM,...] [--seed S] [--tune NAME=V,...]\n"
     "         [--input NAME=FILE]... [--output NAME=FILE]... [--print]\n"
     "         [--repeat N] [--check-against reference]\n"
     "                                      run a kernel on a device, on random or given data\n",
     "  --device D          a device (\"reference:0\") or a plugin's first device (\"cuda\");\n"
     "                      default: the first accelerator\n"
     "  --bind ...          shape symbols (integers) and scalar parameters (numbers: alpha=2.5);\n"
     "                      a symbol a given input's shape fixes need not be bound\n"
     "  --seed S            seed of the random inputs (default 1)\n"
     "  --tune NAME=V,...   a tunable kernel's binding; without it the runtime chooses per shape\n"
     "                      class (the binding tegula tune recorded, else the ranking's first)\n"
     "  --input NAME=FILE   tensor NAME from FILE: NumPy .npy (dtype and shape checked against\n"
     "                      the signature) or raw little-endian .bin (size checked)\n"
     "  --output NAME=FILE  write tensor NAME after the run (.npy or .bin, written atomically)\n"
     "  --print             print the outputs (up to 64 elements each)\n"
     "  --repeat N          launch N times more after the first and report the time per\n"
     "                      launch measured with device events\n"
     "  --check-against reference\n"
     "                      run the same inputs on the reference device and compare the outputs\n"
     "                      with the conformance suite's tolerance\n"
     "  Without --check-against, a kernel that names a direct computation (reference=NAME) is\n"
     "  compared with it.\n"},
    {"devices", "devices                               list devices\n", ""},
    {"plugins", "plugins                               list plugins, and the ones skipped with why\n", ""},
    {"targets", "targets [NAME] [--device D]           list or describe target descriptions\n", ""},
    {"lower",
     "lower FILE (--target T | --device D) [--after PASS] [--explain]\n"
     "           [--assume SYM=DIV,...] [--raster G] [--tune NAME=V,... | --shape SYM=INT,...]\n"
     "                                      print the kernel lowered for a target\n",
     "  --assume SYM=DIV    lower as if shape symbol SYM were a multiple of DIV (a power of two)\n"
     "  --raster G          launch 2-D grids in groups of G block rows\n"
     "  --tune NAME=V,...   a tunable kernel's instance\n"
     "  --shape SYM=INT     without --tune, rank the candidates at this shape (4096 for a symbol\n"
     "                      not given) and lower the first; --explain prints the ranking\n"},
    {"tune",
     "tune FILE --bind SYM=INT,... [--device D] [--top N] [--repeat R] [--seed S] [--force]\n"
     "                                      measure a tunable kernel's best candidates, record the choice\n",
     "  Ranks every candidate from the device's target description, compiles the top N\n"
     "  (default 8) in parallel, checks each against the reference device on a small case\n"
     "  (every symbol at most 197), times each at the --bind shape twice, in ranked order and\n"
     "  then reversed (R launches, default 20, device events; the lower time counts), and\n"
     "  records the fastest in the compile cache for this shape class\n"
     "  (alignment, each symbol's power-of-two divisor and size bucket): later compiles of\n"
     "  the same text for the device use it. A class already measured is not measured again\n"
     "  unless --force.\n"},
    {"optimizations",
     "optimizations [--target T | --device D | --description FILE] [--json]\n"
     "              [--kernel ROW]\n"
     "                                      which optimizations the lowering applies on each target\n",
     "  Each cell lowers the row's solution kernel for the target (ir/lower/optimizations/):\n"
     "  yes (the marker that proves it, with --target), n/a (why the description rules it out),\n"
     "  not yet (the lowering lacks it) or MISSED (the target could, the lowering did not).\n"
     "  --target T     one built-in target: every row with its marker or reason\n"
     "  --device D     the same for a device's own description (its reported matrices)\n"
     "  --description FILE\n"
     "                 the same for a description file (tegula.target.v1 JSON)\n"
     "  --json         the matrix as JSON (schema tegula.optimizations.v1)\n"
     "  --kernel ROW   print the row's solution kernel (.tile text, for tegula lower --explain)\n"},
    {"spec",
     "spec \"C[m, n] += A[m, k] * B[k, n]\" --dtypes A=bf16,B=bf16,C=bf16 [--acc f32] [--name NAME]\n"
     "        [--out FILE]                  a kernel with tunables from an einsum-style statement\n",
     "  The statement is OUT[indices] = EXPR or OUT[indices] += EXPR. Its forms:\n"
     "    C[m, n] = A[m, k] * B[k, n]       a GEMM: operand layouts by index order (A[k, m] is\n"
     "                                      trans_a), a leading output index is a batch (grid z)\n"
     "    C[m, n] = gelu(A[m, k] * B[k, n] + bias[n]) * alpha\n"
     "                                      an epilogue: one map on the accumulator; tensors of\n"
     "                                      the output's indices (bias[n], bias[m], R[m, n]),\n"
     "                                      numbers, scalars (f32 unless --dtypes says), + - * /,\n"
     "                                      exp exp2 log log2 log1p sqrt rsqrt tanh erf sigmoid\n"
     "                                      abs max min relu silu gelu cast<dtype>(x)\n"
     "    Y[m] = sum(X[m, n])               a row reduction (sum, max, min) over X's last index,\n"
     "                                      of an elementwise f(X) and followed by g(...)\n"
     "    Y[m, n] = softmax(X[m, n], n)     a row softmax over the last index\n"
     "  --dtypes NAME=DTYPE,...  every tensor's dtype (scalars default to f32)\n"
     "  --acc DTYPE              the accumulator's dtype (default f32)\n"
     "  --name NAME              the kernel's name (default: the output's, then _spec)\n"
     "  --out FILE               write the kernel to FILE instead of stdout\n"
     "  Errors point at the column of the spec. tegula check FILE verifies every candidate.\n"},
    {"conformance",
     "conformance [--device D] [--filter GLOBS] [--out DIR] [--jobs N] [--quick] [--perf] ...\n"
     "conformance list [--device D | --target T] [--filter GLOBS] [--quick]\n"
     "conformance verify REPORT [--no-library-check] [--recheck N]\n"
     "                                      the conformance suite (tegula conformance --help)\n",
     ""},
};

const CommandHelp* find_command(const std::string& name) {
  for (const CommandHelp& c : kCommands)
    if (name == c.name) return &c;
  return nullptr;
}

void print_top(FILE* to) {
  std::fprintf(to, "usage: tegula <command> [args]   (tegula <command> --help for more)\n");
  for (const CommandHelp& c : kCommands) {
    // Every line of a synopsis is indented alike.
    for (const char* line = c.synopsis; *line;) {
      const char* end = std::strchr(line, '\n');
      std::fprintf(to, "  %.*s\n", int(end - line), line);
      line = end + 1;
    }
  }
  std::fprintf(to,
               "  --version                             the version of tegula\n"
               "environment: TEGULA_PLUGINS, TEGULA_ADD_PLUGINS, TEGULA_SELECT_PLUGINS,\n"
               "  TEGULA_DISABLE_PLUGINS, TEGULA_LOADER_DEBUG=1, TEGULA_CACHE_DIR (or off)\n");
}

}  // namespace

int usage() {
  print_top(stderr);
  return 2;
}

int top_help() {
  print_top(stdout);
  return 0;
}

static void print_command(const CommandHelp& c, FILE* to) {
  std::fprintf(to, "usage: tegula %s", c.synopsis);
  std::fputs(c.details, to);
}

int command_usage(const std::string& command) {
  const CommandHelp* c = find_command(command);
  if (!c) return usage();
  print_command(*c, stderr);
  return 2;
}

int command_help(const std::string& command) {
  const CommandHelp* c = find_command(command);
  if (!c) {
    std::fprintf(stderr, "tegula: unknown command '%s'\n", command.c_str());
    return usage();
  }
  print_command(*c, stdout);
  return 0;
}

}  // namespace tegula::cli
