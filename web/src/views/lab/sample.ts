// Seeded standard-normal samples for the lab's random vectors (the experiment's q and K, the
// self-attention's Q, K, V). They are inputs the learner can reproduce from the seed in the URL;
// all the attention arithmetic on them is done by the engine.

/** mulberry32: a small, well-mixed 32-bit generator; the same seed gives the same stream. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` draws from N(0, 1) (Box–Muller), from a stream named by (seed, stream). */
export function normals(seed: number, stream: number, count: number): Float32Array {
  const uniform = mulberry32(Math.imul(seed + 1, 0x9e3779b1) ^ Math.imul(stream + 1, 0x85ebca6b));
  const out = new Float32Array(count);
  for (let i = 0; i < count; i += 2) {
    const u = 1 - uniform(); // (0, 1]: log(u) is finite
    const v = uniform();
    const r = Math.sqrt(-2 * Math.log(u));
    out[i] = r * Math.cos(2 * Math.PI * v);
    if (i + 1 < count) out[i + 1] = r * Math.sin(2 * Math.PI * v);
  }
  return out;
}
