/// \file
/// The compile path; see Compile.h.
#include "plugins/cuda/Compile.h"

#include "ir/Lower.h"
#include "plugins/cuda/Nvrtc.h"

namespace tegula::cuda {

Result<CompileOutput> compile_lowered(std::string_view lowered_text, const TargetDescription& target, const std::string& arch,
                                      const std::string& options) {
  TG_ASSIGN_OR_RETURN(GenOptions gen_options, parse_gen_options(options));
  TG_ASSIGN_OR_RETURN(ir::Kernel kernel, ir::read_lowered(lowered_text, target, "<lowered>"));
  TG_ASSIGN_OR_RETURN(Generated g, generate_cuda(kernel, target, arch, gen_options));
  TG_ASSIGN_OR_RETURN(NvrtcOutput out, nvrtc_compile(g.source, kernel.name + ".cu", arch));
  CompileOutput c;
  c.executable.arch = arch;
  c.executable.info = g.info;
  c.executable.ptx = std::move(out.ptx);
  c.executable.cubin = std::move(out.cubin);
  c.source = std::move(g.source);
  c.log = std::move(out.log);
  return c;
}

}  // namespace tegula::cuda
