// Types of the wasm module built from wasm/*.cpp (installed next to it as attn_engine.d.mts).
// Every function copies its inputs into the wasm heap and returns fresh JS arrays: nothing
// returned aliases wasm memory, so results stay valid after later calls. Optional arguments
// must still be passed (as undefined or null): Embind checks the argument count.
// Any invalid input throws a JS Error whose message comes from the C++ engine.

/** Row-major tensor: data.length equals the product of shape. */
export interface Tensor {
  shape: number[];
  data: Float32Array | number[];
}
/** The engine always returns Float32Array data. */
export interface OutTensor {
  shape: number[];
  data: Float32Array;
}
/** 1 = visible, 0 = masked. */
export interface Mask {
  shape: number[];
  data: Uint8Array | number[] | boolean[];
}
export interface OutMask {
  shape: number[];
  data: Uint8Array;
}

export type ScoreKindName = 'dot' | 'scaled_dot' | 'general' | 'additive' | 'concat' | 'location' | 'cosine';

/** Parameters of the learnable scoring functions (see core/include/attn/attention/scores.hpp). */
export interface ScoreParams {
  w?: Tensor;
  w1?: Tensor;
  w2?: Tensor;
  v?: Tensor;
}
export interface OutScoreParams {
  w?: OutTensor;
  w1?: OutTensor;
  w2?: OutTensor;
  v?: OutTensor;
}

export interface AttendOptions {
  params?: ScoreParams;
  /** > 0; below 1 sharpens the weights, above 1 flattens them. Default 1. */
  temperature?: number;
  /** [T] mask over the annotations. */
  mask?: Mask;
}
export interface AttendResult {
  scores: OutTensor; // [T]
  weights: OutTensor; // [T]
  weighted: OutTensor; // [T, Dh]
  context: OutTensor; // [Dh]
}
export interface SoftmaxOptions {
  axis?: number;
  temperature?: number;
  mask?: Mask;
}
export interface AttentionOutput {
  output: OutTensor; // [Tq, d_v] or [H, Tq, d_v]
  weights: OutTensor; // [Tq, Tk] or [H, Tq, Tk]
}

/** Result of a toy training run (see core/include/attn/train/toy_run.hpp). */
export interface ToyRunResult {
  /** Training loss at every step. */
  losses: Float32Array;
  testAccuracy: number;
  /** Mean attention-pooling weight on the decisive positions of the test set. */
  decisiveAttention: number;
  /** Share of test examples whose most-attended position is decisive. */
  decisiveArgmaxRate: number;
  parameters: number;
}

export interface AttnEngine {
  version(): string;
  simdEnabled(): boolean;
  scoreKinds(): { name: ScoreKindName; hasParameters: boolean }[];
  /** query [Ds] -> [T], or queries [Q, Ds] -> [Q, T]; keys [T, Dh]. */
  scores(kind: ScoreKindName, queries: Tensor, keys: Tensor, params: ScoreParams | undefined | null): OutTensor;
  /** Rank 1 to 4; axis defaults to the last. */
  softmax(x: Tensor, options: SoftmaxOptions | undefined | null): OutTensor;
  /** weights [T] -> [D], or [Q, T] -> [Q, D]; annotations [T, D]. */
  contextVector(weights: Tensor, annotations: Tensor): OutTensor;
  /** weights [T], annotations [T, D] -> [T, D]. */
  weightedAnnotations(weights: Tensor, annotations: Tensor): OutTensor;
  attend(kind: ScoreKindName, query: Tensor, annotations: Tensor, options: AttendOptions | undefined | null): AttendResult;
  initScoreParams(kind: ScoreKindName, ds: number, dh: number, t: number, attentionDim: number, seed: number): OutScoreParams;
  /** q [Tq, dk] k [Tk, dk] v [Tk, dv], or the same with a leading heads axis; mask [Tq, Tk]. */
  scaledDotProductAttention(q: Tensor, k: Tensor, v: Tensor, options: { mask?: Mask } | undefined | null): AttentionOutput;
  causalMask(n: number): OutMask;
  paddingMask(tq: number, tk: number, validKeys: number): OutMask;
  combineMasks(a: Mask, b: Mask): OutMask;
  /** x [T, H*d] -> [H, T, d]. */
  splitHeads(x: Tensor, heads: number): OutTensor;
  /** x [H, T, d] -> [T, H*d]. */
  mergeHeads(x: Tensor): OutTensor;
  /**
   * Trains a small classifier on a synthetic task, synchronously. `configJson` is a flat JSON
   * object (keys in snake_case: task, encoder, pooling, score, embed_dim, units, steps, seed, ...);
   * onStep(step, loss) is called after every step.
   */
  runToyTask(configJson: string, onStep: ((step: number, loss: number) => void) | null): ToyRunResult;
}

export interface AttnEngineFactoryOptions {
  wasmBinary?: ArrayBuffer | Uint8Array;
  locateFile?: (path: string, prefix: string) => string;
  instantiateWasm?: (
    imports: WebAssembly.Imports,
    receive: (instance: WebAssembly.Instance, module?: WebAssembly.Module) => void,
  ) => object | false;
}

declare function createAttnEngine(options?: AttnEngineFactoryOptions): Promise<AttnEngine>;
export default createAttnEngine;
