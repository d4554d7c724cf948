// Benchmarks (GEMM, training steps, comparisons with TensorFlow.js) arrive with the training engine.
console.log('no benchmarks yet');
