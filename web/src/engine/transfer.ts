// The buffers of every typed array inside a result (nested in arrays and objects), to transfer
// it to the page instead of copying. Only for results the engine returns as fresh copies
// (attn_engine.d.ts says which calls copy): a view of wasm memory must never be transferred.
export function transferables(value: unknown, out = new Set<ArrayBuffer>()): ArrayBuffer[] {
  if (ArrayBuffer.isView(value)) {
    if (value.buffer instanceof ArrayBuffer) out.add(value.buffer);
  } else if (Array.isArray(value)) {
    for (const item of value) transferables(item, out);
  } else if (value !== null && typeof value === 'object') {
    for (const item of Object.values(value)) transferables(item, out);
  }
  return [...out];
}
