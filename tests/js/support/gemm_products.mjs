// Shared by tests/js/gemm_fma.test.mjs and the child node it starts with relaxed SIMD enabled
// (`node --experimental-wasm-relaxed-simd tests/js/support/gemm_products.mjs` prints the report).
import { pathToFileURL } from 'node:url';
import { loadEngine, SMALL_MODEL } from './engine.mjs';

// (module (func (param v128 v128 v128) (result v128) local.get 0 local.get 1 local.get 2
// f32x4.relaxed_madd)): valid only where the engine has relaxed SIMD.
export const RELAXED_PROBE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x01, 0x60, 0x03, 0x7b, 0x7b, 0x7b, 0x01, 0x7b, 0x03,
  0x02, 0x01, 0x00, 0x0a, 0x0d, 0x01, 0x0b, 0x00, 0x20, 0x00, 0x20, 0x01, 0x20, 0x02, 0xfd, 0x85, 0x02, 0x0b,
]);

// Shapes through every path of kernels::gemm: the direct loop (≤ 512 multiply-adds), in-place
// and packed slivers, ragged edges in M and N, and K over one block (256).
export const SHAPES = [
  [3, 5, 7],
  [4, 8, 16],
  [32, 512, 128],
  [33, 19, 300],
  [7, 130, 61],
  [64, 64, 64],
];

// Deterministic values in [-1, 1) (a 32-bit LCG), so both processes multiply the same matrices.
export function matrix(rows, cols, seed) {
  const data = new Float32Array(rows * cols);
  let s = seed >>> 0;
  for (let i = 0; i < data.length; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    data[i] = s / 2 ** 31 - 1;
  }
  return { shape: [rows, cols], data };
}

/** engine.matmul over SHAPES: [{a, b, c}] with c as a plain array. */
export function products(engine) {
  return SHAPES.map(([m, n, k], i) => {
    const a = matrix(m, k, 11 + i);
    const b = matrix(k, n, 97 + i);
    const c = engine.matmul(a, b);
    if (c.shape[0] !== m || c.shape[1] !== n) throw new Error(`matmul gave shape ${c.shape}`);
    return { a, b, c: Array.from(c.data) };
  });
}

// engine.gemm's flags: transposed A read in place down its columns (a ragged last sliver packed,
// several K blocks), transposed B packed, alpha applied by the FMA panel function, and the
// Transformer step's per-head shapes ([M, N, K]: dVᵀ = dOᵀ P, S = QKᵀ / 4).
export const FLAGGED = [
  { shape: [37, 45, 33], transposeA: true, transposeB: false, alpha: 1 },
  { shape: [33, 40, 600], transposeA: true, transposeB: false, alpha: 1 },
  { shape: [37, 45, 33], transposeA: true, transposeB: true, alpha: -1.5 },
  { shape: [37, 45, 33], transposeA: false, transposeB: true, alpha: 0.25 },
  { shape: [64, 48, 40], transposeA: false, transposeB: false, alpha: 3 },
  { shape: [16, 200, 200], transposeA: true, transposeB: false, alpha: 1 },
  { shape: [200, 200, 16], transposeA: false, transposeB: true, alpha: 0.25 },
];

/** engine.gemm over FLAGGED: [{a, b, c, ...flags}], a and b stored transposed where flagged. */
export function flaggedProducts(engine) {
  return FLAGGED.map(({ shape: [m, n, k], transposeA, transposeB, alpha }, i) => {
    const a = transposeA ? matrix(k, m, 31 + i) : matrix(m, k, 31 + i);
    const b = transposeB ? matrix(n, k, 131 + i) : matrix(k, n, 131 + i);
    const c = engine.gemm(a, b, { transposeA, transposeB, alpha });
    if (c.shape[0] !== m || c.shape[1] !== n) throw new Error(`gemm gave shape ${c.shape}`);
    return { a, b, c: Array.from(c.data), m, n, k, transposeA, transposeB, alpha };
  });
}

/** The per-step losses of a short run of model (a)'s small twin on the built-in corpus. */
export function trainingLosses(engine) {
  const s = new engine.SentimentSession();
  try {
    s.loadBuiltin();
    s.createModel(SMALL_MODEL);
    s.startTraining({ epochs: 2, batchSize: 16, learningRate: 0.005, validationSplit: 0.1, seed: 2 });
    return Array.from(s.runSteps(40).losses);
  } finally {
    s.delete();
  }
}

export async function report() {
  const engine = await loadEngine();
  return {
    relaxed: WebAssembly.validate(RELAXED_PROBE),
    implementation: engine.gemmImplementation(),
    products: products(engine).map(({ c }) => c),
    flagged: flaggedProducts(engine).map(({ c }) => c),
    losses: trainingLosses(engine),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.stdout.write(JSON.stringify(await report()));
