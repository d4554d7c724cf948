// TensorFlow.js peers of our benchmarks, written once for node (bench/tfjs/node.mjs) and for
// Chromium (bench/browser/): every function takes the `tf` namespace (tfjs-core + tfjs-layers +
// the backends already registered) so this file imports nothing.
//
//   gemm:        tf.matMul at the sizes bench/bench_kernels.cpp times (warm-up, tf.tidy, dataSync).
//   train_step:  one optimisation step (forward, binary cross-entropy, backward, Adam) on a batch
//                of 32 random reviews × 200 tokens, vocabulary 5000, of the same two models as ours:
//     bilstm-attention    Embedding(5000, 32) → Bidirectional(LSTM(32, return_sequences))
//                         → additive attention pooling (a custom layer) → Dense(1, sigmoid),
//                         built from tfjs-layers and trained with model.trainOnBatch;
//     transformer-1block  Embedding · √32 + sinusoidal PE → one pre-norm block (LN → 2-head
//                         self-attention → residual, LN → Dense(64, GELU) → Dense(32) → residual)
//                         → LayerNorm → additive attention pooling → Dense(1); tfjs 4.22 has no
//                         multi-head-attention layer, so this one is a functional forward over
//                         tf.variables trained with optimizer.minimize.
//   Both have exactly our parameter counts (178,817 and 169,729), printed with each result.
//   Not reproduced: our gradient-norm clipping (tfjs optimizers have no clipnorm), a few
//   thousand flops per step.
//
// The wasm backend has no kernel for UnsortedSegmentSum, which the gradient of the embedding
// lookup (tf.gather) needs; registerWasmSegmentSum adds one (a plain JS loop over the wasm heap,
// what tfjs-backend-cpu does) so the embedding trains there too.

export const GEMM_SIZES = [
  [32, 512, 128],
  [64, 64, 64],
  [256, 256, 256],
  [6400, 128, 32],
  [32, 128, 32],
];
export const MODELS = ["bilstm-attention", "transformer-1block"];
export const EXPECTED_PARAMS = {
  "bilstm-attention": 178817,
  "transformer-1block": 169729,
};

const BATCH = 32;
const MAXLEN = 200;
const VOCAB = 5000;
const D = 32; // embedding size = d_model = LSTM units = attention size
const HEADS = 2;
const FF = 64;

/** Registers a JS UnsortedSegmentSum for the wasm backend (once); returns true if it added it. */
export function registerWasmSegmentSum(tf) {
  if (tf.getKernel("UnsortedSegmentSum", "wasm")) return false;
  tf.registerKernel({
    kernelName: "UnsortedSegmentSum",
    backendName: "wasm",
    kernelFunc: ({ inputs, backend, attrs }) => {
      const { x, segmentIds } = inputs;
      const { numSegments } = attrs;
      // x [N, ...inner] summed into out [numSegments, ...inner] by segmentIds [N].
      const rows = segmentIds.shape.reduce((a, b) => a * b, 1);
      const innerShape = x.shape.slice(segmentIds.shape.length);
      const inner = innerShape.reduce((a, b) => a * b, 1);
      const out = backend.makeOutput([numSegments, ...innerShape], x.dtype);
      const xs = backend.typedArrayFromHeap(x);
      const ids = backend.typedArrayFromHeap(segmentIds);
      const sums = backend.typedArrayFromHeap(out);
      sums.fill(0);
      for (let r = 0; r < rows; ++r) {
        const s = ids[r];
        if (s < 0 || s >= numSegments) continue;
        const from = r * inner;
        const to = s * inner;
        for (let j = 0; j < inner; ++j) sums[to + j] += xs[from + j];
      }
      return out;
    },
  });
  return true;
}

// Seconds on the best clock the platform has: process CPU time under node (the machine is
// shared, so wall time measures the load as much as the code), wall time in a browser.
function makeClock() {
  const hasCpu =
    typeof process !== "undefined" && typeof process.cpuUsage === "function";
  const wall = () => performance.now() * 1e-3;
  const cpu = hasCpu
    ? () => {
        const u = process.cpuUsage();
        return (u.user + u.system) * 1e-6;
      }
    : null;
  return { wall, cpu };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// Median seconds per call on both clocks, like bench_kernels.cpp: warm-up, calibration to
// samples of >= minSample seconds, then `samples` samples.
// Warm-up and calibration are paced by the CPU clock where there is one (a loaded machine would
// otherwise cut the warm-up short before V8 has optimised the hot code).
// Without a CPU clock (a browser) the wall-clock warm-up is 4× longer.
// `finish` (optional) runs once at the end of each sample, inside the timing (e.g. a read-back
// that proves the work is done).
async function timeCalls(
  run,
  {
    warmUp = 0.25,
    minSample = 0.02,
    samples = 7,
    minWarmUpCalls = 2,
    finish = () => {},
  } = {},
) {
  const clock = makeClock();
  if (!clock.cpu) warmUp *= 4; // eslint-disable-line no-param-reassign
  const work = clock.cpu ?? clock.wall;
  const start = work();
  for (let i = 0; i < minWarmUpCalls || work() - start < warmUp; ++i)
    await run();
  let calls = 1;
  for (;;) {
    const t0 = work();
    for (let i = 0; i < calls; ++i) await run();
    if (work() - t0 >= minSample) break;
    calls *= 2;
  }
  const wall = [];
  const cpu = [];
  for (let s = 0; s < samples; ++s) {
    const c0 = clock.cpu?.();
    const t0 = clock.wall();
    for (let i = 0; i < calls; ++i) await run();
    await finish();
    wall.push((clock.wall() - t0) / calls);
    if (clock.cpu) cpu.push((clock.cpu() - c0) / calls);
  }
  const w = median(wall);
  const c = cpu.length ? median(cpu) : null;
  return {
    seconds: c ?? w,
    wall: w,
    fastestWall: Math.min(...wall),
    clock: c === null ? "wall" : "cpu",
  };
}

function randomMatrix(tf, rows, cols, seed) {
  return tf.randomUniform([rows, cols], -1, 1, "float32", seed);
}

/**
 * GFLOP/s of tf.matMul at m×k · k×n on the current backend. The wasm and cpu backends compute
 * synchronously inside tf.matMul, so each call just disposes the previous product and each
 * sample ends with one dataSync of the last. (A dataSync per call, as first written, made tfjs-backend-wasm 4-30× slower:
 * reading a result back costs far more than a small product, and is not what a model does.)
 */
export async function benchGemm(tf, impl, m, n, k) {
  const a = randomMatrix(tf, m, k, 1);
  const b = randomMatrix(tf, k, n, 2);
  let last = null;
  const t = await timeCalls(
    () => {
      last?.dispose();
      last = tf.matMul(a, b);
    },
    { finish: () => last.dataSync() },
  );
  last.dispose();
  a.dispose();
  b.dispose();
  const flops = 2 * m * n * k;
  return {
    impl,
    kernel: "gemm",
    m,
    n,
    k,
    gflops: (flops / t.seconds) * 1e-9,
    gflops_wall: (flops / t.wall) * 1e-9,
    gflops_fastest_wall: (flops / t.fastestWall) * 1e-9,
    clock: t.clock,
  };
}

// --- model (a): layers + a custom additive attention pooling layer ---------------------------

function attentionPoolingClass(tf) {
  // score_t = vᵀ tanh(W h_t + b), weights = softmax_t(score), pooled = Σ_t weights_t h_t.
  class AttentionPooling extends tf.layers.Layer {
    static className = "AttentionPoolingBench";
    constructor(config) {
      super(config);
      this.units = config.units;
    }
    build(inputShape) {
      const d = inputShape[inputShape.length - 1];
      this.w = this.addWeight(
        "w",
        [d, this.units],
        "float32",
        tf.initializers.glorotUniform({}),
      );
      this.b = this.addWeight(
        "b",
        [this.units],
        "float32",
        tf.initializers.zeros(),
      );
      this.v = this.addWeight(
        "v",
        [this.units, 1],
        "float32",
        tf.initializers.glorotUniform({}),
      );
      this.built = true;
    }
    computeOutputShape(inputShape) {
      return [inputShape[0], inputShape[2]];
    }
    call(inputs) {
      return tf.tidy(() => {
        const h = Array.isArray(inputs) ? inputs[0] : inputs;
        return additivePool(tf, h, this.w.read(), this.b.read(), this.v.read());
      });
    }
  }
  return AttentionPooling;
}

// h [B, T, Dh], w [Dh, A], b [A], v [A, 1] -> pooled [B, Dh]
function additivePool(tf, h, w, b, v) {
  const [batch, time, dh] = h.shape;
  const e = tf.tanh(tf.add(tf.matMul(tf.reshape(h, [batch * time, dh]), w), b));
  const weights = tf.softmax(tf.reshape(tf.matMul(e, v), [batch, time]));
  return tf.reshape(tf.matMul(tf.expandDims(weights, 1), h), [batch, dh]);
}

let poolingClass = null;

function buildBilstm(tf) {
  if (!poolingClass) {
    poolingClass = attentionPoolingClass(tf);
    tf.serialization.registerClass(poolingClass);
  }
  const ids = tf.input({ shape: [MAXLEN], dtype: "int32" });
  let x = tf.layers.embedding({ inputDim: VOCAB, outputDim: D }).apply(ids);
  x = tf.layers
    .bidirectional({
      // Recurrent weights U(±1/√U) like ours (tfjs' default orthogonal initializer also fails
      // with tfjs-core 4.22: "rMat.flatten is not a function").
      layer: tf.layers.lstm({
        units: D,
        returnSequences: true,
        recurrentInitializer: tf.initializers.randomUniform({
          minval: -1 / Math.sqrt(D),
          maxval: 1 / Math.sqrt(D),
        }),
      }),
      mergeMode: "concat",
    })
    .apply(x);
  x = new poolingClass({ units: D }).apply(x);
  const out = tf.layers.dense({ units: 1, activation: "sigmoid" }).apply(x);
  const model = tf.model({ inputs: ids, outputs: out });
  model.compile({ optimizer: tf.train.adam(1e-3), loss: "binaryCrossentropy" });
  return {
    params: model.countParams(),
    step: async (xs, ys) => {
      await model.trainOnBatch(xs, ys);
    },
    dispose: () => model.dispose(),
  };
}

// --- the 1-block Transformer: a functional forward over tf.variables ------------------------

function sinusoidalPositions(tf) {
  const pe = new Float32Array(MAXLEN * D);
  for (let t = 0; t < MAXLEN; ++t) {
    for (let i = 0; i < D; i += 2) {
      const angle = t / Math.pow(10000, i / D);
      pe[t * D + i] = Math.sin(angle);
      pe[t * D + i + 1] = Math.cos(angle);
    }
  }
  return tf.tensor2d(pe, [MAXLEN, D]);
}

function buildTransformer(tf) {
  const glorot = (shape, seed) => {
    const limit = Math.sqrt(6 / (shape[0] + shape[1]));
    return tf.variable(tf.randomUniform(shape, -limit, limit, "float32", seed));
  };
  const zeros = (shape) => tf.variable(tf.zeros(shape));
  const ones = (shape) => tf.variable(tf.ones(shape));
  const p = {
    embedding: tf.variable(
      tf.randomUniform([VOCAB, D], -0.05, 0.05, "float32", 3),
    ),
    ln1_g: ones([D]),
    ln1_b: zeros([D]),
    wq: glorot([D, D], 4),
    bq: zeros([D]),
    wk: glorot([D, D], 5),
    bk: zeros([D]),
    wv: glorot([D, D], 6),
    bv: zeros([D]),
    wo: glorot([D, D], 7),
    bo: zeros([D]),
    ln2_g: ones([D]),
    ln2_b: zeros([D]),
    ff1_w: glorot([D, FF], 8),
    ff1_b: zeros([FF]),
    ff2_w: glorot([FF, D], 9),
    ff2_b: zeros([D]),
    lnf_g: ones([D]),
    lnf_b: zeros([D]),
    pool_w: glorot([D, D], 10),
    pool_b: zeros([D]),
    pool_v: glorot([D, 1], 11),
    out_w: glorot([D, 1], 12),
    out_b: zeros([1]),
  };
  const pe = sinusoidalPositions(tf);
  const dh = D / HEADS;
  const layerNorm = (x, g, b) => {
    const mean = tf.mean(x, -1, true);
    const centred = tf.sub(x, mean);
    const variance = tf.mean(tf.square(centred), -1, true);
    return tf.add(
      tf.mul(tf.mul(centred, tf.rsqrt(tf.add(variance, 1e-5))), g),
      b,
    );
  };
  // x [B·T, D] -> [B, H, T, Dh]
  const heads = (x) =>
    tf.transpose(tf.reshape(x, [BATCH, MAXLEN, HEADS, dh]), [0, 2, 1, 3]);
  const gelu = (x) =>
    tf.mul(
      tf.mul(x, 0.5),
      tf.add(
        1,
        tf.tanh(
          tf.mul(
            tf.add(x, tf.mul(tf.pow(x, 3), 0.044715)),
            Math.sqrt(2 / Math.PI),
          ),
        ),
      ),
    );
  const dense = (x, w, b) => tf.add(tf.matMul(x, w), b);
  const forward = (ids) => {
    const x = tf.add(tf.mul(tf.gather(p.embedding, ids), Math.sqrt(D)), pe); // [B, T, D]
    const flat = tf.reshape(x, [BATCH * MAXLEN, D]);
    const h1 = layerNorm(flat, p.ln1_g, p.ln1_b);
    const q = heads(dense(h1, p.wq, p.bq));
    const k = heads(dense(h1, p.wk, p.bk));
    const v = heads(dense(h1, p.wv, p.bv));
    const weights = tf.softmax(
      tf.mul(tf.matMul(q, k, false, true), 1 / Math.sqrt(dh)),
    ); // [B, H, T, T]
    const mixed = tf.reshape(
      tf.transpose(tf.matMul(weights, v), [0, 2, 1, 3]),
      [BATCH * MAXLEN, D],
    );
    const a = tf.add(flat, dense(mixed, p.wo, p.bo));
    const f = dense(
      gelu(dense(layerNorm(a, p.ln2_g, p.ln2_b), p.ff1_w, p.ff1_b)),
      p.ff2_w,
      p.ff2_b,
    );
    const y = layerNorm(tf.add(a, f), p.lnf_g, p.lnf_b);
    const pooled = additivePool(
      tf,
      tf.reshape(y, [BATCH, MAXLEN, D]),
      p.pool_w,
      p.pool_b,
      p.pool_v,
    );
    return tf.reshape(dense(pooled, p.out_w, p.out_b), [BATCH]);
  };
  const optimizer = tf.train.adam(1e-3);
  const vars = Object.values(p);
  return {
    params: vars.reduce((n, v) => n + v.size, 0),
    step: async (xs, ys) => {
      const loss = optimizer.minimize(
        () => tf.losses.sigmoidCrossEntropy(ys, forward(xs)),
        true,
        vars,
      );
      loss.dataSync();
      loss.dispose();
    },
    dispose: () => {
      for (const v of vars) v.dispose();
      pe.dispose();
      optimizer.dispose();
    },
  };
}

/** ms per training step of `model` on the current backend. */
export async function benchTrainStep(tf, impl, model) {
  const built =
    model === "transformer-1block" ? buildTransformer(tf) : buildBilstm(tf);
  if (built.params !== EXPECTED_PARAMS[model]) {
    throw new Error(
      `${model}: ${built.params} parameters, ours has ${EXPECTED_PARAMS[model]}`,
    );
  }
  // Random reviews (ids 4..4999, no padding) and labels, like bench_kernels.cpp.
  const ids = new Int32Array(BATCH * MAXLEN);
  let state = 5;
  const next = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0);
  for (let i = 0; i < ids.length; ++i) ids[i] = 4 + (next() % (VOCAB - 4));
  const labels = Float32Array.from({ length: BATCH }, () => next() % 2);
  const xs = tf.tensor2d(ids, [BATCH, MAXLEN], "int32");
  const ys =
    model === "transformer-1block"
      ? tf.tensor1d(labels)
      : tf.tensor2d(labels, [BATCH, 1]);
  // Whole steps are long: 2 warm-up steps and the median of 3 (tfjs-backend-cpu, 10-50× slower
  // than the rest: 1 warm-up step and 1 timed step, to keep the run under a few minutes).
  const slow = impl.startsWith("tfjs-cpu");
  const t = await timeCalls(() => built.step(xs, ys), {
    warmUp: 0,
    minSample: 0,
    samples: slow ? 1 : 3,
    minWarmUpCalls: slow ? 1 : 2,
  });
  xs.dispose();
  ys.dispose();
  built.dispose();
  return {
    impl,
    kernel: "train_step",
    model,
    batch: BATCH,
    maxlen: MAXLEN,
    params: built.params,
    ms_per_step: t.seconds * 1e3,
    tokens_per_s: (BATCH * MAXLEN) / t.seconds,
    ms_per_step_wall: t.wall * 1e3,
    ms_per_step_fastest_wall: t.fastestWall * 1e3,
    clock: t.clock,
  };
}
