// TensorFlow.js 4.22 under node: tfjs-backend-wasm (SIMD, 1 thread) and tfjs-backend-cpu, one
// JSON object per line like bench_kernels.cpp. scripts/bench.mjs runs it as a child process.
//   node bench/tfjs/node.mjs [--backends wasm,cpu] [--only gemm|train]
import * as tfc from "@tensorflow/tfjs-core";
import * as tfl from "@tensorflow/tfjs-layers";
import "@tensorflow/tfjs-backend-cpu";
import * as tfwasm from "@tensorflow/tfjs-backend-wasm";
import {
  GEMM_SIZES,
  MODELS,
  benchGemm,
  benchTrainStep,
  registerWasmSegmentSum,
} from "./tfjs_bench.mjs";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : fallback;
};
const backends = option("--backends", "wasm,cpu").split(",");
const only = option("--only", "all");

const tf = {
  ...tfc,
  ...tfl,
  serialization: tfc.serialization,
  train: tfc.train,
};
const print = (record) => process.stdout.write(`${JSON.stringify(record)}\n`);

// One thread, the plain SIMD binary (tfjs-backend-wasm-simd.wasm): set before the backend starts.
tfwasm.setThreadsCount(1);
tfc.env().set("WASM_HAS_MULTITHREAD_SUPPORT", false);
const segmentSum = registerWasmSegmentSum(tfc);

for (const backend of backends) {
  if (!(await tfc.setBackend(backend)))
    throw new Error(`tfjs backend ${backend} did not start`);
  await tfc.ready();
  const impl = `tfjs-${backend}`;
  const info = {
    impl,
    kernel: "info",
    tfjs: tfc.version_core,
    backend,
    simd:
      backend === "wasm"
        ? await tfc.env().getAsync("WASM_HAS_SIMD_SUPPORT")
        : null,
    threads: backend === "wasm" ? tfwasm.getThreadsCount() : 1,
    unsorted_segment_sum:
      backend === "wasm" && segmentSum
        ? "registered by the bench (JS loop)"
        : "backend kernel",
  };
  print(info);
  if (only !== "train")
    for (const [m, n, k] of GEMM_SIZES)
      print(await benchGemm(tf, impl, m, n, k));
  if (only !== "gemm")
    for (const model of MODELS) print(await benchTrainStep(tf, impl, model));
}
