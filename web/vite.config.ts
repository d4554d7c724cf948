import { defineConfig, type Plugin } from 'vite';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const port = Number(process.env.PORT ?? 5173);

// The page's Content-Security-Policy: no eval (the wasm module is linked with
// -sDYNAMIC_EXECUTION=0; compiling wasm needs only 'wasm-unsafe-eval'), no inline scripts or
// styles, nothing fetched from elsewhere. index.html carries it as a <meta>; the preview server
// (npm start, browser tests) also sends it as a header, because a worker's script is governed by
// its own response's policy, not by the page's <meta>.
export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data: blob:; worker-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'";

// The dev server injects CSS as inline <style> elements (hot reload), which style-src 'self'
// forbids: drop the <meta> there only. The built page keeps it.
function relaxCspForDevServer(): Plugin {
  return {
    name: 'attn-relax-csp-for-dev-server',
    apply: 'serve',
    transformIndexHtml(html) {
      return html.replace(
        /\s*<!--[^>]*CONTENT_SECURITY_POLICY[^>]*-->\s*<meta http-equiv="Content-Security-Policy"[^>]*>/,
        '',
      );
    },
  };
}

// The preview server sends the policy as a header for everything but the course's two pages,
// which carry their own <meta> policies (the course loads KaTeX's data: font; the code sandbox
// frame allows inline scripts and eval for the learner's code, inside its opaque origin).
function cspHeaderForPreview(): Plugin {
  return {
    name: 'attn-csp-header-for-preview',
    configurePreviewServer(server) {
      server.middlewares.use((req, res, next) => {
        const path = (req.url ?? '/').split(/[?#]/)[0];
        if (!/\/(course|sandbox)\.html$/.test(path)) res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
        next();
      });
    },
  };
}

// Writes dist/sw.js after the build: a service worker that precaches every built file (pages,
// JS, CSS, wasm, fonts, public/) and serves them cache-first, so the app works offline once
// loaded, from its own files. The cache name carries a hash of all the files, so a new build
// installs a fresh cache and deletes the old one. Plain static files: no server header needed.
function precacheServiceWorker(): Plugin {
  let outDir = '';
  return {
    name: 'attn-precache-service-worker',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    writeBundle() {
      const files: string[] = [];
      const walk = (dir: string) => {
        for (const entry of readdirSync(dir, { withFileTypes: true })) {
          const full = path.join(dir, entry.name);
          if (entry.isDirectory()) walk(full);
          else files.push(path.relative(outDir, full).split(path.sep).join('/'));
        }
      };
      walk(outDir);
      // KaTeX ships each font as woff2, woff and ttf; every browser that runs a service worker
      // takes the woff2 (listed first), so the others are left to the network.
      const precached = files.filter((f) => f !== 'sw.js' && !/\.(map|woff|ttf)$/.test(f)).sort();
      const hash = createHash('sha256');
      for (const file of precached) hash.update(file).update(readFileSync(path.join(outDir, file)));
      const template = readFileSync(fileURLToPath(new URL('./sw_template.js', import.meta.url)), 'utf8');
      const sw = template
        .replace('__CACHE_VERSION__', hash.digest('hex').slice(0, 16))
        .replace('__PRECACHE_FILES__', JSON.stringify(['./', ...precached.map((f) => `./${f}`)]));
      writeFileSync(path.join(outDir, 'sw.js'), sw);
    },
  };
}

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './', // relative URLs: the built page works from any static folder
  build: {
    outDir: fileURLToPath(new URL('../dist', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    // Fonts are never inlined as data: URLs (KaTeX has a font under the 4 kB default): the app's
    // policy loads fonts from 'self' only.
    assetsInlineLimit: (file) => (/\.(woff2?|ttf)$/.test(file) ? false : undefined),
    rollupOptions: {
      input: {
        main: fileURLToPath(new URL('./index.html', import.meta.url)),
        course: fileURLToPath(new URL('./course.html', import.meta.url)),
      },
      output: {
        // The course's big libraries in chunks of their own (each under Vite's 500 kB warning).
        manualChunks(id) {
          if (/node_modules\/katex\//.test(id)) return 'katex';
          // The editor core (view, state and their helpers) imports nothing from the rest.
          if (/node_modules\/(@codemirror\/(view|state)|style-mod|w3c-keyname|crelt|@marijn)\//.test(id))
            return 'codemirror';
          if (/node_modules\/(@codemirror|@lezer|codemirror)\//.test(id)) return 'codemirror-language';
          return undefined;
        },
      },
    },
  },
  plugins: [relaxCspForDevServer(), cspHeaderForPreview(), precacheServiceWorker()],
  worker: { format: 'es' },
  server: { port, strictPort: true, host: 'localhost' },
  preview: {
    port,
    strictPort: true,
    host: 'localhost',
  },
});
