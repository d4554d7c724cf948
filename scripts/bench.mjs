// Benchmarks side by side: the same program (bench/bench_kernels.cpp) run natively
// (build/native-bench/attn_bench), as wasm SIMD and as wasm scalar under node. Each run prints JSON
// lines; this script collects them and prints three tables (GEMM GFLOP/s, training steps,
// vector maths Melem/s).
//
//   npm run bench                       tables
//   npm run --silent bench -- --json    one JSON object {"gemm": [...], "train_step": [...], "vector_math": [...], "env": {...}}
//   node scripts/bench.mjs --native-only
//
// The native bench build (build/native-bench, without xtensor's assertions) and the two wasm builds live in their own
// build directories (build/wasm-bench-simd, build/wasm-bench-scalar, differing only in ATTN_SIMD);
// they are configured on first use and brought up to date incrementally (a no-op when nothing
// changed), so the numbers always describe the checked-out sources.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const asJson = args.includes('--json');
const nativeOnly = args.includes('--native-only');
const jobs = String(os.cpus().length || 2);

const log = (message) => process.stderr.write(`\x1b[1m[bench]\x1b[0m ${message}\n`);

// Runs a command; resolves with its stdout, rejects (with stderr) on a non-zero exit.
// Build tools' chatter goes to our stderr so --json output stays clean.
function run(command, commandArgs, { env = process.env, echo = false } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, commandArgs, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
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
        ? resolve(stdout)
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
  await run('cmake', ['--build', dir, '--target', 'attn_bench', '-j', jobs], { env: emscriptenEnv });
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

function parseLines(stdout) {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line));
}

async function main() {
  const records = [];
  // The native bench has its own build: the test build (build/native) enables xtensor's
  // bounds assertions, which would slow the native side of every comparison.
  const nativeDir = 'build/native-bench';
  if (!existsSync(path.join(root, nativeDir, 'CMakeCache.txt'))) {
    log(`configuring ${nativeDir}`);
    await run('cmake', ['-S', '.', '-B', nativeDir, '-DCMAKE_BUILD_TYPE=Release', '-DATTN_XTENSOR_ASSERT=OFF', '-DATTN_BUILD_TESTS=OFF']);
  }
  log(`building ${nativeDir}/attn_bench`);
  await run('cmake', ['--build', nativeDir, '--target', 'attn_bench', '-j', jobs]);
  const nativeBench = path.join(root, nativeDir, 'attn_bench');
  // One at a time: they would otherwise compete for the same cores.
  log('running native');
  records.push(...parseLines(await run(nativeBench, [])));
  if (!nativeOnly) {
    for (const [dir, simd, name] of [
      ['build/wasm-bench-simd', true, 'wasm SIMD'],
      ['build/wasm-bench-scalar', false, 'wasm scalar'],
    ]) {
      const program = await ensureWasmBench(dir, simd);
      log(`running ${name}`);
      records.push(...parseLines(await runWasmBench(program)));
    }
  }

  const gemm = records.filter((r) => r.kernel === 'gemm');
  const trainStep = records.filter((r) => r.kernel === 'train_step');
  const vectorMath = records.filter((r) => r.kernel !== 'gemm' && r.kernel !== 'train_step');
  const env = {
    date: new Date().toISOString(),
    node: process.version,
    cpu: os.cpus()[0]?.model ?? 'unknown',
    cores: os.cpus().length,
    load_average: os.loadavg().map((x) => Number(x.toFixed(2))),
    platform: `${os.platform()} ${os.arch()}`,
    gemm_implementations: Object.fromEntries(gemm.map((r) => [r.impl, r.gemm_impl])),
    emscripten: nativeOnly ? null : (await run('emcc', ['--version'], { env: emscriptenEnv })).split('\n')[0],
  };
  if (asJson) {
    process.stdout.write(`${JSON.stringify({ gemm, vector_math: vectorMath, train_step: trainStep, env })}\n`);
    return;
  }
  printTables(gemm, vectorMath, trainStep, env);
}

function table(header, rows) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

function printTables(gemm, vectorMath, trainStep, env) {
  const impls = ['native', 'wasm-simd', 'wasm-scalar'].filter((impl) => gemm.some((r) => r.impl === impl));
  const pick = (list, impl, variant, match) =>
    list.find((r) => r.impl === impl && r.variant === variant && match(r));
  const fmt = (x, digits = 1) => (x === undefined ? '-' : x.toFixed(digits));

  const sizes = [...new Map(gemm.map((r) => [`${r.m}x${r.n}x${r.k}`, r])).values()];
  const gemmHeader = ['GEMM GFLOP/s (M×N×K)', ...impls.flatMap((i) => [i, `${i} ref`])];
  if (impls.includes('wasm-simd') && impls.includes('wasm-scalar')) gemmHeader.push('simd/scalar');
  const gemmRows = sizes.map((s) => {
    const same = (r) => r.m === s.m && r.n === s.n && r.k === s.k;
    const row = [`${s.m}×${s.n}×${s.k}`];
    for (const impl of impls) {
      row.push(fmt(pick(gemm, impl, 'fast', same)?.gflops, 2), fmt(pick(gemm, impl, 'reference', same)?.gflops, 2));
    }
    if (gemmHeader.at(-1) === 'simd/scalar') {
      const ratio = pick(gemm, 'wasm-simd', 'fast', same)?.gflops / pick(gemm, 'wasm-scalar', 'fast', same)?.gflops;
      row.push(`${fmt(ratio)}×`);
    }
    return row;
  });

  const kernels = [...new Set(vectorMath.map((r) => r.kernel))];
  const vmHeader = ['Vector maths Melem/s', ...impls.flatMap((i) => [i, `${i} ref`])];
  const vmRows = kernels.map((kernel) => {
    const same = (r) => r.kernel === kernel;
    const n = vectorMath.find(same)?.n;
    return [
      `${kernel} (n = ${n})`,
      ...impls.flatMap((impl) => [
        fmt(pick(vectorMath, impl, 'fast', same)?.melem_per_s, 0),
        fmt(pick(vectorMath, impl, 'reference', same)?.melem_per_s, 0),
      ]),
    ];
  });

  const models = [...new Set(trainStep.map((r) => r.model))];
  const stepHeader = ['Training step (batch 32 × 200 tokens)', ...impls.flatMap((i) => [`${i} ms`, `${i} tok/s`])];
  if (impls.includes('native') && impls.includes('wasm-simd')) stepHeader.push('wasm-simd/native');
  const stepRows = models.map((model) => {
    const row = [model];
    const of = (impl) => trainStep.find((r) => r.model === model && r.impl === impl);
    for (const impl of impls) row.push(fmt(of(impl)?.ms_per_step, 1), fmt(of(impl)?.tokens_per_s, 0));
    if (stepHeader.at(-1) === 'wasm-simd/native') row.push(`${fmt(of('wasm-simd')?.ms_per_step / of('native')?.ms_per_step, 2)}×`);
    return row;
  });

  console.log(table(gemmHeader, gemmRows));
  console.log();
  console.log(table(stepHeader, stepRows));
  console.log();
  console.log(table(vmHeader, vmRows));
  console.log();
  console.log(
    `"ref" = the plain-loop reference. ${env.cpu}, ${env.cores} cores, load average ${env.load_average.join(' ')}; ` +
      `node ${env.node}; gemm: ${Object.entries(env.gemm_implementations)
        .map(([impl, name]) => `${impl} = ${name}`)
        .join(', ')}.`,
  );
}

main().catch((error) => {
  console.error(error.message ?? error);
  process.exitCode = 1;
});
