// Messages between the page and the engine worker: a discriminated union on `type`.
import type { AttnEngine } from '../../generated/attn_engine.mjs';

/** The engine functions the page may call through the worker. */
export const ENGINE_METHODS = [
  'scoreKinds',
  'scores',
  'softmax',
  'contextVector',
  'weightedAnnotations',
  'attend',
  'initScoreParams',
  'scaledDotProductAttention',
  'causalMask',
  'paddingMask',
  'combineMasks',
  'splitHeads',
  'mergeHeads',
] as const satisfies readonly (keyof AttnEngine)[];

export type EngineMethod = (typeof ENGINE_METHODS)[number];
export type EngineArgs<M extends EngineMethod> = Parameters<AttnEngine[M]>;
export type EngineResult<M extends EngineMethod> = ReturnType<AttnEngine[M]>;

export type ToWorker = { type: 'call'; id: number; method: EngineMethod; args: unknown[] };

export type FromWorker =
  | { type: 'ready'; version: string; simd: boolean }
  | { type: 'init-failed'; message: string }
  | { type: 'result'; id: number; value: unknown }
  | { type: 'error'; id: number; message: string };
