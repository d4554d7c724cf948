// Runs every suite — formatting (Prettier, clang-format), native doctest (CTest), the same
// doctest suite built with ASan + UBSan, the libFuzzer targets for a short fixed time on their
// seed corpora, node tests of the wasm module, browser tests in Chromium, a smoke suite in
// Firefox — and ends with one line "N passed, N failed" summing them. Exit code 1 on any
// failure. The suites are defined in scripts/test-suites.mjs (shared with the repeat gate,
// scripts/test-repeat.mjs).
import { SUITES, runSuite } from './test-suites.mjs';

let passed = 0;
let failed = 0;
const lines = [];
for (const suite of SUITES) {
  console.log(`\n=== ${suite.name} ===`);
  const started = Date.now();
  const counts = await runSuite(suite);
  passed += counts.passed;
  failed += counts.failed;
  lines.push(
    `${suite.name}: ${counts.passed} passed, ${counts.failed} failed (${Math.round((Date.now() - started) / 1000)} s)`,
  );
}
console.log('\n=== summary ===');
for (const line of lines) console.log(line);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
