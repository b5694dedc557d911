#!/usr/bin/env python3
"""The peers of tegula_bench_cuda on the same device, same shapes, random data: cuBLAS through
torch.matmul (bf16 and f16 inputs; PyTorch accumulates these in float32), cuBLASLt FP8 through
torch._scaled_mm (e4m3, per-tensor scales, bf16 out), torch.softmax on f16
rows, torch.matmul on f16 with the dequantised int4 weight (the W4A16 peer: cuBLAS GEMV at m = 1
and 16, GEMM at m = 4096, n = k = 8192), torch.nn.functional.rms_norm and layer_norm on f16 8192 x 8192 rows (weights, and
bias for layer_norm), H = X + R with layer_norm(H) on the same rows (eager, and fused by torch.compile),
torch.nn.functional.scaled_dot_product_attention with its cuDNN and
flash backends (bf16, [B, H, S, D], non-causal and causal), and a device-to-device copy of the
same bytes. The first argument picks a subset like tegula_bench_cuda's (all, or attention, mla or
mamba2 alone: Mamba-2's reference chunked scan, ssd_minimal, with bf16 operands).
Median of many runs timed with CUDA events
bias for layer_norm), MLA decode in plain PyTorch (the absorbed form: bmm, softmax, bmm; bf16) at batch 64,
128 heads, L = 4096, and a device-to-device copy of the same bytes. Median of many runs timed with CUDA events
after warm-up. One JSON object per line, like tegula_bench_cuda."""
import json
import time
import sys

import torch


def median_ms(fn, warm, reps):
    for _ in range(warm):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        a = torch.cuda.Event(enable_timing=True)
        b = torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        b.synchronize()
        times.append(a.elapsed_time(b))
    times.sort()
    return times[len(times) // 2]


def attention(dev):
    """SDPA on the shapes of the attention bar, each backend alone. FLOPs: 4 B H S^2 D (two
    gemms), halved for the causal mask, as FlashAttention's papers count them."""
    from torch.nn.attention import SDPBackend, sdpa_kernel
    for b, h, s, d in ((8, 16, 4096, 128), (16, 16, 2048, 64)):
        q, k, v = ((torch.rand(b, h, s, d, device=dev) * 2 - 1).to(torch.bfloat16) for _ in range(3))
        for causal in (False, True):
            flops = 4 * b * h * s * s * d / (2 if causal else 1)
            for name, backend in (("cudnn", SDPBackend.CUDNN_ATTENTION), ("flash", SDPBackend.FLASH_ATTENTION)):
                try:
                    with sdpa_kernel(backend):
                        fn = lambda: torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal)
                        ms = median_ms(fn, 5, 20)
                except RuntimeError as e:
                    print(json.dumps({"peer": "sdpa_" + name, "b": b, "h": h, "s": s, "d": d, "causal": causal, "error": str(e)[:200]}))
                    continue
                print(json.dumps({"peer": "sdpa_" + name, "b": b, "h": h, "s": s, "d": d, "causal": causal, "ms": round(ms, 4),
                                  "tflops": round(flops / (ms * 1e-3) / 1e12, 1)}))
                sys.stdout.flush()
        del q, k, v
def mla_decode(dev, b=64, h=128, length=4096, d=576, dv=512):
    """The MLA decode peer (tegula_bench_cuda mla): the absorbed form in plain PyTorch, bf16,
    as a framework without FlashMLA runs it. Scores are one bmm of Q [b, h, 576] with the
    cache's keys [b, 576, L] (float32 accumulation inside cuBLAS, bf16 out), softmax in float32,
    then a bmm of P (bf16) with the latent values KV[:, :, :512]. The bandwidth is the cache's
    bytes over the time, as tegula_bench_cuda counts it, beside a copy of the cache."""
    q = (torch.rand(b, h, d, device=dev) * 2 - 1).to(torch.bfloat16)
    kv = (torch.rand(b, length, d, device=dev) * 2 - 1).to(torch.bfloat16)
    scale = d ** -0.5

    def run():
        s = torch.bmm(q, kv.transpose(1, 2)).float() * scale
        p = torch.softmax(s, dim=-1).to(torch.bfloat16)
        return torch.bmm(p, kv[:, :, :dv])

    nbytes = kv.numel() * 2
    copy = torch.empty_like(kv)
    ms = median_ms(lambda: copy.copy_(kv), 5, 50)
    copy_tbps = 2 * nbytes / (ms * 1e-3) / 1e12
    print(json.dumps({"peer": "mla_d2d_copy", "bytes": nbytes, "ms": round(ms, 4), "tbps": round(copy_tbps, 3)}))
    ms = median_ms(run, 5, 20)
    tbps = nbytes / (ms * 1e-3) / 1e12
    print(json.dumps({"peer": "torch_mla_decode", "b": b, "h": h, "l": length, "ms": round(ms, 4),
                      "kv_tbps": round(tbps, 3), "vs_copy": round(tbps / copy_tbps, 3)}))
    sys.stdout.flush()
    del q, kv, copy


# The GEMM shapes of the auto-scheduling issue (M, N, K): square, LLM projections (hidden 8192,
# MLP 28672), decode (M = 16) and an odd one. bench/h200/run_all.sh's tunebench step tunes
# examples/gemm/gemm_tuned_*.tile on each and reads these beside it.
GEMM_SHAPES = ((4096, 4096, 4096), (8192, 8192, 8192), (4096, 1024, 8192), (4096, 8192, 8192), (4096, 28672, 8192),
               (4096, 8192, 28672), (8192, 1024, 8192), (8192, 28672, 8192), (8192, 8192, 28672), (8192, 8192, 16384),
               (1000, 1000, 999), (256, 8192, 8192), (16, 8192, 8192))


def sustained_ms(fn, reps):
    """Milliseconds per call as `tegula tune` times a candidate (runtime/cli/Tune.cpp
    time_launches): calls, each synchronised, for at least 50 ms, then `reps` calls back to back
    between two events. Under load the H200 drops its clock to its power cap within 100 ms
    (bench/results/h200-2026-12-03c.md), so the two sides are only comparable timed alike."""
    start = time.perf_counter()
    while time.perf_counter() - start < 0.05:
        fn()
        torch.cuda.synchronize()
    a = torch.cuda.Event(enable_timing=True)
    b = torch.cuda.Event(enable_timing=True)
    a.record()
    for _ in range(reps):
        fn()
    b.record()
    b.synchronize()
    return a.elapsed_time(b) / reps


def gemm_shapes(dev, dtypes, reps):
    """torch.matmul (cuBLAS) at each shape, C[M, N] = A[M, K] B[K, N] with row-major operands:
    "ms" timed as `tegula tune` times (sustained_ms, `reps` launches), "ms_median" the median
    of 20 single synchronised launches after 5 (the figure of earlier runs)."""
    for m, n, k in GEMM_SHAPES:
        for name in dtypes:
            dt = torch.bfloat16 if name == "bf16" else torch.float16
            a = (torch.rand(m, k, device=dev) * 2 - 1).to(dt)
            b = (torch.rand(k, n, device=dev) * 2 - 1).to(dt)
            ms = sustained_ms(lambda: torch.matmul(a, b), reps)
            ms_median = median_ms(lambda: torch.matmul(a, b), 5, 20)
            print(json.dumps({"peer": "cublas", "bench": "gemm_shape", "dtype": name, "m": m, "n": n, "k": k, "ms": round(ms, 4),
                              "tflops": round(2 * m * n * k / ms / 1e9, 1), "ms_median": round(ms_median, 4)}), flush=True)


def mamba2(dev, b=4, length=4096, h=32, p=64, n=128, chunk=64):
    """The Mamba-2 peer (tegula_bench_cuda mamba2): the reference chunked algorithm of the paper
    ("ssd_minimal", Dao & Gu 2024) in plain PyTorch on its own [b, l, h, p] layout, one group of
    B and C (expanded to the heads, as ssd_minimal takes them), with the kernels' precisions:
    bf16 operands for the einsums (float32 accumulation inside cuBLAS), the decay matrix and
    states in float32, rounded to bf16 where the kernels round them. FLOPs and bytes are counted
    as tegula_bench_cuda counts its own. Beside it mamba_ssm's Triton kernel
    (mamba_chunk_scan_combined, the same algorithm fused), when the machine has mamba_ssm."""
    bf16 = torch.bfloat16
    x = (torch.rand(b, length, h, p, device=dev) * 2 - 1).to(bf16)
    da = -(torch.rand(b, length, h, device=dev) * 0.499 + 0.001)  # dt * A: negative log-decays
    bg = (torch.rand(b, length, 1, n, device=dev) * 2 - 1).to(bf16)
    cg = (torch.rand(b, length, 1, n, device=dev) * 2 - 1).to(bf16)
    c_count = length // chunk

    def segsum(a):  # a [..., T] -> [..., T, T]: sum of a over (j, i] below the diagonal, -inf above
        t = a.size(-1)
        a = a[..., None].expand(*a.shape, t)
        a = a.masked_fill(~torch.tril(torch.ones(t, t, device=dev, dtype=torch.bool), diagonal=-1), 0)
        s = torch.cumsum(a, dim=-2)
        return s.masked_fill(~torch.tril(torch.ones(t, t, device=dev, dtype=torch.bool), diagonal=0), -torch.inf)

    def run():
        xc = x.view(b, c_count, chunk, h, p)
        bc = bg.expand(b, length, h, n).reshape(b, c_count, chunk, h, n)
        cc = cg.expand(b, length, h, n).reshape(b, c_count, chunk, h, n)
        a = da.view(b, c_count, chunk, h).permute(0, 3, 1, 2)  # b h c l
        a_cumsum = torch.cumsum(a, dim=-1)
        lmat = torch.exp(segsum(a))  # b h c l s
        cb = torch.einsum("bclhn,bcshn->bhcls", cc, bc)
        y_diag = torch.einsum("bhcls,bcshp->bclhp", (cb.float() * lmat).to(bf16), xc)
        decay_states = torch.exp(a_cumsum[:, :, :, -1:] - a_cumsum)  # b h c l
        bd = (bc.float() * decay_states.permute(0, 2, 3, 1)[..., None]).to(bf16)
        states = torch.einsum("bclhn,bclhp->bchpn", bd, xc).float()
        states = torch.cat([torch.zeros_like(states[:, :1]), states], dim=1)
        decay_chunk = torch.exp(segsum(torch.nn.functional.pad(a_cumsum[:, :, :, -1], (1, 0))))
        new_states = torch.einsum("bhzc,bchpn->bzhpn", decay_chunk, states)
        prev = new_states[:, :-1]
        y_off = torch.einsum("bclhn,bchpn->bclhp", cc, prev.to(bf16)).float() * torch.exp(a_cumsum).permute(0, 2, 3, 1)[..., None]
        return (y_diag.float() + y_off).to(bf16).reshape(b, length, h, p), new_states[:, -1]

    flops = 2.0 * b * h * c_count * chunk * (chunk * n + chunk * p + 2 * n * p)
    nbytes = 2 * x.numel() * 2 + da.numel() * 4 + bg.numel() * 2 + cg.numel() * 2
    ms = median_ms(run, 3, 20)
    print(json.dumps({"peer": "torch_ssd_minimal", "b": b, "l": length, "h": h, "p": p, "n": n, "chunk": chunk,
                      "ms": round(ms, 4), "tflops": round(flops / (ms * 1e-3) / 1e12, 1),
                      "gbps": round(nbytes / (ms * 1e-3) / 1e9)}))
    sys.stdout.flush()
    try:
        from mamba_ssm.ops.triton.ssd_combined import mamba_chunk_scan_combined
    except ImportError as e:
        print(json.dumps({"peer": "mamba_ssm_chunk_scan_combined", "error": "not installed: " + str(e)[:120]}))
        return
    # dt * A with A = -1 per head: dt is the decay's magnitude (no softplus).
    a_head = -torch.ones(h, device=dev)
    fn = lambda: mamba_chunk_scan_combined(x, (-da).contiguous(), a_head, bg, cg, chunk_size=chunk)
    ms = median_ms(fn, 3, 20)
    print(json.dumps({"peer": "mamba_ssm_chunk_scan_combined", "b": b, "l": length, "h": h, "p": p, "n": n, "chunk": chunk,
                      "ms": round(ms, 4), "tflops": round(flops / (ms * 1e-3) / 1e12, 1),
                      "gbps": round(nbytes / (ms * 1e-3) / 1e9)}))
    sys.stdout.flush()


def norms(dev):
    """RMSNorm and LayerNorm of f16 8192 x 8192 rows, and H = X + R with layer_norm(H)."""
    m = n = 8192
    x = (torch.rand(m, n, device=dev) * 2 - 1).to(torch.float16)
    w = (torch.rand(n, device=dev) * 2 - 1).to(torch.float16)
    b = (torch.rand(n, device=dev) * 2 - 1).to(torch.float16)
    y = torch.empty_like(x)
    nbytes = x.numel() * 2
    ms = median_ms(lambda: y.copy_(x), 10, 100)
    print(json.dumps({"peer": "d2d_copy", "bytes": nbytes, "ms": round(ms, 4), "tbps": round(2 * nbytes / (ms * 1e-3) / 1e12, 3)}))
    norms = [("torch_layer_norm", lambda: torch.nn.functional.layer_norm(x, (n,), w, b, 1e-5))]
    if hasattr(torch.nn.functional, "rms_norm"):
        norms.insert(0, ("torch_rms_norm", lambda: torch.nn.functional.rms_norm(x, (n,), w, 1e-6)))
    for name, fn in norms:
        ms = median_ms(fn, 10, 100)
        print(json.dumps({"peer": name, "m": m, "n": n, "ms": round(ms, 4), "tbps": round(2 * nbytes / (ms * 1e-3) / 1e12, 3)}))
        sys.stdout.flush()
    # H = X + R, Y = layer_norm(H): eager (two kernels, H read back) and torch.compile (Inductor
    # fuses both into one Triton kernel); bytes are X and R read, H and Y written once.
    r = (torch.rand(m, n, device=dev) * 2 - 1).to(torch.float16)
    h = torch.empty_like(x)

    def eager():
        torch.add(x, r, out=h)
        return torch.nn.functional.layer_norm(h, (n,), w, b, 1e-5)

    def fused(x, r, w, b):
        hh = x + r
        return hh, torch.nn.functional.layer_norm(hh, (n,), w, b, 1e-5)

    peers = [("torch_add_layer_norm", eager)]
    try:
        compiled = torch.compile(fused)
        compiled(x, r, w, b)
        peers.append(("torch_compile_add_layer_norm", lambda: compiled(x, r, w, b)))
    except Exception as e:  # no Inductor/Triton: say so rather than skip silently
        print(json.dumps({"peer": "torch_compile_add_layer_norm", "error": str(e)[:200]}))
    # ms: one call between two events, as tegula_bench_cuda times its kernels; ms_burst10: ten
    # calls back to back between the events, per call, which hides the host time of a
    # torch.compile call (guards, Python) behind the kernels as a serving loop does.
    for name, fn in peers:
        ms = median_ms(fn, 10, 100)
        burst = median_ms(lambda: [fn() for _ in range(10)], 3, 20) / 10
        print(json.dumps({"peer": name, "m": m, "n": n, "ms": round(ms, 4), "ms_burst10": round(burst, 4),
                          "tbps": round(4 * nbytes / (ms * 1e-3) / 1e12, 3), "tbps_burst10": round(4 * nbytes / (burst * 1e-3) / 1e12, 3)}))
        sys.stdout.flush()
    del x, w, b, y, r, h


def main():
    only = sys.argv[1] if len(sys.argv) > 1 else "all"
    dev = torch.device("cuda")
    torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction = False
    torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction = False
    print(json.dumps({"peer": "device", "name": torch.cuda.get_device_name(0), "torch": torch.__version__}))
    if only == "mla":
        mla_decode(dev)
        return
    if only.startswith("gemmshapes"):  # not in "all": run_all.sh's tunebench step ("gemmshapes:bf16,f16")
        parts = only.split(":")  # gemmshapes[:dtypes[:reps]]
        gemm_shapes(dev, parts[1].split(",") if len(parts) > 1 else ["bf16"], int(parts[2]) if len(parts) > 2 else 10)
        return
    if only == "mamba2":  # not in "all": run_all.sh's mamba2bench step
        mamba2(dev)
        return
    if only == "norm":  # run_all.sh's normbench step (also in "all")
        norms(dev)
        return
    if only == "attention":  # not in "all": run_all.sh's attnbench step
        attention(dev)
        return
    for n in (4096, 8192):
        for dt, name in ((torch.bfloat16, "bf16"), (torch.float16, "f16")):
            a = (torch.rand(n, n, device=dev) * 2 - 1).to(dt)
            b = (torch.rand(n, n, device=dev) * 2 - 1).to(dt)
            c = torch.empty(n, n, device=dev, dtype=dt)
            ms = median_ms(lambda: torch.matmul(a, b, out=c), 10, 30 if n >= 8192 else 100)
            print(json.dumps({"peer": "cublas_gemm", "dtype": name, "n": n, "ms": round(ms, 4), "tflops": round(2 * n**3 / (ms * 1e-3) / 1e12, 1)}))
            sys.stdout.flush()
            del a, b, c
    # FP8: cuBLASLt through torch._scaled_mm, e4m3 A [n, k] row-major and B column-major (its
    # only layout), per-tensor f32 scales, bf16 out.
    n = 8192
    a = (torch.rand(n, n, device=dev) * 2 - 1).to(torch.float8_e4m3fn)
    bt = (torch.rand(n, n, device=dev) * 2 - 1).to(torch.float8_e4m3fn)
    sa = torch.tensor(0.5, device=dev)
    sb = torch.tensor(2.0, device=dev)
    # use_fast_accum=False (the default) promotes partial sums to f32 as it goes; True
    # accumulates in the tensor cores' own precision, as tegula's fp8 gemm does.
    for fast in (False, True):
        ms = median_ms(lambda: torch._scaled_mm(a, bt.t(), scale_a=sa, scale_b=sb, out_dtype=torch.bfloat16, use_fast_accum=fast), 10, 30)
        print(json.dumps({"peer": "cublaslt_fp8_gemm", "dtype": "e4m3", "fast_accum": fast, "n": n, "ms": round(ms, 4),
                          "tflops": round(2 * n**3 / (ms * 1e-3) / 1e12, 1)}))
        sys.stdout.flush()
    del a, bt
    # W4A16: what a user without an int4 kernel runs, the f16 matmul with the weight
    # dequantised once (w [n, k], as the packed weight's rows; x @ w.t() is cuBLAS's GEMV for
    # m = 1). The bytes are the f16 weight's, X's and Y's, as tegula_bench_cuda counts its own.
    n = k = 8192
    w = (torch.rand(n, k, device=dev) * 2 - 1).to(torch.float16)
    for m in (1, 16, 4096):
        x = (torch.rand(m, k, device=dev) * 2 - 1).to(torch.float16)
        y = torch.empty(m, n, device=dev, dtype=torch.float16)
        ms = median_ms(lambda: torch.matmul(x, w.t(), out=y), 10, 30 if m >= 4096 else 100)
        nbytes = w.numel() * 2 + (x.numel() + y.numel()) * 2
        print(json.dumps({"peer": "cublas_f16_dequantised_int4", "m": m, "n": n, "k": k, "ms": round(ms, 4),
                          "tbps": round(nbytes / (ms * 1e-3) / 1e12, 3), "tflops": round(2 * m * n * k / (ms * 1e-3) / 1e12, 1)}))
        sys.stdout.flush()
        del x, y
    del w
    m, n = 8192, 16384
    x = (torch.rand(m, n, device=dev) * 2 - 1).to(torch.float16)
    y = torch.empty_like(x)
    nbytes = x.numel() * 2
    ms = median_ms(lambda: y.copy_(x), 10, 100)
    print(json.dumps({"peer": "d2d_copy", "bytes": nbytes, "ms": round(ms, 4), "tbps": round(2 * nbytes / (ms * 1e-3) / 1e12, 3)}))
    ms = median_ms(lambda: torch.softmax(x, dim=1), 10, 100)
    print(json.dumps({"peer": "torch_softmax", "m": m, "n": n, "ms": round(ms, 4), "tbps": round(2 * nbytes / (ms * 1e-3) / 1e12, 3)}))
    del x, y
    norms(dev)
    mla_decode(dev)


if __name__ == "__main__":
    main()
