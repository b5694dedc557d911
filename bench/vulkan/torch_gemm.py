"""cuBLAS f16 gemm (f16 inputs, f32 accumulation, f16 output) through PyTorch, the peer of
vulkan_gemm_bench: same size, timed with CUDA events over back-to-back products (median of five batches after
a 200 ms warm-up).

    python3 torch_gemm.py [SIZE=4096] [REPEATS=50]
"""
import sys
import time

import torch

n = int(sys.argv[1]) if len(sys.argv) > 1 else 4096
repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 50
# Accumulate in f32, as the tegula kernel does.
torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction = False
a = (torch.rand(n, n, device="cuda") * 2 - 1).half()
b = (torch.rand(n, n, device="cuda") * 2 - 1).half()
# Warm up for at least 200 ms of products (clocks leave their idle state), then time five
# batches of REPEATS back-to-back products and report the median batch, as vulkan_gemm_bench does.
torch.cuda.synchronize()
t0 = time.perf_counter()
while time.perf_counter() - t0 < 0.2:
    c = a @ b
    torch.cuda.synchronize()
batches = []
for _ in range(5):
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(repeats):
        c = a @ b
    end.record()
    torch.cuda.synchronize()
    batches.append(start.elapsed_time(end) / repeats)
ms = sorted(batches)[2]
print(f"device: {torch.cuda.get_device_name()}, torch {torch.__version__}, cuBLAS {torch.backends.cudnn.version() and torch.version.cuda}")
print(f"cublas f16 {n}^3: {ms:.3f} ms, {2 * n**3 / (ms * 1e-3) / 1e12:.1f} TFLOP/s")
