// Runs every suite — native doctest (CTest), the same doctest suite built with ASan + UBSan,
// the libFuzzer targets for a short fixed time on their seed corpora, node tests of the wasm
// module, browser tests in Chromium — and ends with one line "N passed, N failed" summing them.
// Exit code 1 on any failure.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// Doctest cases left out of the ASan + UBSan run, for time only: throughput checks (a speed
// bound means nothing under sanitizers; their inputs are also decoded by other cases) and the
// four long training runs (10-35 s natively, minutes under ASan; the same layers, losses and
// training loop run under ASan in the shorter toy_run, classifier_trainer and cli cases).
const SANITIZER_SKIPPED = [
  '*.speed',
  'tokenizer.throughput_on_10_mb',
  'sentiment_model.builtin_corpus_reaches_held_out_accuracy',
  'sentiment_model.attention_concentrates_on_decisive_tokens',
  'toy_run.transformer_learns_first_of_two',
  'toy_run.bilstm_attention_learns_contains_token_and_attends_to_it',
];

function run(command, args, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
    });
    let output = '';
    const forward = (stream, sink) =>
      stream.on('data', (chunk) => {
        output += chunk;
        sink.write(chunk);
      });
    forward(child.stdout, process.stdout);
    forward(child.stderr, process.stderr);
    child.on('close', (code) => resolve({ code, output }));
  });
}

// Each suite: how to run it and how to read its counts from its own summary.
const suites = [
  {
    name: 'native (doctest via CTest)',
    command: 'ctest',
    args: ['--test-dir', 'build/native', '--output-on-failure', '-j', '2'],
    count(output) {
      const m = output.match(/(\d+)% tests passed, (\d+) tests? failed out of (\d+)/);
      if (!m) return null;
      const total = Number(m[3]);
      const failed = Number(m[2]);
      return { passed: total - failed, failed };
    },
  },
  {
    // build/fuzz (scripts/setup.sh fuzz). Any sanitizer finding aborts the run (counted as a
    // failure). Excluded for time only: SANITIZER_SKIPPED below.
    name: 'native ASan+UBSan (doctest)',
    command: 'build/fuzz/attn_tests',
    args: ['--no-intro', ...(SANITIZER_SKIPPED.length ? [`--test-case-exclude=${SANITIZER_SKIPPED.join(',')}`] : [])],
    env: {
      ASAN_OPTIONS: 'detect_leaks=1:abort_on_error=1:strict_string_checks=1',
      UBSAN_OPTIONS: 'print_stacktrace=1',
    },
    count(output) {
      const m = output.match(/test cases:\s*(\d+)\s*\|\s*(\d+) passed\s*\|\s*(\d+) failed/);
      return m ? { passed: Number(m[2]), failed: Number(m[3]) } : null;
    },
  },
  {
    name: 'fuzz (libFuzzer, 10 s per target)',
    command: process.execPath,
    args: ['scripts/fuzz.mjs', '--check', '--seconds', '10'],
    env: { ATTN_FUZZ_NO_BUILD: '1' },
    count(output) {
      const m = output.match(/^fuzz: (\d+) passed, (\d+) failed$/m);
      return m ? { passed: Number(m[1]), failed: Number(m[2]) } : null;
    },
  },
  ...[
    ['node (wasm module)', 'tests/js'],
    ['browser (Chromium)', 'tests/e2e'],
  ].map(([name, dir]) => ({
    name,
    command: process.execPath,
    args: ['--test', '--test-reporter=tap', '--test-concurrency=1', dir],
    count(output) {
      const pass = output.match(/^# pass (\d+)$/m);
      const fail = output.match(/^# fail (\d+)$/m);
      const cancelled = output.match(/^# cancelled (\d+)$/m);
      if (!pass || !fail) return null;
      return { passed: Number(pass[1]), failed: Number(fail[1]) + Number(cancelled?.[1] ?? 0) };
    },
  })),
];

let passed = 0;
let failed = 0;
const lines = [];
for (const suite of suites) {
  console.log(`\n=== ${suite.name} ===`);
  const { code, output } = await run(suite.command, suite.args, suite.env);
  let counts = suite.count(output);
  if (!counts) counts = { passed: 0, failed: 1 }; // the suite did not even report: count it as a failure
  if (code !== 0 && counts.failed === 0) counts.failed = 1; // crashed after reporting
  passed += counts.passed;
  failed += counts.failed;
  lines.push(`${suite.name}: ${counts.passed} passed, ${counts.failed} failed`);
}
console.log('\n=== summary ===');
for (const line of lines) console.log(line);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
