/// \file
/// The op list of the tile IR, written once. Every consumer (the Op enum, the parser, the
/// printer, the verifier's attribute checks and parallel-loop rules, the read/write sets that
/// analyses and barrier insertion use, the visitors and the interpreter's dispatch) is
/// generated from or driven by these tables, so adding an op breaks the build everywhere that
/// must handle it (switches over OpKind, ExprKind, UnaryOp, BinaryOp, ReduceKind and Scope
/// have no default; see "Adding an op" in ir/lower/README.md).
///
/// Each op is one line: X(Enumerator, keyword, operand format, roles, level, attribute spec,
/// blocks).
///
/// Operand format directives, parsed and printed in order (punctuation between them is
/// literal text):
///   %name   a new buffer name (alloc)           %type  `scope dtype[d0, d1, ...]` (alloc)
///   %tile   a tile: `buf` or `buf[o0, o1, ...]` %elem  an element: `buf[i0, i1, ...]`
///   %expr   an expression                       %var   a new loop variable
///   %vars   `i` or `(i, j, ...)`                 %exprs `e` or `(e0, e1, ...)`, as many as %vars
///
/// Roles: one word per %tile and %elem operand, in format order, saying what the op does
/// with the buffer elements the operand names:
///   in            read
///   out           written, not read
///   inout         read, then written (the op reads exactly the elements it writes)
///   inout?ATTR    inout when the bool attribute ATTR is true, else out (gemm's accumulate)
///   inout?!ATTR   inout when ATTR is false, else out (reduce's clear)
/// Expressions (%expr, %exprs) and tile offsets are always read: every buffer they name (an
/// element load `X[i, j]`, or a whole tile in a map) is read, so they need no role.
/// Roles are a column of their own, not format directives, because the format says how an
/// operand is spelled and the role what the op does with it: the two change for different
/// reasons, and a role can depend on an attribute, which a spelling cannot. IR.cpp checks
/// every line at compile time (one role per %tile/%elem, conditions naming a bool attribute).
///
/// Level: where the op may run.
///   Block    the whole block runs it together (tile ops, barriers, and the loops that
///            schedule the block: pipelined, parallel); never inside a parallel loop
///   Element  one element per iteration of a parallel loop; only inside one
///   Control  structure legal at either level: for, if, and alloc (whose scope decides:
///            local buffers inside parallel loops, shared and fragment ones at the top)
///
/// Attribute spec: space-separated `name:type=default` (type bool, int, float, ident, ints);
/// an attribute with no default is required. Attributes follow the operands as `, name=value`.
///
/// Semantics (the reference interpreter is the executable form of this list):
///  alloc      Allocate a buffer in `shared` (per block), `fragment` (a block-wide register
///             tile whose distribution over threads lowering decides) or `local` (private to
///             one iteration of the enclosing parallel loop). Contents start undefined.
///  copy       dst tile = src tile, element by element, converting dtype on the store. The
///             tile extent is the shape of a non-global operand written without offsets (dst
///             first), or the `extent` attribute. Global tiles are masked: elements outside
///             the tensor are not written, and read as `pad` (default 0).
///             Views (rank-dropping global tiles): a global operand of copy (either side),
///             fill and atomic_add may have more axes than the tile, naming one offset per
///             axis of its tensor: `copy Q[bz, by, bx * 64, 0], Qs` with Q bf16[B, H, S, D]
///             and Qs shared [64, 128] moves the tile whose extent (Qs's shape, or an
///             `extent` of fewer entries than the tensor's rank) aligns to the tensor's
///             TRAILING axes; each leading axis has extent 1 at its offset (one index: head
///             by of batch bz). An `extent` may also be written at the tensor's rank with
///             those leading entries 1 (`extent=[1, 1, 64, 128]`); any other leading entry
///             is an error. Masking is per axis, as for any global tile: an element whose
///             index along ANY axis is outside the tensor (a leading index past H, or a row
///             past S) is not written and reads as `pad`. Only a global tile may drop axes
///             (a shared or fragment tile of another rank would need a layout per view).
///             Why: multi-head kernels read a [B, H, S, D] tensor as 2-D tiles of one head.
///             Stacking heads as [B*H*S, D] instead makes the sequence tail of one head
///             read the next head's first rows and forces guarded element stores to keep
///             a tile's tail from writing into the next head; the view masks each head's
///             tail along S, and the backends' tile code (vectors and thread mapping over
///             the trailing axes, cp.async from a pipelined loop) stays as it is.
///  fill       Every element of the tile = value (masked on global tiles; a view as in copy).
///  gemm       C = A*B, or C += A*B with accumulate=true. A is [M,K] ([K,M] with trans_a),
///             B is [K,N] ([N,K] with trans_b), C is [M,N]. Products and sums in float64,
///             rounded once to C's dtype per gemm. `inst` names the matrix instruction
///             lowering must use (a catalogue id of the target, or `fma`); the default `auto`
///             lets lowering choose. It never changes results, only how they are computed.
///  reduce     dst = reduction of src along `axis` (sum, max, min, absmax). dst's shape is
///             src's with that axis removed or set to 1. clear=false combines with dst's old
///             value. max/min/absmax combine as the max and min functions below do.
///  scan       `scan src, dst, carry`: dst = the running sum, max or min (`op`: sum, max, min)
///             of src along `axis`, starting from carry; then carry = the line's total.
///             src, dst and carry are shared float tiles; dst has src's shape, carry src's
///             with the axis set to 1 (one start value per line). Along each line x (index
///             r in scan order: ascending, or descending with reverse=true) with running
///             value a = carry: inclusive (the default) does a = a (+) x[r], dst[r] = a;
///             exclusive=true does dst[r] = a, a = a (+) x[r] (so the first element is the
///             start value). Finally carry = a, the total of the line combined with the
///             start value. The reference keeps a in float64, rounding each dst element
///             and the carry once to their dtypes; backends keep it in f32 (f64 for f64
///             sources), in any association (sum tolerances as for reduce). max/min are
///             maximumNumber/minimumNumber. Why a carry operand, always: a chunked scan
///             (`for c ... { copy chunk; scan xs, ys, run, ... }`) needs exactly this start
///             value and total; the format has no optional operands (one role per operand
///             keeps the read/write sets exact), and a one-shot scan is `fill run, 0` (for
///             sum; -inf or nan for max, inf or nan for min: nan is the identity of
///             maximumNumber, so an all-NaN line stays NaN) before it. Only sum, max and min:
///             they are associative with an identity, so a backend may scan in parallel;
///             absmax has no use as a running value (and a signed start would be ambiguous).
///             Floats only: an integer running sum would need a wraparound rule per backend
///             and integer offsets come from the host or block loads. Shared tiles only: a
///             scan walks whole lines, which a fragment spreads over threads (copy it to
///             shared memory first).
///  map        dst = expr elementwise; a bare buffer name in expr is the element at the same
///             index, broadcasting dimensions of size 1. Shapes align at the trailing axes
///             (numpy's rule): an operand of lower rank than dst broadcasts along the
///             leading axes it lacks, so `map Y = X * W` with X, Y [M, N] and W a [N] tile
///             (shared or fragment) scales every row by W. Why: a per-column weight or bias
///             (norms, a softmax scale per column) is naturally 1-D, as its tensor is, and
///             writing it as [1, N] would need a [1, N] tensor or a copy of the vector
///             into a 2-D tile; a higher-rank operand is an error, as in numpy.
///  store      One element = expr. Only inside a parallel loop.
///  atomic_add dst global tile += src tile, element by element, atomically; masked (dst
///             may be a view, as in copy).
///  barrier    All threads of the block reach this point before any continues.
///  for        Serial loop over [lo, hi).
///  pipelined  A serial loop whose body's copies lowering may run `stages` iterations ahead;
///             it has no effect on results.
///  parallel   Element loops over [0, e) for each extent, spread over the block's threads; the
///             iterations are independent. Only element-level statements inside.
///  if         Run the first block when expr is true, else the second (optional) block.
#pragma once

#define TG_FOR_EACH_OP(X)                                                                            \
  X(Alloc, "alloc", "%name: %type", "", Control, "", 0)                                              \
  X(Copy, "copy", "%tile, %tile", "in out", Block, "pad:float=0 extent:ints=[]", 0)                  \
  X(Fill, "fill", "%tile, %expr", "out", Block, "extent:ints=[]", 0)                                 \
  X(Gemm, "gemm", "%tile, %tile, %tile", "in in inout?accumulate", Block,                            \
    "accumulate:bool=false trans_a:bool=false trans_b:bool=false inst:ident=auto", 0)                \
  X(Reduce, "reduce", "%tile, %tile", "in inout?!clear", Block, "op:ident axis:int clear:bool=true", 0) \
  X(Scan, "scan", "%tile, %tile, %tile", "in out inout", Block,                                     \
    "op:ident axis:int reverse:bool=false exclusive:bool=false", 0)                                  \
  X(Map, "map", "%tile = %expr", "out", Block, "", 0)                                                \
  X(Store, "store", "%elem = %expr", "out", Element, "", 0)                                          \
  X(AtomicAdd, "atomic_add", "%tile, %tile", "in inout", Block, "extent:ints=[]", 0)                 \
  X(Barrier, "barrier", "", "", Block, "", 0)                                                        \
  X(For, "for", "%var in %expr .. %expr", "", Control, "", 1)                                        \
  X(Pipelined, "pipelined", "%var in %expr .. %expr", "", Block, "stages:int", 1)                    \
  X(Parallel, "parallel", "%vars in %exprs", "", Block, "", 1)                                       \
  X(If, "if", "%expr", "", Control, "", 2)

/// Unary elementwise functions: X(Enumerator, spelling). A spelling that is a symbol (`-`, `!`,
/// `~`) is a prefix operator; the rest print as calls. `!` is logical (a boolean), `~` is
/// bitwise (an integer): two spellings because the verifier refuses a boolean where an
/// integer belongs and the other way round, and C's `~` and `!` already differ this way.
///
/// Math on floats: log2, log1p (log(1 + x), accurate near 0), erf (the error function, for
/// exact GELU) and sigmoid (1 / (1 + exp(-x))) are the real functions, computed in the compute
/// dtype; each backend's error in ulps is in conformance/tolerances.json (as exp, log, tanh).
/// abs, max and min also take integers (the exact integer results; abs(INT32_MIN) is 2^31,
/// which a store to i32 saturates, as any other integer result).
#define TG_FOR_EACH_UNARY(X) \
  X(Neg, "-")                \
  X(Not, "!")                \
  X(BitNot, "~")             \
  X(Abs, "abs")              \
  X(Exp, "exp")              \
  X(Exp2, "exp2")            \
  X(Log, "log")              \
  X(Log2, "log2")            \
  X(Log1p, "log1p")          \
  X(Sqrt, "sqrt")            \
  X(Rsqrt, "rsqrt")          \
  X(Tanh, "tanh")            \
  X(Erf, "erf")              \
  X(Sigmoid, "sigmoid")

/// Binary operators and functions: X(Enumerator, spelling, precedence). Precedence 0 means a
/// call `f(a, b)`; higher binds tighter.
///
/// max and min of floats (the functions, and the max/min/absmax reductions) are IEEE 754-2019
/// maximumNumber and minimumNumber: a NaN loses to a number (only NaNs give NaN), and -0 < +0,
/// so max(+0, -0) = +0 and min(+0, -0) = -0 in either operand order. C's fmax/fmin, CUDA's
/// fmaxf/fminf, LLVM's maxnum and GLSL's NMax/NMin leave that sign open, so every backend
/// writes the rule out (ir/MaxMin.h is the reference's form). On integers they are the plain
/// max and min.
///
/// Bit operators `& | ^ << >> >>>` and prefix `~` take integers and work on 32-bit two's
/// complement words, one rule on every backend and for every integer dtype (i8, u8 and i32
/// values all fit a word):
///   - each operand is taken modulo 2^32 as an i32 (exact for every integer an expression
///     can hold: loads, indices, and sums and products of them, wrapped as a word would);
///   - the result is that i32 (so every result lies in [-2^31, 2^31));
///   - `>>` is the arithmetic shift (copies of the sign bit come in), `>>>` the logical one
///     (zeros come in), as in Java and JavaScript: the IR's integers are signed, so the
///     operator, not the dtype, says which shift is meant;
///   - a shift count is taken modulo 32 (its low five bits, as Java, JavaScript and x86 do):
///     `x << 32` is x and `x << -1` is `x << 31`. Counts are never undefined, and no backend
///     meets C++'s, LLVM's or SPIR-V's undefined shifts.
/// Eight nibbles of an i32 word `w` unpack as `(w >>> 4 * j) & 15` (unsigned) or
/// `(w << 28 - 4 * j) >> 28` (signed int4); a u32 dtype is not needed for that, and the IR's
/// integers are signed (Vulkan computes them in 32 bits), so none is added.
///
/// Precedence: C's order among the bit operators (`|` < `^` < `&` < shifts < `+ -`), but all
/// of them bind tighter than comparisons (as in Python and Rust). C puts `& ^ |` below `==`,
/// so `x & 1 == 0` means `x & (1 == 0)`; here it means `(x & 1) == 0`, the only reading that
/// type-checks. Prefix operators (`-`, `!`, `~`) bind tighter than every binary operator.
#define TG_FOR_EACH_BINARY(X) \
  X(Or, "||", 1)              \
  X(And, "&&", 2)             \
  X(Eq, "==", 3)              \
  X(Ne, "!=", 3)              \
  X(Lt, "<", 3)               \
  X(Le, "<=", 3)              \
  X(Gt, ">", 3)               \
  X(Ge, ">=", 3)              \
  X(BitOr, "|", 4)            \
  X(BitXor, "^", 5)           \
  X(BitAnd, "&", 6)           \
  X(Shl, "<<", 7)             \
  X(Shr, ">>", 7)             \
  X(ShrLogical, ">>>", 7)     \
  X(Add, "+", 8)              \
  X(Sub, "-", 8)              \
  X(Mul, "*", 9)              \
  X(Div, "/", 9)              \
  X(Mod, "%", 9)              \
  X(Max, "max", 0)            \
  X(Min, "min", 0)            \
  X(CeilDiv, "ceildiv", 0)

/// bitcast<D>(x) reads x's bits as the dtype D: x's dtype and D must have the same size, and
/// neither may be bool (it is a truth value, not a bit pattern). x's dtype is, for an
/// integer, the dtype of the load, scalar or cast it is (i8, u8, i32), and i32 for any other
/// integer (literals, indices, arithmetic and bit operators: a word); for a float, its
/// compute dtype (that of the load or scalar, f32 for arithmetic on f32 and narrower, f64).
/// An integer is taken modulo 2^(8 * size) first; a float is rounded to its dtype first (a
/// no-op on every backend, which computes in that dtype; the float64 reference must round).
/// A NaN has the bits of its dtype's canonical NaN with its sign: no dtype conversion in
/// tegula keeps a payload (core/DType.h), so no bitcast can see one. A bitcast to a float
/// may make a NaN with a payload or a subnormal; either is that value, as any load of the
/// same bits would be.
///
/// Expression kinds: X(Enumerator, what it is). Not a spelling table (the parser reads
/// literals, names and calls by their shape); listed here so that every kind of the IR is in
/// one file, and so that tests can iterate over them.
#define TG_FOR_EACH_EXPR(X)                                                                       \
  X(IntImm, "an integer literal")                                                                 \
  X(FloatImm, "a float literal (inf and nan included)")                                           \
  X(Var, "a block index (bx, by, bz), loop variable, shape symbol or scalar parameter")           \
  X(Load, "buf[i, j, ...]: one element")                                                          \
  X(Tile, "a bare buffer name inside a map: the element at the map's index")                      \
  X(Unary, "a unary function or prefix operator")                                                 \
  X(Binary, "a binary operator or function")                                                      \
  X(Cast, "cast<dtype>(x): round x to dtype")                                                     \
  X(Bitcast, "bitcast<dtype>(x): x's bits read as dtype (same size)")                            \
  X(Select, "select(c, a, b)")                                                                    \
  X(ElemIndex, "idx(a) inside a map: the index, along axis a, of the destination element")

///
/// Element indices: `idx(a)` (a an integer literal) is the index along axis a of the element
/// a map is writing, counted from the destination tile's origin, an integer (Index) in
/// [0, extent_a). A map has one element index however many operands it reads (each reads
/// the element at that index, broadcasting), so the index is the destination's, and only
/// one spelling is needed; a tile's place in the tensor is the kernel's arithmetic
/// (`by * 128 + idx(0)`), as it is for copies. One kind with the axis as its value, not a
/// name per axis (`row`, `col`), because tiles have any rank up to 4 and axis numbers are
/// what `reduce` already uses. `idx` is a call, like the functions, so `idx` stays usable as
/// an ordinary name. Only a map has an element index: inside a parallel loop the loop
/// variables already are the element's indices (a store, an `if`), and every other
/// expression (offsets, bounds, fill values) is one value for the whole block. Lowering
/// computes it from the layout of whatever runs the map (a thread's base coordinate once,
/// plus a constant per register); a matrix layout whose positions are hidden (cooperative
/// matrices) is not chosen for a fragment that a map with idx writes.
///
/// Block-level loads: outside a parallel loop, a load `T[i, ...]` is one value for the whole
/// block, usable wherever block-level integers are (loop bounds of for and pipelined, if
/// conditions, fill values, offsets of global tiles), with indices that are block-level
/// expressions themselves (nested loads included): variable sequence lengths (`for j in
/// Cu[bx] .. Cu[bx + 1]`), paged block tables (`copy K[Tbl[bx, p] * 64, 0], Ks`), per-block
/// flags. No new kind or spelling: it is the element load, and the verifier's block-level
/// rule says which loads are one value per block: T is a global tensor of an integer dtype
/// that the kernel does not write (blocks run in any order, so a read of a written tensor
/// would race with the writes), and the load is not in a map (whose expression is per
/// element) or the grid (computed before launch), nor an offset into a shared or fragment
/// tile (which must lie inside its buffer, and no check could promise that of a value read
/// from memory). An index outside T is an error in the reference interpreter, as an element
/// load's is; backends treat it as their element loads do. Lowering knows nothing of the
/// value: no range, so no bounds test is dropped, and a write at a loaded offset is not
/// proven apart from other blocks' (`tegula check` warns).

/// Memory scopes: X(Enumerator, spelling).
#define TG_FOR_EACH_SCOPE(X) \
  X(Global, "global")        \
  X(Shared, "shared")        \
  X(Fragment, "fragment")    \
  X(Local, "local")

/// Reductions: X(Enumerator, spelling).
#define TG_FOR_EACH_REDUCE(X) \
  X(Sum, "sum")               \
  X(Max, "max")               \
  X(Min, "min")               \
  X(AbsMax, "absmax")
