import { defineConfig, type Plugin } from 'vite';
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
      return html.replace(/\s*<!--[^>]*CONTENT_SECURITY_POLICY[^>]*-->\s*<meta http-equiv="Content-Security-Policy"[^>]*>/, '');
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

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './', // relative URLs: the built page works from any static folder
  build: {
    outDir: fileURLToPath(new URL('../dist', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
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
  plugins: [relaxCspForDevServer(), cspHeaderForPreview()],
  worker: { format: 'es' },
  server: { port, strictPort: true, host: 'localhost' },
  preview: {
    port,
    strictPort: true,
    host: 'localhost',
  },
});
