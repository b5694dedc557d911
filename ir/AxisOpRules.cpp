#include "ir/AxisOpRules.h"

#include <string>
#include <vector>

namespace tegula::ir {
namespace {

Status fail(const SourceLoc& loc, std::string msg) { return error(ErrorCode::Verify, std::move(msg), loc); }

std::string shape_str(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + (shape[i] < 0 ? std::string("?") : std::to_string(shape[i]));
  return s + "]";
}

}  // namespace

Status check_reduce_operands(const Stmt& s, const BufferInfo& src, const BufferInfo& dst) {
  if (src.scope == Scope::Local || dst.scope == Scope::Local) return fail(s.loc, "reduce works on shared and fragment buffers, not local");
  std::string op = stmt_attr_ident(s, "op");
  if (!parse_reduce(op)) return fail(find_attr(s.attrs, "op")->loc, "unknown reduction '" + op + "' (expected sum, max, min or absmax)");
  int64_t axis = stmt_attr_int(s, "axis");
  int64_t rank = int64_t(src.shape.size());
  if (axis < 0 || axis >= rank)
    return fail(find_attr(s.attrs, "axis")->loc, "axis " + std::to_string(axis) + " is outside 0.." + std::to_string(rank - 1) +
                                                     " for '" + s.reduce_src().buffer + "'");
  std::vector<int64_t> removed, kept;
  for (int64_t i = 0; i < rank; ++i) {
    kept.push_back(i == axis ? 1 : src.shape[size_t(i)]);
    if (i != axis) removed.push_back(src.shape[size_t(i)]);
  }
  if (dst.shape != kept && dst.shape != removed)
    return fail(s.reduce_dst().loc, "reduce destination '" + s.reduce_dst().buffer + "' " + shape_str(dst.shape) + " must be " +
                                        shape_str(kept) + " or " + shape_str(removed) + " to reduce " + shape_str(src.shape) +
                                        " along axis " + std::to_string(axis));
  if (dst.dtype == DType::Bool || src.dtype == DType::Bool) return fail(s.loc, "reduce does not take bool buffers");
  return Status::ok();
}

Status check_scan_operands(const Stmt& s, const BufferInfo& src, const BufferInfo& dst, const BufferInfo& carry) {
  const TileRef* names[] = {&s.scan_src(), &s.scan_dst(), &s.scan_carry()};
  const char* roles[] = {"scan source", "scan destination", "scan carry"};
  const BufferInfo* bufs[] = {&src, &dst, &carry};
  for (int i = 0; i < 3; ++i) {
    if (bufs[i]->scope != Scope::Shared)
      return fail(names[i]->loc, std::string(roles[i]) + " '" + names[i]->buffer + "' is a " + scope_name(bufs[i]->scope) +
                                     " buffer; scan works on shared tiles (copy a fragment to shared memory first)");
    if (!dtype_is_float(bufs[i]->dtype))
      return fail(names[i]->loc, std::string(roles[i]) + " '" + names[i]->buffer + "' is " + dtype_name(bufs[i]->dtype) +
                                     "; scan takes float buffers");
  }
  std::string op = stmt_attr_ident(s, "op");
  auto kind = parse_reduce(op);
  if (!kind || *kind == ReduceKind::AbsMax)
    return fail(find_attr(s.attrs, "op")->loc, "unknown scan '" + op + "' (expected sum, max or min)");
  int64_t axis = stmt_attr_int(s, "axis");
  int64_t rank = int64_t(src.shape.size());
  if (axis < 0 || axis >= rank)
    return fail(find_attr(s.attrs, "axis")->loc, "axis " + std::to_string(axis) + " is outside 0.." + std::to_string(rank - 1) +
                                                     " for '" + s.scan_src().buffer + "'");
  if (dst.shape != src.shape)
    return fail(s.scan_dst().loc, "scan destination '" + s.scan_dst().buffer + "' " + shape_str(dst.shape) + " must have the shape " +
                                      shape_str(src.shape) + " of its source '" + s.scan_src().buffer + "'");
  std::vector<int64_t> line = src.shape;
  line[size_t(axis)] = 1;
  if (carry.shape != line)
    return fail(s.scan_carry().loc, "scan carry '" + s.scan_carry().buffer + "' " + shape_str(carry.shape) + " must be " +
                                        shape_str(line) + ": one start value per line of " + shape_str(src.shape) + " along axis " +
                                        std::to_string(axis));
  if (s.scan_carry().buffer == s.scan_src().buffer || s.scan_carry().buffer == s.scan_dst().buffer)
    return fail(s.scan_carry().loc, "scan carry '" + s.scan_carry().buffer + "' must be a buffer of its own");
  return Status::ok();
}

}  // namespace tegula::ir
