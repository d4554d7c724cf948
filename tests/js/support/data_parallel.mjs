// What the data-parallel tests share (data_parallel.test.mjs: the engine side;
// data_parallel_ports.test.mjs: the page's coordination over MessagePorts).

/** Two epochs of the built-in corpus, no early stopping: the run both suites train. */
export const TRAINING = Object.freeze({
  epochs: 2,
  batchSize: 32,
  learningRate: 0.005,
  validationSplit: 0.1,
  earlyStoppingPatience: 0,
  seed: 2,
});

/**
 * One data-parallel step done in one thread: shard r on replica r, the buffers summed replica 0,
 * then 1, … (the order the coordinator adds them in), the sum applied by every replica. Returns
 * each replica's step report.
 */
export function parallelStep(replicas) {
  const sum = new Float32Array(replicas[0].shardGradient(0, replicas.length));
  for (let r = 1; r < replicas.length; r++) {
    const part = replicas[r].shardGradient(r, replicas.length);
    for (let i = 0; i < sum.length; i++) sum[i] += part[i];
  }
  return replicas.map((s) => s.applyGradient(sum));
}
