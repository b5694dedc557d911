#!/usr/bin/env bash
# The main job: the conformance suite on every device this machine has (and offline for
# targets with no device here) with each device's performance figures (--perf), writing a
# report bundle into ./tegula-conformance-<date>/, verified afterwards; then every example kernel on the default device, checked against its
# direct computation. Every step runs whatever the earlier ones gave; the script exits with
# the status of the first step that failed (0 when all passed), so a non-conformant run is
# still verified and the examples still run.
set -uo pipefail
cd "$(dirname "$0")/.."
tegula=build/bin/tegula

first_failure=0
# Runs its arguments; remembers the first non-zero status and which command gave it.
step() {
  "$@"
  local rc=$?
  if [ "$rc" -ne 0 ]; then
    echo "main_job: '$*' exited $rc" >&2
    [ "$first_failure" -eq 0 ] && first_failure=$rc
  fi
  return 0
}

step "$tegula" devices
out="tegula-conformance-$(date +%Y%m%d-%H%M%S)"
step "$tegula" conformance --perf --out "$out"
step "$tegula" conformance verify "$out"

runs=(
  "examples/gemm/gemm_bf16.tile M=256,N=256,K=256"
  "examples/gemm/gemm_bf16.tile M=131,N=257,K=67"
  "examples/gemm/gemm_f16.tile M=200,N=136,K=96"
  "examples/softmax/softmax_rows.tile M=33,N=1031"
  "examples/reduce/row_sum.tile M=17,N=1537"
  "examples/elementwise/silu_mul.tile N=10007"
  "examples/elementwise/silu_mul_parallel.tile N=3001"
  "examples/quant/gemv_int4.tile M=1,N=4096,K=4096,KW=512,G=32"
  "examples/quant/gemv_int4_zp.tile M=3,N=1031,K=1100,KW=138,G=9"
  "examples/quant/gemm_int4.tile M=200,N=136,K=300,KW=38,G=3"
  "examples/quant/gemm_int4_zp.tile M=200,N=136,K=300,KW=38,G=3"
  "examples/norm/rmsnorm.tile M=7,N=1031"
  "examples/norm/layernorm.tile M=9,N=1031"
  "examples/norm/rmsnorm_residual.tile M=6,N=1536"
  "examples/norm/layernorm_residual.tile M=5,N=1031"
  "examples/quant/gemm_fp8.tile M=67,N=131,K=257"
  "examples/attention/flash_attn_d64.tile B=2,H=3,S=130"
  "examples/attention/flash_attn_causal_d128.tile B=1,H=2,S=200"
  # The MLA splits need 144 KiB of shared memory, which the default device here (lavapipe)
  # lacks; their runs are in the tests and the conformance rows. The combine runs anywhere.
  "examples/mla/mla_combine.tile B=3,H=130,NS=5"
)
failed=0
for r in "${runs[@]}"; do
  set -- $r
  echo "== tegula run $1 --bind $2"
  "$tegula" run "$1" --bind "$2" --seed 1
  rc=$?
  if [ "$rc" -ne 0 ]; then
    failed=$((failed + 1))
    [ "$first_failure" -eq 0 ] && first_failure=$rc
  fi
done
echo "examples: $(( ${#runs[@]} - failed )) of ${#runs[@]} runs passed; conformance report in $out/report.html"
exit "$first_failure"
