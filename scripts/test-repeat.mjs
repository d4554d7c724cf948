// The repeat gate: reruns the node and browser suites (Chromium, Firefox) N times and reports
// every failure with its run number, so a flaky test shows up before CI meets it.
//
//   npm run test:repeat -- 5                 node, browser and firefox suites, 5 times
//   npm run test:repeat -- 3 browser         the browser (Chromium) suite only (or: node, firefox)
//   npm run test:repeat -- 10 tests/e2e/runtime.test.mjs tests/e2e/studio.test.mjs
//
// It builds nothing: run `npm test` (or `bash scripts/setup.sh all`) once first. Output of each
// run goes to build/test-repeat/run-<n>-<suite>.log; the summary names each failure, its run and
// its first error line, and ends with "repeat: N runs, N failures". Exit code 1 on any failure.
import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BROWSER_SUITE, FIREFOX_SUITE, NODE_SUITE, root, runSuite } from './test-suites.mjs';

const [countArg, ...rest] = process.argv.slice(2);
const runs = Number(countArg);
if (!Number.isInteger(runs) || runs < 1) {
  console.error('usage: npm run test:repeat -- N [node|browser|firefox|FILE...]');
  process.exit(2);
}
let suites;
if (rest.length === 0) suites = [NODE_SUITE(), BROWSER_SUITE(), FIREFOX_SUITE()];
else if (rest.length === 1 && rest[0] === 'node') suites = [NODE_SUITE()];
else if (rest.length === 1 && rest[0] === 'browser') suites = [BROWSER_SUITE()];
else if (rest.length === 1 && rest[0] === 'firefox') suites = [FIREFOX_SUITE()];
else {
  const missing = rest.filter((f) => !existsSync(path.resolve(root, f)));
  if (missing.length) {
    console.error(`no such test file: ${missing.join(', ')}`);
    process.exit(2);
  }
  const browser = rest.filter((f) => f.includes('e2e'));
  const firefox = rest.filter((f) => f.includes('firefox'));
  const node = rest.filter((f) => !f.includes('e2e') && !f.includes('firefox'));
  suites = [
    ...(node.length ? [NODE_SUITE(node)] : []),
    ...(browser.length ? [BROWSER_SUITE(browser)] : []),
    ...(firefox.length ? [FIREFOX_SUITE(firefox)] : []),
  ];
}
if (!existsSync(path.join(root, 'dist/index.html')) || !existsSync(path.join(root, 'web/generated/attn_engine.mjs'))) {
  console.error('the wasm module or dist/ is missing: run `npm test` or `bash scripts/setup.sh all` first');
  process.exit(2);
}

const logDir = path.join(root, 'build/test-repeat');
mkdirSync(logDir, { recursive: true });
const started = Date.now();
const failures = [];
let testsRun = 0;
for (let n = 1; n <= runs; n++) {
  for (const suite of suites) {
    const load = os.loadavg()[0].toFixed(2);
    const t0 = Date.now();
    const result = await runSuite(suite, { echo: false });
    const seconds = Math.round((Date.now() - t0) / 1000);
    const slug = suite.name.split(' ')[0];
    writeFileSync(path.join(logDir, `run-${n}-${slug}.log`), result.output);
    testsRun += result.passed + result.failed;
    console.log(
      `run ${n}/${runs} ${suite.name}: ${result.passed} passed, ${result.failed} failed, ${seconds} s (load ${load})`,
    );
    // Parent entries (a test file) repeat their failed children: keep the names of the tests.
    const named = result.failures.filter((f) => !f.name.startsWith('/') && !f.name.endsWith('.mjs'));
    for (const f of named.length ? named : result.failures) {
      failures.push({ run: n, suite: suite.name, ...f });
      console.log(
        `  FAIL (run ${n}) ${f.name}${f.location ? ` at ${f.location}` : ''}${f.error ? `: ${f.error}` : ''}`,
      );
    }
    if (result.failed > 0 && result.failures.length === 0)
      failures.push({ run: n, suite: suite.name, name: '(the suite failed without naming a test)' });
  }
}
console.log();
console.log(
  `repeat: ${runs} runs of ${suites.map((s) => s.name).join(' + ')}, ${testsRun} test results, ${Math.round((Date.now() - started) / 1000)} s`,
);
for (const f of failures) console.log(`  run ${f.run}: ${f.suite}: ${f.name}`);
console.log(`repeat: ${runs} runs, ${failures.length} failures`);
process.exit(failures.length === 0 ? 0 : 1);
