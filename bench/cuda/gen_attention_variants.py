#!/usr/bin/env python3
"""FlashAttention forward variants for a schedule sweep on one device (until auto-scheduling
picks tile sizes): block rows BM, key block BN and threads, head dims 64 and 128, non-causal and
causal, in the form of examples/attention (whole key blocks unmasked in a pipelined loop, the
last partial or diagonal block masked, through tiles of its own: a shared tile written outside
the pipelined loop is not prefetched), and `_onemask` variants (one loop masking every block). Usage:

    python3 bench/cuda/gen_attention_variants.py DIR [4d|2d|stacked]
    TEGULA_BENCH_ATTN_DIR=DIR build/bin/tegula_bench_cuda attention

4d (the default) is the examples' form ([B, H, S, D] tensors); 2d is one head ([S, D], for
`tegula run` on any device); stacked is heads stacked as [B*H*S, D] with S a scalar (no views:
the form session 4's first H200 calls measured). examples/attention holds the BM = BN = 64,
128-thread variant."""
import sys
def body(BM, BN, D, jexpr, mask, indent, ks="Ks", vs="Vs"):
    i = " " * indent
    sel = f"select({mask}, Sc * (scale * 1.4426950408889634), -inf)" if mask else "Sc * (scale * 1.4426950408889634)"
    return "\n".join(i + l for l in [
        f"copy K[bz, by, {jexpr} * {BN}, 0], {ks}",
        f"copy V[bz, by, {jexpr} * {BN}, 0], {vs}",
        f"gemm Qs, {ks}, Sc, trans_b=true",
        f"map Sc = {sel}",
        "reduce Sc, m_new, op=max, axis=1",
        "map m_new = max(m, m_new)",
        "map Sc = exp2(Sc - m_new)",
        "reduce Sc, l_new, op=sum, axis=1",
        "map l_new = l * exp2(m - m_new) + l_new",
        "map Acc = Acc * exp2(m - m_new)",
        "map l = l_new",
        "map m = m_new",
        "map P = Sc",
        f"gemm P, {vs}, Acc, accumulate=true"]) + "\n"

def kernel(name, BM, BN, D, threads, stages, causal, dt="bf16", header="", split=True):
    t = f"{dt}[B, H, S, {D}]"
    s = header
    s += f"kernel {name}(Q: {t}, K: {t}, V: {t}, O: {t}, L: f32[B, H, S, 1], scale: f32)\n"
    s += f"    grid(ceildiv(S, {BM}), H, B) threads({threads}), reference={'attention_causal' if causal else 'attention'} {{\n"
    for n, shp in (("Qs", f"shared {dt}[{BM}, {D}]"), ("Ks", f"shared {dt}[{BN}, {D}]"), ("Vs", f"shared {dt}[{BN}, {D}]"),
                   ("Sc", f"fragment f32[{BM}, {BN}]"), ("P", f"fragment {dt}[{BM}, {BN}]"), ("m", f"fragment f32[{BM}, 1]"),
                   ("m_new", f"fragment f32[{BM}, 1]"), ("l", f"fragment f32[{BM}, 1]"), ("l_new", f"fragment f32[{BM}, 1]"),
                   ("Acc", f"fragment f32[{BM}, {D}]")) + ((("Kt", f"shared {dt}[{BN}, {D}]"), ("Vt", f"shared {dt}[{BN}, {D}]")) if split else ()):
        s += f"  alloc {n}: {shp}\n"
    s += f"  copy Q[bz, by, bx * {BM}, 0], Qs\n  fill m, -inf\n  fill l, 0.0\n  fill Acc, 0.0\n"
    if not split:
        hi = f"ceildiv((bx + 1) * {BM}, {BN})" if causal else f"ceildiv(S, {BN})"
        mask = f"j * {BN} + idx(1) <= bx * {BM} + idx(0)" if causal else f"j * {BN} + idx(1) < S"
        s += f"  // One loop; every key block masked.\n"
        s += f"  pipelined j in 0 .. {hi}, stages={stages} {{\n" + body(BM, BN, D, "j", mask, 4) + "  }\n"
    elif causal:
        # key blocks wholly at or below the first query row of the block need no mask
        s += f"  // Key blocks that end at or before this block's first query row need no mask.\n"
        if BM == BN:
            s += f"  pipelined j in 0 .. bx, stages={stages} {{\n" + body(BM, BN, D, "j", None, 4) + "  }\n"
            s += f"  // The diagonal block: key bx * {BN} + idx(1) is seen by query bx * {BM} + idx(0) when not after it.\n"
            s += body(BM, BN, D, "bx", "idx(1) <= idx(0)", 2, "Kt", "Vt")
        else:
            s += f"  pipelined j in 0 .. bx * {BM} / {BN}, stages={stages} {{\n" + body(BM, BN, D, "j", None, 4) + "  }\n"
            s += f"  // The key blocks the diagonal crosses: key j * {BN} + idx(1) is seen by query bx * {BM} + idx(0) when not after it.\n"
            s += f"  for j in bx * {BM} / {BN} .. ceildiv((bx + 1) * {BM}, {BN}) {{\n" + body(BM, BN, D, "j", f"j * {BN} + idx(1) <= bx * {BM} + idx(0)", 4, "Kt", "Vt") + "  }\n"
    else:
        s += f"  // Whole key blocks need no mask; the last, partial one masks the columns past S.\n"
        s += f"  pipelined j in 0 .. S / {BN}, stages={stages} {{\n" + body(BM, BN, D, "j", None, 4) + "  }\n"
        s += f"  for j in S / {BN} .. ceildiv(S, {BN}) {{\n" + body(BM, BN, D, "j", f"j * {BN} + idx(1) < S", 4, "Kt", "Vt") + "  }\n"
    s += f"  map Acc = Acc / l\n  copy Acc, O[bz, by, bx * {BM}, 0]\n"
    s += f"  map l = (m + log2(l)) * 0.6931471805599453\n  copy l, L[bz, by, bx * {BM}, 0]\n}}\n"
    return s

def to_mode(text, mode):
    import re
    if mode == "4d":
        return text
    if mode == "2d":
        text = re.sub(r"\[B, H, S, (\d+)\]", r"[S, \1]", text)
        text = text.replace("[bz, by, ", "[")
        return re.sub(r"grid\(ceildiv\(S, (\d+)\), H, B\)", r"grid(ceildiv(S, \1))", text)
    text = re.sub(r"\[B, H, S, (\d+)\]", r"[R, \1]", text)
    text = text.replace("scale: f32)", "scale: f32, S: i32)")
    text = re.sub(r"\[bz, by, ", "[by * S + ", text)
    return re.sub(r"grid\(ceildiv\(S, (\d+)\), H, B\)", r"grid(ceildiv(S, \1), R / S)", text)

if __name__ == "__main__":
    out, mode = sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "4d"
    for D in (64, 128):
        for causal in (False, True):
            for BM, BN, th, split in ((128, 128, 256, True), (128, 64, 256, True), (64, 64, 128, True), (64, 128, 128, True),
                                      (128, 128, 256, False), (64, 64, 128, False)):
                name = f"flash_attn_{'causal_' if causal else ''}d{D}_m{BM}n{BN}{'' if split else '_onemask'}"
                open(f"{out}/{name}.tile", "w").write(to_mode(kernel(name, BM, BN, D, th, 2, causal, split=split), mode))
