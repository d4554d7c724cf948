import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';

const port = Number(process.env.PORT ?? 5173);

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
  worker: { format: 'es' },
  server: { port, strictPort: true, host: 'localhost' },
  preview: { port, strictPort: true, host: 'localhost' },
});
