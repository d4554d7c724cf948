// Runs the libFuzzer targets (fuzz/fuzz_<target>.cpp, built in build/fuzz with clang, ASan and
// UBSan) and reports executions and findings per target.
//   node scripts/fuzz.mjs [--seconds N] [target...]   fuzz each target for N s (default 60),
//                                                     growing build/fuzz/corpus/<target>/
//   node scripts/fuzz.mjs --check [--seconds N]       the test-suite mode: N s (default 10) per
//                                                     target from the committed seeds only, new
//                                                     inputs kept in a temporary folder
//   node scripts/fuzz.mjs --seed-corpus               rewrite fuzz/corpus/ (make_fuzz_corpus)
// Targets are named without the prefix: csv, tsv, sentence_files, aclimdb_archive, tokenizer, model_file, flat_json.
// A finding leaves its input in build/fuzz/artifacts/ (add it to fuzz/corpus/<target>/ with the fix).
// Ends with "fuzz: N passed, N failed" (scripts/run-tests.mjs reads it); exit code 1 on a finding.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const build = path.join(root, 'build/fuzz');
const args = process.argv.slice(2);
const check = args.includes('--check');
const secondsAt = args.indexOf('--seconds');
const seconds = secondsAt >= 0 ? Number(args[secondsAt + 1]) : check ? 10 : 60;
if (!(seconds > 0)) throw new Error(`--seconds needs a positive number, got ${args[secondsAt + 1]}`);
const named = args.filter((a, i) => !a.startsWith('--') && !(secondsAt >= 0 && i === secondsAt + 1));

const allTargets = readdirSync(path.join(root, 'fuzz'))
  .filter((f) => /^fuzz_\w+\.cpp$/.test(f))
  .map((f) => f.slice('fuzz_'.length, -'.cpp'.length))
  .sort();
for (const name of named) {
  if (!allTargets.includes(name)) throw new Error(`no fuzz target '${name}' (targets: ${allTargets.join(', ')})`);
}
const targets = named.length > 0 ? named : allTargets;

function buildTargets(extra = []) {
  if (!existsSync(path.join(build, 'CMakeCache.txt'))) {
    const configure = spawnSync(
      'cmake',
      ['-S', root, '-B', build, '-DATTN_FUZZ=ON', '-DCMAKE_CXX_COMPILER=clang++-14'],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
    if (configure.status !== 0) process.exit(1);
  }
  const jobs = String(Math.max(1, Math.min(2, process.env.JOBS | 0 || 2)));
  const targetArgs = [...targets.map((t) => `fuzz_${t}`), ...extra].flatMap((t) => ['--target', t]);
  const made = spawnSync('cmake', ['--build', build, '-j', jobs, ...targetArgs], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (made.status !== 0) process.exit(1);
}

if (args.includes('--seed-corpus')) {
  buildTargets(['make_fuzz_corpus']);
  const made = spawnSync(path.join(build, 'make_fuzz_corpus'), [path.join(root, 'fuzz/corpus')], { stdio: 'inherit' });
  process.exit(made.status ?? 1);
}

if (!process.env.ATTN_FUZZ_NO_BUILD) buildTargets();

function runTarget(target) {
  const seeds = path.join(root, 'fuzz/corpus', target);
  const work = check ? mkdtempSync(path.join(tmpdir(), `attn-fuzz-${target}-`)) : path.join(build, 'corpus', target);
  mkdirSync(work, { recursive: true });
  const artifacts = path.join(build, 'artifacts');
  mkdirSync(artifacts, { recursive: true });
  const fuzzArgs = [
    `-max_total_time=${seconds}`,
    '-timeout=10', // one input taking longer is a hang
    '-rss_limit_mb=2048', // and more memory than this is an out-of-memory finding
    `-artifact_prefix=${artifacts}/${target}-`,
    '-print_final_stats=1',
    ...(check ? ['-seed=1'] : []),
    work,
    seeds,
  ];
  return new Promise((resolve) => {
    const child = spawn(path.join(build, `fuzz_${target}`), fuzzArgs, {
      cwd: root,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: {
        ...process.env,
        ASAN_OPTIONS: 'detect_leaks=1:abort_on_error=1:symbolize=1',
        UBSAN_OPTIONS: 'print_stacktrace=1',
      },
    });
    let log = '';
    child.stderr.on('data', (chunk) => {
      log += chunk;
      if (log.length > 1 << 20) log = log.slice(-(1 << 19)); // keep the end: that is where findings are
    });
    child.on('close', (code) => {
      if (check) rmSync(work, { recursive: true, force: true });
      const runs = log.match(/stat::number_of_executed_units:\s*(\d+)/);
      const coverage = [...log.matchAll(/cov: (\d+) ft: (\d+)/g)].at(-1);
      resolve({ target, code, runs: runs ? Number(runs[1]) : 0, coverage: coverage?.[1] ?? '?', log });
    });
  });
}

let passed = 0;
let failed = 0;
for (const target of targets) {
  const result = await runTarget(target);
  const ok = result.code === 0;
  if (ok) passed += 1;
  else failed += 1;
  const line = `${ok ? 'ok' : 'FINDING'} fuzz_${target}: ${result.runs} executions in ${seconds} s, coverage ${result.coverage} edges`;
  console.log(line);
  if (!ok) {
    const start = result.log.search(/==\d+==ERROR|runtime error|ERROR: libFuzzer|deadly signal|SUMMARY/);
    console.log(result.log.slice(start >= 0 ? Math.max(0, start - 200) : -4000).slice(0, 6000));
  }
}
console.log(`fuzz: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
