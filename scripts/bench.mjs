// Benchmarks side by side, in one run:
//   native        bench/bench_kernels.cpp built natively (build/native-bench/attn_bench)
//   wasm-simd     the same program built with Emscripten, SIMD on, run under node
//   wasm-scalar   ... SIMD off (ATTN_SIMD=OFF)
//   tfjs-wasm     TensorFlow.js 4.22 tfjs-backend-wasm (SIMD, 1 thread) under node (bench/tfjs/)
//   tfjs-cpu      TensorFlow.js 4.22 tfjs-backend-cpu under node
//   "<impl> (chromium)"  wasm-simd, wasm-scalar, tfjs-wasm, tfjs-cpu again in headless Chromium
//                 (bench/browser/), plus the app's time to interactive when dist/ is built.
// Each run prints JSON lines; this script collects them and prints tables (GEMM GFLOP/s,
// training steps, vector maths) and the targets of issues 6 and 19, met or not.
//
//   npm run bench                       tables
//   npm run bench -- translation        only issue 27's speed table (translation training in Chromium
//                                        on 1 and 2 workers vs the PyTorch twins, translation latency,
//                                        the Studio's 2-worker ratio): bench/translation_bench.mjs
//   npm run --silent bench -- --json    one JSON object {"gemm": [...], "train_step": [...], "env": {...}, ...}
//   node scripts/bench.mjs --native-only | --no-browser | --no-tfjs | --quick (GEMM only in Chromium)
//                        | --no-imdb-train (skip the IMDB runs to the end: the native 4-epoch one
//                                           and the Studio's time to accuracy on 1 and 2 workers)
//                        | --tfjs-cpu-train (also time tfjs-backend-cpu's training steps: minutes each)
//   node scripts/bench.mjs --records FILE     also write every raw record to FILE (JSON lines)
//   node scripts/bench.mjs --no-run --add A.jsonl --add B.jsonl   only tabulate saved records, e.g.
//                                        of a --no-browser run and of bench/browser/run.mjs run
//                                        separately
//
// Timing: the machine is shared, so beside wall time every figure is also taken on a CPU clock
// where there is one (process CPU time natively and under node; in Chromium the wall time scaled
// by the renderer's CPU share over the item). "gflops" and "ms_per_step" are the CPU-clock
// figures ("clock" says which), "gflops_wall" / "ms_per_step_wall" the wall-clock ones.
//
// The native bench build (build/native-bench, without xtensor's assertions) and the two wasm builds live in their own
// build directories (build/wasm-bench-simd, build/wasm-bench-scalar, differing only in ATTN_SIMD);
// they are configured on first use and brought up to date incrementally (a no-op when nothing
// changed), so the numbers always describe the checked-out sources.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { table } from '../bench/table.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const asJson = args.includes('--json');
const nativeOnly = args.includes('--native-only');
const withBrowser = !nativeOnly && !args.includes('--no-browser');
const withTfjs = !nativeOnly && !args.includes('--no-tfjs');
// tfjs-backend-cpu's training steps take minutes each (a whole run of them took over 24 minutes
// and 4.5 GB in node): timed only with --tfjs-cpu-train. Its GEMMs are always timed.
const tfjsCpuTrain = args.includes('--tfjs-cpu-train');
const quick = args.includes('--quick');
const addFiles = args.flatMap((a, i) => (a === '--add' ? [args[i + 1]] : []));
const noRun = args.includes('--no-run');
// The native `attn train` run on the aclImdb training half (issue 19, item 4) takes a minute or
// more, the Studio's IMDB recipe to the end on 1 and 2 workers (issue 29,
// bench/browser/studio_time_to_accuracy.mjs) several; --no-imdb-train skips both (so does --quick).
const withImdbTrain = !args.includes('--no-imdb-train') && !quick;
const imdbArchive = path.resolve(root, '../shared/data/aclImdb_train.tar.gz');
const recordsFile = args.includes('--records') ? args[args.indexOf('--records') + 1] : null;
const jobs = String(os.cpus().length || 2);

const log = (message) => process.stderr.write(`\x1b[1m[bench]\x1b[0m ${message}\n`);

// Runs a command; resolves with its stdout, rejects (with stderr) on a non-zero exit.
// Build tools' chatter goes to our stderr so --json output stays clean.
// captureStderr: resolve with {out, err} instead.
function run(command, commandArgs, { env = process.env, echo = false, captureStderr = false } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, commandArgs, {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      if (echo) process.stderr.write(chunk);
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      if (echo) process.stderr.write(chunk);
    });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve(captureStderr ? { out: stdout, err: stderr } : stdout)
        : reject(new Error(`${command} ${commandArgs.join(' ')} exited with ${code}\n${stderr}`)),
    );
  });
}

const emscriptenEnv = { ...process.env, NODE_PATH: '/usr/share/nodejs' }; // emcc loads Debian's acorn

async function ensureWasmBench(dir, simd) {
  if (!existsSync(path.join(root, dir, 'CMakeCache.txt'))) {
    log(`configuring ${dir} (ATTN_SIMD=${simd ? 'ON' : 'OFF'})`);
    await run(
      'emcmake',
      ['cmake', '-S', '.', '-B', dir, '-DCMAKE_BUILD_TYPE=Release', `-DATTN_SIMD=${simd ? 'ON' : 'OFF'}`],
      { env: emscriptenEnv },
    );
  }
  log(`building ${dir}/attn_bench.mjs`);
  await run('cmake', ['--build', dir, '--target', 'attn_bench', '-j', jobs], {
    env: emscriptenEnv,
  });
  return path.join(root, dir, 'attn_bench.mjs');
}

// The wasm bench is a plain (non-ES6) Emscripten node program in a .mjs file: node parses it as
// an ES module, so it gets the CommonJS globals it expects from this loader, and
// --no-experimental-fetch keeps Emscripten 3.1.6 from fetch()ing its .wasm like a browser.
function runWasmBench(program) {
  const loader = [
    "import { createRequire } from 'node:module';",
    `globalThis.require = createRequire(${JSON.stringify(pathToFileURL(program).href)});`,
    `globalThis.__dirname = ${JSON.stringify(path.dirname(program))};`,
    `await import(${JSON.stringify(pathToFileURL(program).href)});`,
  ].join('\n');
  return run(process.execPath, ['--no-experimental-fetch', '--input-type=module', '-e', loader]);
}

// Issue 19, item 4: the native CLI trains model (a) on the aclImdb training half, 4 epochs, one
// thread — the command of docs/native-speed.md. The record carries the CLI's own "trained in"
// time (train_seconds: training and the per-epoch validation, not the loading), the command's
// wall time and CPU time (user + system, from bash's `time`), and the held-out accuracy.
async function nativeImdbTrain(cli) {
  if (!existsSync(imdbArchive)) {
    log(`native attn train: ${imdbArchive} is missing (the aclImdb training half), skipped`);
    return null;
  }
  const trainArgs = ['train', '--data', imdbArchive, '--holdout', '0.1', '--model', 'bilstm-attention'];
  trainArgs.push('--vocab', '5000', '--seed', '1', '--epochs', '4', '--json');
  log(`running native attn ${trainArgs.join(' ')} (about a minute)`);
  const started = Date.now();
  const quoted = [cli, ...trainArgs].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');
  const output = await run('bash', ['-c', `TIMEFORMAT='{"cpu_user":%U,"cpu_system":%S}'; time ${quoted} 2>/dev/null`], {
    captureStderr: true,
  });
  const wall = (Date.now() - started) / 1000;
  const lines = parseLines(output.out);
  const done = lines.find((r) => r.event === 'done');
  const cpu = parseLines(output.err).find((r) => r.cpu_user !== undefined);
  if (!done) throw new Error(`attn train printed no "done" line:\n${output.out.slice(-2000)}`);
  return {
    impl: 'native',
    kernel: 'imdb_train',
    model: done.model,
    epochs: lines.filter((r) => r.event === 'epoch').length,
    epoch_seconds: lines.filter((r) => r.event === 'epoch').map((r) => r.seconds),
    train_examples: done.train_examples,
    test_examples: done.test_examples,
    train_seconds: done.train_seconds,
    wall_seconds: Number(wall.toFixed(1)),
    cpu_seconds: cpu ? Number((cpu.cpu_user + cpu.cpu_system).toFixed(1)) : null,
    test_accuracy: done.test_accuracy,
    command: `attn ${trainArgs.join(' ')}`,
  };
}

function parseLines(stdout) {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line));
}

async function main() {
  if (args.includes('translation')) return translationOnly();
  const started = Date.now();
  const loadBefore = os.loadavg().map((x) => Number(x.toFixed(2)));
  const records = [];
  if (!noRun) {
    const nativeDir = await ensureNativeBench(['attn_bench', 'attn_bench_io', 'attn']);
    const programs = [];
    if (!nativeOnly) {
      for (const [dir, simd] of [
        ['build/wasm-bench-simd', true],
        ['build/wasm-bench-scalar', false],
      ]) {
        programs.push([simd ? 'wasm SIMD' : 'wasm scalar', await ensureWasmBench(dir, simd)]);
      }
    }
    // One at a time: they would otherwise compete for the same cores.
    log('running native');
    records.push(...parseLines(await run(path.join(root, nativeDir, 'attn_bench'), [])));
    log('running native data path (tokenizer, inflate, gzip)');
    records.push(...parseLines(await run(path.join(root, nativeDir, 'attn_bench_io'), [])));
    if (withImdbTrain) {
      const record = await nativeImdbTrain(path.join(root, nativeDir, 'attn'));
      if (record) records.push(record);
    }
    for (const [name, program] of programs) {
      log(`running ${name} (node)`);
      records.push(...parseLines(await runWasmBench(program)));
    }
    if (withTfjs) {
      log(
        `running TensorFlow.js 4.22 (node): tfjs-backend-wasm, tfjs-backend-cpu${tfjsCpuTrain ? '' : ' (GEMM only)'}`,
      );
      const tfjsNode = path.join(root, 'bench/tfjs/node.mjs');
      records.push(...parseLines(await run(process.execPath, [tfjsNode, '--backends', 'wasm'])));
      const cpuOnly = tfjsCpuTrain ? [] : ['--only', 'gemm'];
      records.push(...parseLines(await run(process.execPath, [tfjsNode, '--backends', 'cpu', ...cpuOnly])));
    }
    if (withBrowser) {
      log('running headless Chromium');
      const { runBrowserBench } = await import('../bench/browser/run.mjs');
      records.push(...(await runBrowserBench({ log, quick, tfjsCpuTrain, imdbTrain: withImdbTrain })));
      if (!quick) {
        // Issue 27: translation training vs PyTorch (the Studio's run was timed just above).
        log('running the translation bench (issue 27)');
        const { runTranslationBench } = await import('../bench/translation_bench.mjs');
        records.push(...(await runTranslationBench({ log, studio: false })));
      }
    }
  }
  for (const file of addFiles) records.push(...parseLines(readFileSync(file, 'utf8')));
  if (recordsFile) writeFileSync(recordsFile, records.map((r) => `${JSON.stringify(r)}\n`).join(''));
  // Issue 27's records (bench/translation_bench.mjs) have a table of their own.
  const translation = records.filter((r) => r.bench === 'translation');
  records.splice(0, records.length, ...records.filter((r) => r.bench !== 'translation'));
  const studioSummary = records.find((r) => r.kernel === 'studio_training_summary');
  if (studioSummary) translation.push(studioSummary);

  const fast = (r) => r.variant === undefined || r.variant === 'fast';
  const gemm = records.filter((r) => r.kernel === 'gemm' && fast(r));
  const gemmReference = records.filter((r) => r.kernel === 'gemm' && !fast(r));
  const trainStep = records.filter((r) => r.kernel === 'train_step');
  const pageInteractive = records.filter((r) => r.kernel === 'page_interactive');
  // Studio training throughput on 1 and 2 workers (bench/browser/studio_throughput.mjs).
  const studioTraining = records.filter(
    (r) => r.kernel === 'studio_training' || r.kernel === 'studio_training_summary',
  );
  const studio = studioTraining.find((r) => r.kernel === 'studio_training_summary');
  // The Studio's IMDB recipe trained to the end on 1 and 2 workers (bench/browser/studio_time_to_accuracy.mjs).
  const studioAccuracy = records.filter((r) => r.kernel === 'studio_time_to_accuracy');
  const info = records.filter((r) => r.kernel === 'info');
  const dataPath = records.filter((r) => r.kernel === 'io');
  const imdbTrain = records.find((r) => r.kernel === 'imdb_train');
  const fmaPeak = records.filter((r) => r.kernel === 'fma_peak');
  const vectorMath = records.filter(
    (r) =>
      ![
        'gemm',
        'gemm_round',
        'train_step',
        'info',
        'page_interactive',
        'io',
        'fma_peak',
        'studio_training',
        'studio_training_summary',
        'studio_time_to_accuracy',
        'imdb_train',
      ].includes(r.kernel),
  );
  const wasmFile = path.join(root, 'web/generated/attn_engine.wasm');
  const env = {
    date: new Date().toISOString(),
    node: process.version,
    cpu: os.cpus()[0]?.model ?? 'unknown',
    cores: os.cpus().length,
    load_average_before: loadBefore,
    load_average_after: os.loadavg().map((x) => Number(x.toFixed(2))),
    platform: `${os.platform()} ${os.arch()}`,
    gemm_implementations: Object.fromEntries(records.filter((r) => r.gemm_impl).map((r) => [r.impl, r.gemm_impl])),
    emscripten: nativeOnly || noRun ? null : (await run('emcc', ['--version'], { env: emscriptenEnv })).split('\n')[0],
    wasm_gzip_bytes: existsSync(wasmFile) ? gzipSync(readFileSync(wasmFile), { level: 9 }).length : null,
    peers: info,
    seconds: Math.round((Date.now() - started) / 1000),
    timing:
      'gflops / ms_per_step from CPU time (process CPU time natively and in node; wall time x renderer CPU share in Chromium); *_wall = wall clock',
  };
  const targets = checkTargets(gemm, trainStep, pageInteractive, env, studio, imdbTrain);
  if (asJson) {
    process.stdout.write(
      `${JSON.stringify({ gemm, train_step: trainStep, env, gemm_reference: gemmReference, vector_math: vectorMath, data_path: dataPath, page_interactive: pageInteractive, fma_peak: fmaPeak, studio_training: studioTraining, studio_time_to_accuracy: studioAccuracy, imdb_train: imdbTrain ?? null, targets, translation })}\n`,
    );
    return;
  }
  // One line per model the bench trained (bilstm-attention, then ngram-attention).
  let studioAccuracyLine = null;
  if (studioAccuracy.length) {
    const { timeToAccuracyLine } = await import('../bench/browser/studio_time_to_accuracy.mjs');
    studioAccuracyLine = [...new Set(studioAccuracy.map((r) => r.model))]
      .map((model) => timeToAccuracyLine(studioAccuracy.filter((r) => r.model === model)))
      .join('\n');
  }
  printTables(
    gemm,
    gemmReference,
    vectorMath,
    trainStep,
    pageInteractive,
    targets,
    env,
    fmaPeak,
    studio,
    imdbTrain,
    studioAccuracyLine,
  );
  if (translation.some((r) => r.bench === 'translation')) {
    const { translationReport } = await import('../bench/translation_bench.mjs');
    console.log();
    console.log(translationReport(translation));
  }
  printDataPath(dataPath);
}

// The targets of issues 6 and 19, each {target, value, met}; null values when a row is missing.
// The native bench has its own build: the test build (build/native) enables xtensor's bounds
// assertions, which would slow the native side of every comparison. Configured on first use,
// `targets` brought up to date; resolves with its directory.
async function ensureNativeBench(targets) {
  const nativeDir = 'build/native-bench';
  if (!existsSync(path.join(root, nativeDir, 'CMakeCache.txt'))) {
    log(`configuring ${nativeDir}`);
    await run('cmake', [
      '-S',
      '.',
      '-B',
      nativeDir,
      '-DCMAKE_BUILD_TYPE=Release',
      '-DATTN_XTENSOR_ASSERT=OFF',
      '-DATTN_BUILD_TESTS=OFF',
    ]);
  }
  log(`building ${nativeDir}: ${targets.join(', ')}`);
  await run('cmake', ['--build', nativeDir, '--target', ...targets, '-j', jobs]);
  return nativeDir;
}

/** `npm run bench -- translation`: the native bench program, then issue 27's table alone. */
async function translationOnly() {
  await ensureNativeBench(['attn_bench']);
  const { runTranslationBench, translationReport } = await import('../bench/translation_bench.mjs');
  const records = await runTranslationBench({ log });
  if (recordsFile) writeFileSync(recordsFile, records.map((r) => `${JSON.stringify(r)}\n`).join(''));
  if (asJson) process.stdout.write(`${JSON.stringify({ translation: records })}\n`);
  else console.log(translationReport(records));
}

function checkTargets(gemm, trainStep, pageInteractive, env, studio, imdbTrain) {
  const out = [];
  const g = (impl, s) => gemm.find((r) => r.impl === impl && r.m === s.m && r.n === s.n && r.k === s.k)?.gflops;
  const step = (impl, model) => trainStep.find((r) => r.impl === impl && r.model === model)?.ms_per_step;
  const ratio = (a, b) => (a === undefined || b === undefined ? null : a / b);
  const add = (target, value, met) =>
    out.push({
      target,
      value: value === null ? null : Number(value.toFixed(2)),
      met: value === null ? null : met(value),
    });
  // The sizes TensorFlow.js was timed at (not the 1×4×3 product, which is all call overhead).
  const sizes = [
    ...new Map(gemm.filter((r) => r.impl === 'tfjs-wasm').map((r) => [`${r.m}x${r.n}x${r.k}`, r])).values(),
  ];
  for (const suffix of ['', ' (chromium)']) {
    for (const s of sizes) {
      const label = `${s.m}x${s.n}x${s.k}${suffix}`;
      add(
        `GEMM wasm-simd / wasm-scalar >= 2 at ${label}`,
        ratio(g(`wasm-simd${suffix}`, s), g(`wasm-scalar${suffix}`, s)),
        (v) => v >= 2,
      );
      add(
        `GEMM wasm-simd / tfjs-wasm >= 1.2 at ${label}`,
        ratio(g(`wasm-simd${suffix}`, s), g(`tfjs-wasm${suffix}`, s)),
        (v) => v >= 1.2,
      );
    }
    for (const [model, factor] of [
      ['bilstm-attention', 5],
      ['transformer-1block', 3],
    ]) {
      const tfjs = [step(`tfjs-wasm${suffix}`, model), step(`tfjs-cpu${suffix}`, model)].filter((x) => x !== undefined);
      const best = tfjs.length ? Math.min(...tfjs) : undefined;
      add(
        `train step ${model}${suffix}: best tfjs / wasm-simd >= ${factor}`,
        ratio(best, step(`wasm-simd${suffix}`, model)),
        (v) => v >= factor,
      );
    }
  }
  // Issue 19, items 2 and 3: the training steps in Chromium, on one worker.
  const chromiumTransformer = step('wasm-simd (chromium)', 'transformer-1block');
  add('train step transformer-1block (chromium) <= 30 ms', chromiumTransformer ?? null, (v) => v <= 30);
  add(
    'train step transformer-1block (chromium): tfjs-wasm / wasm-simd >= 12',
    ratio(step('tfjs-wasm (chromium)', 'transformer-1block'), chromiumTransformer),
    (v) => v >= 12,
  );
  add(
    'train step bilstm-attention (chromium) <= 22 ms',
    step('wasm-simd (chromium)', 'bilstm-attention') ?? null,
    (v) => v <= 22,
  );
  // Issue 19, item 4: the native build uses the machine (AVX2/FMA or AVX-512 kernels).
  for (const [s, floor] of [
    [{ m: 256, n: 256, k: 256 }, 120],
    [{ m: 32, n: 512, k: 128 }, 80],
  ]) {
    add(`native GEMM >= ${floor} GFLOP/s at ${s.m}x${s.n}x${s.k}`, g('native', s) ?? null, (v) => v >= floor);
  }
  for (const model of ['bilstm-attention', 'transformer-1block']) {
    add(
      `train step ${model}: wasm-simd (node) / native <= 2`,
      ratio(step('wasm-simd', model), step('native', model)),
      (v) => v <= 2,
    );
  }
  add(
    'native attn train, model (a), aclImdb train half, 4 epochs <= 60 s (trained in, wall)',
    imdbTrain?.train_seconds ?? null,
    (v) => v <= 60,
  );
  add(
    'attn_engine.wasm gzipped < 500 KB (KB)',
    env.wasm_gzip_bytes === null ? null : env.wasm_gzip_bytes / 1024,
    (v) => v < 500,
  );
  // Issue 19, item 1: one Studio run on both cores.
  add(
    'Studio training >= 2400 reviews/s (2 workers, aclImdb train half, model (a), maxlen 200)',
    studio?.reviews_per_second_median[2] ?? null,
    (v) => v >= 2400,
  );
  const tti = pageInteractive[0];
  add('page interactive < 1000 ms (navigation -> first heatmap, wall)', tti ? tti.ms_wall : null, (v) => v < 1000);
  add('page interactive < 1000 ms (wall x renderer CPU share)', tti?.ms ?? null, (v) => v < 1000);
  return out;
}

function printTables(
  gemm,
  gemmReference,
  vectorMath,
  trainStep,
  pageInteractive,
  targets,
  env,
  fmaPeak,
  studio,
  imdbTrain,
  studioAccuracyLine,
) {
  const fmt = (x, digits = 1) => (x === undefined || x === null || Number.isNaN(x) ? '-' : x.toFixed(digits));
  const impls = [...new Set([...gemm, ...trainStep].map((r) => r.impl))];

  const sizes = [...new Map(gemm.map((r) => [`${r.m}x${r.n}x${r.k}`, r])).values()];
  const gemmImpls = impls.filter((impl) => gemm.some((r) => r.impl === impl));
  const gemmRows = sizes.map((s) => {
    const same = (r) => r.m === s.m && r.n === s.n && r.k === s.k;
    return [
      `${s.m}×${s.n}×${s.k}`,
      ...gemmImpls.map((impl) => fmt(gemm.find((r) => r.impl === impl && same(r))?.gflops, 2)),
      fmt(gemmReference.find((r) => r.impl === 'native' && r.variant === 'reference' && same(r))?.gflops, 2),
    ];
  });
  console.log('GEMM GFLOP/s (M×N×K, CPU clock)');
  console.log(table(['M×N×K', ...gemmImpls, 'native ref loop'], gemmRows));
  console.log();

  // Natively, each micro-kernel the CPU has on its own, and OpenBLAS (one thread) when the bench
  // was built with it; "fast" above is the one gemm picks.
  const nativeVariants = [
    ...new Set(
      gemmReference
        .filter((r) => r.impl === 'native' && (r.variant.startsWith('kernel:') || r.variant === 'openblas'))
        .map((r) => r.variant),
    ),
  ];
  if (nativeVariants.length) {
    const rows = sizes.map((s) => [
      `${s.m}×${s.n}×${s.k}`,
      ...nativeVariants.map((variant) =>
        fmt(
          gemmReference.find(
            (r) => r.impl === 'native' && r.variant === variant && r.m === s.m && r.n === s.n && r.k === s.k,
          )?.gflops,
          2,
        ),
      ),
    ]);
    console.log('Native GEMM GFLOP/s by micro-kernel (CPU clock)');
    console.log(table(['M×N×K', ...nativeVariants.map((v) => v.replace(/^kernel:/, ''))], rows));
    // The core's multiply-add ceiling (attn_bench peak): no GEMM on one core can pass it.
    const peak = fmaPeak[0];
    if (peak) {
      const big = gemm.find((r) => r.impl === 'native' && r.m === 256 && r.n === 256 && r.k === 256);
      console.log(
        `FMA peak of one core (${peak.isa}, 12 register chains, no loads): ${fmt(peak.gflops, 1)} GFLOP/s` +
          (big ? `; native GEMM 256³ reaches ${fmt((100 * big.gflops) / peak.gflops, 0)} % of it` : ''),
      );
    }
    console.log();
  }

  const models = [...new Set(trainStep.map((r) => r.model))];
  const stepRows = impls
    .filter((impl) => trainStep.some((r) => r.impl === impl))
    .map((impl) => [
      impl,
      ...models.flatMap((model) => {
        const r = trainStep.find((x) => x.impl === impl && x.model === model);
        return [fmt(r?.ms_per_step, 1), fmt(r?.tokens_per_s, 0), fmt(r?.ms_per_step_wall, 1)];
      }),
    ]);
  console.log('Training step, batch 32 × 200 tokens (forward, BCE, backward, Adam)');
  console.log(table(['impl', ...models.flatMap((m) => [`${m} ms`, 'tok/s', 'ms wall'])], stepRows));
  console.log();

  if (vectorMath.length) {
    const kernels = [...new Set(vectorMath.map((r) => r.kernel))];
    const vmImpls = [...new Set(vectorMath.map((r) => r.impl))];
    const vmRows = kernels.map((kernel) => [
      `${kernel} (n = ${vectorMath.find((r) => r.kernel === kernel)?.n})`,
      ...vmImpls.flatMap((impl) =>
        ['fast', 'reference'].map((variant) =>
          fmt(vectorMath.find((r) => r.impl === impl && r.kernel === kernel && r.variant === variant)?.melem_per_s, 0),
        ),
      ),
    ]);
    console.log('Vector maths Melem/s');
    console.log(table(['kernel', ...vmImpls.flatMap((i) => [i, `${i} ref`])], vmRows));
    console.log();
  }
  for (const r of pageInteractive) {
    console.log(
      `App time to interactive (Chromium, navigation → first heatmap, median of 3): ${fmt(r.ms_wall, 0)} ms wall, ` +
        `${fmt(r.ms, 0)} ms × CPU share ${r.cpu_share}`,
    );
  }
  if (studio) {
    const rate = studio.reviews_per_second_median;
    console.log(
      `Studio training (Chromium, aclImdb train half, model (a), maxlen 200; medians of ${studio.rounds} interleaved rounds): ` +
        `1 worker ${fmt(rate[1], 0)} reviews/s, 2 workers ${fmt(rate[2], 0)} reviews/s (× ${fmt(studio.speedup_2_over_1, 2)})`,
    );
  }
  if (studioAccuracyLine) console.log(studioAccuracyLine);
  if (imdbTrain) {
    console.log(
      `Native ${imdbTrain.command}: trained in ${fmt(imdbTrain.train_seconds, 1)} s ` +
        `(epochs ${imdbTrain.epoch_seconds.map((x) => fmt(x, 1)).join(' / ')} s; command ${fmt(imdbTrain.wall_seconds, 1)} s wall, ` +
        `${fmt(imdbTrain.cpu_seconds, 1)} s CPU), ${imdbTrain.train_examples} training reviews, ` +
        `held-out accuracy ${fmt(imdbTrain.test_accuracy, 4)} on ${imdbTrain.test_examples}`,
    );
  }
  console.log();
  console.log('Targets (issues 6 and 19)');
  console.log(
    table(
      ['target', 'value', 'met'],
      targets.map((t) => [t.target, fmt(t.value, 2), t.met === null ? '-' : t.met ? 'yes' : 'NO']),
    ),
  );
  console.log();
  console.log(
    `${env.cpu}, ${env.cores} cores, load average ${env.load_average_before.join(' ')} before / ${env.load_average_after.join(' ')} after; ` +
      `node ${env.node}; ${env.emscripten ?? ''}; ${env.seconds} s. gemm: ${Object.entries(env.gemm_implementations)
        .map(([impl, name]) => `${impl} = ${name}`)
        .join(', ')}. ${env.timing}.`,
  );
}

function printDataPath(dataPath) {
  if (!dataPath.length) return;
  console.log();
  console.log('Data path, native (MB/s of text out, best of 3, CPU clock / wall clock)');
  console.log(
    table(
      ['stage', 'MB', 'MB/s', 'MB/s wall'],
      dataPath.map((r) => [r.what, r.mb.toFixed(1), r.mb_per_s.toFixed(0), r.mb_per_s_wall.toFixed(0)]),
    ),
  );
}

main().catch((error) => {
  console.error(error.message ?? error);
  process.exitCode = 1;
});
