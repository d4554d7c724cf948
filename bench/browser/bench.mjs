// The benchmark page: loads one implementation (?impl=...) and exposes
//   window.benchReady   a promise that settles once it is loaded, with an info object
//   window.benchRun(item) -> Promise<records>, item = ['gemm', m, n, k] | ['train', model]
// so the driver (bench/browser/run.mjs) can time each item on its own, bracketed by Chromium's
// process CPU clock. Runs on the main thread: nothing else happens on this page.
//   wasm-simd, wasm-scalar  our bench program (build/wasm-bench-*/attn_bench.mjs, the same file
//                           node runs), loaded as a classic script with Module.noInitialRun; each
//                           item is one callMain.
//   tfjs-wasm, tfjs-cpu     TensorFlow.js 4.22's browser bundles from node_modules and the same
//                           bench/tfjs/tfjs_bench.mjs node runs; wasm: SIMD, 1 thread.
const params = new URLSearchParams(location.search);
const impl = params.get("impl");
const status = document.getElementById("status");

function loadScript(src) {
  return new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = src;
    script.onload = resolve;
    script.onerror = () => reject(new Error(`could not load ${src}`));
    document.head.append(script);
  });
}

async function loadOurs(dir) {
  let lines = [];
  const ready = new Promise((resolve, reject) => {
    window.Module = {
      noInitialRun: true,
      noExitRuntime: true,
      print: (line) => lines.push(line),
      printErr: (line) => console.warn(line),
      onRuntimeInitialized: resolve,
      onAbort: reject,
    };
  });
  await loadScript(`/${dir}/attn_bench.mjs`);
  await ready;
  window.benchRun = async (item) => {
    lines = [];
    const status = window.Module.callMain(item.map(String));
    if (status)
      throw new Error(`attn_bench ${item.join(" ")} exited with ${status}`);
    return lines
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line));
  };
  return { impl, crossOriginIsolated: self.crossOriginIsolated };
}

async function loadTfjs(backend) {
  const dist = (name) => `/node_modules/@tensorflow/${name}/dist`;
  await loadScript(`${dist("tfjs-core")}/tf-core.min.js`);
  await loadScript(`${dist("tfjs-layers")}/tf-layers.min.js`);
  await loadScript(`${dist("tfjs-backend-cpu")}/tf-backend-cpu.min.js`);
  await loadScript(`${dist("tfjs-backend-wasm")}/tf-backend-wasm.min.js`);
  const tf = window.tf;
  const bench = await import("/bench/tfjs/tfjs_bench.mjs");
  const segmentSum = bench.registerWasmSegmentSum(tf);
  if (backend === "wasm") {
    tf.wasm.setWasmPaths(`${dist("tfjs-backend-wasm")}/`);
    tf.wasm.setThreadsCount(1);
    tf.env().set("WASM_HAS_MULTITHREAD_SUPPORT", false);
  }
  if (!(await tf.setBackend(backend)))
    throw new Error(`tfjs backend ${backend} did not start`);
  await tf.ready();
  const name = `tfjs-${backend}`;
  window.benchRun = async (item) => {
    if (item[0] === "gemm")
      return [await bench.benchGemm(tf, name, item[1], item[2], item[3])];
    return [await bench.benchTrainStep(tf, name, item[1])];
  };
  return {
    impl,
    tfjs: tf.version_core,
    simd:
      backend === "wasm"
        ? await tf.env().getAsync("WASM_HAS_SIMD_SUPPORT")
        : null,
    threads: backend === "wasm" ? tf.wasm.getThreadsCount() : 1,
    unsorted_segment_sum:
      backend === "wasm" && segmentSum
        ? "registered by the bench (JS loop)"
        : "backend kernel",
  };
}

const loaders = {
  "wasm-simd": () => loadOurs("build/wasm-bench-simd"),
  "wasm-scalar": () => loadOurs("build/wasm-bench-scalar"),
  "tfjs-wasm": () => loadTfjs("wasm"),
  "tfjs-cpu": () => loadTfjs("cpu"),
};

window.benchReady = (
  loaders[impl] ?? (() => Promise.reject(new Error(`unknown impl ${impl}`)))
)();
window.benchReady.then(
  () => (status.textContent = `ready: ${impl}`),
  (error) => (status.textContent = `failed: ${error.message ?? error}`),
);
