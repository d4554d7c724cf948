// The test suites of `npm test` (scripts/run-tests.mjs) and of the repeat gate
// (scripts/test-repeat.mjs): how each runs and how its counts are read from its own output.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// Doctest cases left out of the ASan + UBSan run, for time only: the four long training runs
// (10-35 s natively, minutes under ASan; the same layers, losses and training loop run under
// ASan in the shorter toy_run, classifier_trainer and cli cases).
const SANITIZER_SKIPPED = [
  'sentiment_model.builtin_corpus_reaches_held_out_accuracy',
  'sentiment_model.attention_concentrates_on_decisive_tokens',
  'toy_run.transformer_learns_first_of_two',
  'toy_run.bilstm_attention_learns_contains_token_and_attends_to_it',
];

// Formatting is checked like behaviour: the web, test and script sources with Prettier, the
// C++ with clang-format (.clang-format), each file named when it is off.
const PRETTIER_GLOBS = ['web/**/*.{ts,css,html}', 'tests/**/*.mjs', 'scripts/**/*.mjs'];

/** Runs a command, echoing its output; resolves with {code, output}. */
export function run(command, args, { env = {}, echo = true } = {}) {
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
        if (echo) sink.write(chunk);
      });
    forward(child.stdout, process.stdout);
    forward(child.stderr, process.stderr);
    child.on('error', (error) => {
      output += `\n${command}: ${error.message}\n`;
      resolve({ code: 127, output });
    });
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** node:test's TAP summary, and the names of the tests that failed. */
export function tapCounts(output) {
  const pass = output.match(/^# pass (\d+)$/m);
  const fail = output.match(/^# fail (\d+)$/m);
  const cancelled = output.match(/^# cancelled (\d+)$/m);
  if (!pass || !fail) return null;
  return { passed: Number(pass[1]), failed: Number(fail[1]) + Number(cancelled?.[1] ?? 0) };
}

export function tapFailures(output) {
  const failures = [];
  const lines = output.split('\n');
  lines.forEach((line, i) => {
    const m = line.match(/^(\s*)not ok \d+ - (.*)$/);
    if (!m) return;
    // A file whose tests failed is reported as a failed parent too; keep the innermost names.
    const location = lines
      .slice(i + 1, i + 12)
      .map((l) => l.match(/^\s*location: '(.*)'$/)?.[1])
      .find(Boolean);
    const error = lines
      .slice(i + 1, i + 14)
      .map((l) => l.match(/^\s*error: (.*)$/)?.[1])
      .find(Boolean);
    failures.push({ name: m[2], location: location ?? '', error: error ?? '' });
  });
  return failures;
}

// A test that never ends fails after 10 minutes with its name (the longest take about 2 minutes
// on a loaded 2-core machine); a file whose tests are done exits even if a handle leaked (a
// file watcher still starting, say), instead of holding the run until CI's own limit.
function nodeTestSuite(name, files) {
  return {
    name,
    command: process.execPath,
    args: [
      '--test',
      '--test-reporter=tap',
      '--test-concurrency=1',
      '--test-timeout=600000',
      '--test-force-exit',
      ...files,
    ],
    count: tapCounts,
    failures: tapFailures,
  };
}

export const NODE_SUITE = (files = ['tests/js']) => nodeTestSuite('node (wasm module)', files);
export const BROWSER_SUITE = (files = ['tests/e2e']) => nodeTestSuite('browser (Chromium)', files);
// The second browser engine: Debian's firefox-esr over WebDriver BiDi (puppeteer-core), a smoke
// suite; one of its tests also starts Chromium to compare a seeded training run.
export const FIREFOX_SUITE = (files = ['tests/firefox']) => nodeTestSuite('firefox smoke (WebDriver BiDi)', files);

export const FORMAT_SUITE = {
  name: 'format (Prettier, clang-format)',
  command: process.execPath,
  args: ['scripts/check-format.mjs'],
  count(output) {
    const m = output.match(/^format: (\d+) passed, (\d+) failed$/m);
    return m ? { passed: Number(m[1]), failed: Number(m[2]) } : null;
  },
};

export const SUITES = [
  FORMAT_SUITE,
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
    // failure). Excluded for time only: SANITIZER_SKIPPED above.
    name: 'native ASan+UBSan (doctest)',
    command: 'build/fuzz/attn_tests',
    args: ['--no-intro', `--test-case-exclude=${SANITIZER_SKIPPED.join(',')}`],
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
  NODE_SUITE(),
  BROWSER_SUITE(),
  FIREFOX_SUITE(),
];

/** Runs one suite; a suite that does not report, or exits non-zero with no failure counted, fails. */
export async function runSuite(suite, options = {}) {
  const { code, output } = await run(suite.command, suite.args, { env: suite.env, ...options });
  let counts = suite.count(output);
  if (!counts) counts = { passed: 0, failed: 1 }; // the suite did not even report: a failure
  if (code !== 0 && counts.failed === 0) counts.failed = 1; // crashed after reporting
  return { ...counts, output, failures: suite.failures?.(output) ?? [] };
}

export { PRETTIER_GLOBS };
