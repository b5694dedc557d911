/// \file
/// tegula_hip_gen: a developer's view of the hip plugin's code generation, no GPU needed.
///
///   tegula_hip_gen FILE.tile [TARGET] [--show lowered|llvm|asm|all] [--hsaco OUT.hsaco]
///
/// lowers FILE for a built-in AMD TARGET (default gfx942), compiles it to a code object in
/// process (LLVM 19, lld) and prints what --show asks (default: asm); --hsaco writes the code
/// object (llvm-objdump-19 -d --mcpu=gfx942 disassembles it).
#include <cstdio>
#include <fstream>
#include <sstream>

#include "ir/Lower.h"
#include "ir/Parser.h"
#include "ir/Printer.h"
#include "plugins/hip/Compile.h"

using namespace tegula;

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: tegula_hip_gen FILE.tile [TARGET] [--show lowered|llvm|asm|all] [--hsaco OUT]\n");
    return 2;
  }
  std::ifstream f(argv[1]);
  if (!f) return std::fprintf(stderr, "cannot read %s\n", argv[1]), 2;
  std::stringstream ss;
  ss << f.rdbuf();
  std::string target_name = "gfx942", show = "asm", hsaco;
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--show" && i + 1 < argc)
      show = argv[++i];
    else if (a == "--hsaco" && i + 1 < argc)
      hsaco = argv[++i];
    else
      target_name = a;
  }
  auto k = ir::parse_and_verify(ss.str(), argv[1]);
  if (!k.is_ok()) return std::fprintf(stderr, "%s\n", k.status().str().c_str()), 1;
  auto t = builtin_target(target_name);
  if (!t.is_ok()) return std::fprintf(stderr, "%s\n", t.status().str().c_str()), 1;
  auto lowered = ir::lower(*k, *t);
  if (!lowered.is_ok()) return std::fprintf(stderr, "%s\n", lowered.status().str().c_str()), 1;
  std::string text = ir::print_kernel(lowered->kernel);
  if (show == "lowered" || show == "all") std::printf("%s\n", text.c_str());
  if (show == "llvm") {
    auto llvm_ir = hip::generate_llvm_ir(text, *t);
    if (!llvm_ir.is_ok()) return std::fprintf(stderr, "%s\n", llvm_ir.status().str().c_str()), 1;
    std::printf("%s", llvm_ir->c_str());
    return 0;
  }
  auto exe = hip::compile_lowered(text, *t, "");
  if (!exe.is_ok()) return std::fprintf(stderr, "%s\n", exe.status().str().c_str()), 1;
  if (show == "asm" || show == "all") {
    auto assembly = hip::executable_assembly(*exe);
    if (!assembly.is_ok()) return std::fprintf(stderr, "%s\n", assembly.status().str().c_str()), 1;
    std::printf("%s", assembly->c_str());
  }
  if (!hsaco.empty()) {
    std::ofstream out(hsaco, std::ios::binary);
    out.write(exe->code_object.data(), std::streamsize(exe->code_object.size()));
    if (!out) return std::fprintf(stderr, "cannot write %s\n", hsaco.c_str()), 1;
  }
  return 0;
}
