// Runs the benchmarks in headless Chromium (Debian's /usr/bin/chromium through playwright-core)
// and measures the app's time to interactive. Used by scripts/bench.mjs; on its own:
//   node bench/browser/run.mjs [--impls wasm-simd,tfjs-wasm] [--quick] [--rounds N (GEMM, default 3)]
//                              [--tfjs-cpu-train (tfjs-cpu's training steps too: minutes each)]
//                              [--no-imdb-train (not the Studio's IMDB recipe to the end)]
//
// A tiny static server serves the repository read-only (only the bench page, the wasm bench
// builds, the TensorFlow.js bundles and dist/), one page per implementation, and every item runs
// on its own (window.benchRun) between two readings of Chromium's Performance.getMetrics. The
// machine is shared: wall-clock figures measure the load as much as the code, and a page has no
// CPU clock. So each item's wall-clock result is also scaled by the renderer's CPU share over the
// item (ΔProcessTime / Δwall, at most 1), which gives "gflops" / "ms_per_step" with
// "clock":"cpu-share"; the raw wall-clock figures stay in "*_wall".
import { createServer } from "node:http";
import {
  createReadStream,
  existsSync,
  mkdtempSync,
  rmSync,
  statSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const root = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../..",
);
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const SERVED = [
  "bench/",
  "build/wasm-bench-simd/",
  "build/wasm-bench-scalar/",
  "node_modules/@tensorflow/",
  "dist/",
];
const TYPES = {
  ".html": "text/html",
  ".js": "text/javascript",
  ".mjs": "text/javascript",
  ".wasm": "application/wasm",
  ".css": "text/css",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".gz": "application/gzip",
};

function serve() {
  const server = createServer((request, response) => {
    const url = new URL(request.url, "http://localhost");
    let relative = decodeURIComponent(url.pathname).replace(/^\/+/, "");
    if (relative === "dist/" || relative === "dist")
      relative = "dist/index.html";
    const file = path.join(root, relative);
    const allowed =
      SERVED.some((prefix) => relative.startsWith(prefix)) &&
      file.startsWith(root + path.sep);
    if (!allowed || !existsSync(file) || !statSync(file).isFile()) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, {
      "Content-Type": TYPES[path.extname(file)] ?? "application/octet-stream",
      "Cache-Control": "no-store",
    });
    createReadStream(file).pipe(response);
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve(server)),
  );
}

const GEMM_SIZES = [
  [32, 512, 128],
  [64, 64, 64],
  [256, 256, 256],
  [6400, 128, 32],
  [32, 128, 32],
];
// BENCH_MODELS=transformer-1block times one model only (experiments).
const MODELS = process.env.BENCH_MODELS?.split(",").filter(Boolean) || [
  "bilstm-attention",
  "transformer-1block",
];

/** A new page of `context` with a CDP session whose Performance metrics are on (metrics(cdp)). */
export async function measuredPage(context) {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Performance.enable", { timeDomain: "timeTicks" });
  return { page, cdp };
}

export async function metrics(cdp) {
  const { metrics: list } = await cdp.send("Performance.getMetrics");
  return Object.fromEntries(list.map(({ name, value }) => [name, value]));
}

// Scales a record's wall-clock figures by the CPU share and renames its impl "<impl> (chromium)".
function adjust(record, share) {
  const out = {
    ...record,
    impl: `${record.impl} (chromium)`,
    cpu_share: Number(share.toFixed(3)),
  };
  // A page has no CPU clock. Headline figure: the median wall time scaled by the renderer's CPU
  // share over the item, which is coarse for short items (the share includes the warm-up); the
  // fastest sample's wall time is kept too ("*_fastest_wall"): on a quiet machine both agree with
  // the median, on a loaded one neither is clean (notes/bench.md).
  if (record.kernel === "gemm") {
    const wall = record.gflops_wall ?? record.gflops;
    out.gflops_wall = wall;
    out.gflops_cpu_share = wall / share;
    out.gflops = out.gflops_cpu_share;
  } else if (record.kernel === "train_step") {
    const wall = record.ms_per_step_wall ?? record.ms_per_step;
    out.ms_per_step_wall = wall;
    out.ms_per_step_cpu_share = wall * share;
    out.ms_per_step = out.ms_per_step_cpu_share;
    out.tokens_per_s = (record.batch * record.maxlen * 1e3) / out.ms_per_step;
  }
  out.clock = "cpu-share";
  return out;
}

// Opens the bench page of one implementation: {impl, page, cdp, errors}.
async function openImpl(context, baseUrl, impl, push) {
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (error) => errors.push(error.message));
  const cdp = await context.newCDPSession(page);
  await cdp.send("Performance.enable", { timeDomain: "timeTicks" });
  await page.goto(`${baseUrl}bench/browser/index.html?impl=${impl}`);
  await page.waitForFunction(() => window.benchReady !== undefined);
  const info = await page.evaluate(() => window.benchReady);
  push({ ...info, impl: `${impl} (chromium)`, kernel: "info" });
  return { impl, page, cdp, errors };
}

// Runs one item on an open page; its records, adjusted by the renderer's CPU share over it.
async function runItem({ impl, page, cdp, errors }, item, log) {
  log(`chromium ${impl}: ${item.join(" ")}`);
  const before = await metrics(cdp);
  const results = await page.evaluate((it) => window.benchRun(it), item);
  const after = await metrics(cdp);
  if (errors.length) throw new Error(`chromium ${impl}: ${errors.join("; ")}`);
  const share = Math.min(
    1,
    (after.ProcessTime - before.ProcessTime) /
      (after.Timestamp - before.Timestamp),
  );
  return results.map((record) => adjust(record, share > 0 ? share : 1));
}

const median = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

// GEMM, `rounds` times, interleaved: every size is timed on every implementation in turn (the
// order reversed every other round), so the implementations compared share each stretch of
// time. This VM has slow and fast phases lasting seconds (the same program measured 21 and 35
// GFLOP/s a minute apart); timing one implementation's sizes after the other's made the ratios
// depend on the phase each run fell in. Each round is a "gemm_round" record; the "gemm" record
// of an implementation, size and variant takes the median of its rounds (all kept in
// rounds_gflops, the best in gflops_fastest_wall).
async function runGemmRounds(pages, rounds, { log, push }) {
  const byKey = new Map();
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 ? [...pages].reverse() : pages;
    for (const size of GEMM_SIZES) {
      for (const p of order) {
        for (const record of await runItem(p, ["gemm", ...size], log)) {
          push({ ...record, kernel: "gemm_round", round });
          const key = [
            record.impl,
            record.variant,
            record.m,
            record.n,
            record.k,
          ].join("|");
          if (!byKey.has(key)) byKey.set(key, []);
          byKey.get(key).push(record);
        }
      }
    }
  }
  for (const list of byKey.values()) {
    push({
      ...list[0],
      gflops: median(list.map((r) => r.gflops)),
      gflops_wall: median(list.map((r) => r.gflops_wall)),
      gflops_fastest_wall: Math.max(
        ...list.map((r) => r.gflops_fastest_wall ?? r.gflops_wall),
      ),
      cpu_share: Number(median(list.map((r) => r.cpu_share)).toFixed(3)),
      gflops_cpu_share: median(list.map((r) => r.gflops_cpu_share)),
      rounds: list.length,
      rounds_gflops: list.map((r) => Number(r.gflops.toFixed(3))),
    });
  }
}

// Navigation → the lab's first computed heatmap (the course example's scores in the table).
async function timeToInteractive(context, baseUrl) {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Performance.enable", { timeDomain: "timeTicks" });
  const before = await metrics(cdp);
  const started = Date.now();
  await page.goto(`${baseUrl}dist/index.html#/lab`);
  await page.waitForFunction(
    () =>
      document.querySelectorAll('[data-testid="heatmap-scores"] td').length >
        0 &&
      [...document.querySelectorAll('[data-testid="heatmap-scores"] td')].every(
        (td) => td.textContent.trim() !== "",
      ),
    null,
    { timeout: 30000, polling: "raf" },
  );
  const ms = await page.evaluate(() => performance.now());
  const after = await metrics(cdp);
  const wallMs = Date.now() - started;
  const share = Math.min(
    1,
    (after.ProcessTime - before.ProcessTime) / Math.max(1e-3, wallMs * 1e-3),
  );
  await page.close();
  return { ms_wall: ms, share };
}

// Median of three loads; "ms" scales the wall time by the renderer's CPU share like the items.
async function pageInteractive(context, baseUrl) {
  const runs = [];
  for (let i = 0; i < 3; ++i)
    runs.push(await timeToInteractive(context, baseUrl));
  runs.sort((a, b) => a.ms_wall - b.ms_wall);
  const { ms_wall, share } = runs[1];
  return {
    impl: "app (chromium)",
    kernel: "page_interactive",
    ms: ms_wall * share,
    ms_wall,
    cpu_share: Number(share.toFixed(3)),
    runs_ms_wall: runs.map((r) => Math.round(r.ms_wall)),
  };
}

/**
 * Starts the static server and headless Chromium, resolves with what `fn(context, baseUrl)`
 * resolves to (the app is at `${baseUrl}dist/index.html`), then stops both.
 */
export async function withBrowser(fn) {
  if (!existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: apt-get install chromium`);
  const server = await serve();
  const baseUrl = `http://127.0.0.1:${server.address().port}/`;
  const profile = mkdtempSync(path.join(tmpdir(), "attn-bench-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--disable-quic",
      // Extra flags for experiments, e.g. BENCH_CHROMIUM_ARGS="--js-flags=--no-liftoff".
      ...(process.env.BENCH_CHROMIUM_ARGS ?? "").split(" ").filter(Boolean),
    ],
  });
  try {
    return await fn(context, baseUrl);
  } finally {
    await context.close();
    await new Promise((resolve) => server.close(resolve));
    rmSync(profile, { recursive: true, force: true });
  }
}

/** Runs the browser benchmarks; resolves with JSON records like bench_kernels.cpp's. */
// onRecord(record) is called as each record arrives (the CLI streams them, so a run cut short
// keeps what it measured).
export async function runBrowserBench({
  impls = ["wasm-simd", "wasm-scalar", "tfjs-wasm", "tfjs-cpu"],
  log = () => {},
  quick = false,
  rounds = 3,
  tfjsCpuTrain = false, // tfjs-cpu's training steps take minutes each: opt in
  imdbTrain = true, // the Studio's IMDB recipe to the end, twice (studio_time_to_accuracy.mjs)
  onRecord = () => {},
} = {}) {
  const records = [];
  const push = (record) => {
    records.push(record);
    onRecord(record);
  };
  await withBrowser(async (context, baseUrl) => {
    push({
      impl: "chromium",
      kernel: "info",
      version: context.browser()?.version() ?? null,
    });
    const pages = [];
    for (const impl of impls)
      pages.push(await openImpl(context, baseUrl, impl, push));
    await runGemmRounds(pages, rounds, { log, push });
    if (!quick)
      for (const p of pages)
        for (const model of MODELS)
          if (p.impl !== "tfjs-cpu" || tfjsCpuTrain)
            for (const record of await runItem(p, ["train", model], log))
              push(record);
    for (const p of pages) await p.page.close();
    if (existsSync(path.join(root, "dist/index.html"))) {
      log("chromium: app time to interactive");
      push(await pageInteractive(context, baseUrl));
    } else {
      log(
        "chromium: dist/ is missing (npm run build), skipping the time-to-interactive check",
      );
    }
    // Studio training on 1 and 2 workers (issue 19): the aclImdb archive beside the repository.
    // (Imported here: studio_throughput.mjs imports this file when run on its own.)
    const { studioThroughput, studioThroughputSkip } = await import(
      "./studio_throughput.mjs"
    );
    const skip = studioThroughputSkip();
    if (skip) log(skip);
    else if (!quick)
      await studioThroughput(context, `${baseUrl}dist/index.html`, {
        log,
        onRecord: push,
      });
    // Issue 29: the Studio's IMDB recipe trained to the end on 1 and 2 workers (minutes each),
    // for model (a) and for attention over words and bigrams (encoder none).
    const { studioTimeToAccuracy, studioTimeToAccuracySkip } = await import(
      "./studio_time_to_accuracy.mjs"
    );
    const accuracySkip = studioTimeToAccuracySkip();
    if (accuracySkip) log(accuracySkip);
    else if (!quick && imdbTrain)
      for (const encoder of ["bilstm", "none"])
        await studioTimeToAccuracy(context, `${baseUrl}dist/index.html`, {
          encoder,
          log,
          onRecord: push,
        });
  });
  return records;
}

if (
  process.argv[1] &&
  path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)
) {
  const args = process.argv.slice(2);
  const at = args.indexOf("--impls");
  const impls =
    at >= 0 ? (args[at + 1] ?? "").split(",").filter(Boolean) : undefined;
  await runBrowserBench({
    impls,
    quick: args.includes("--quick"),
    tfjsCpuTrain: args.includes("--tfjs-cpu-train"),
    imdbTrain: !args.includes("--no-imdb-train"),
    rounds: args.includes("--rounds")
      ? Number(args[args.indexOf("--rounds") + 1])
      : undefined,
    log: (message) => process.stderr.write(`[bench] ${message}\n`),
    onRecord: (record) => process.stdout.write(`${JSON.stringify(record)}\n`),
  });
}
