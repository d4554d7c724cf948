// Loads the page's TypeScript modules in node through Vite's SSR loader — the same transform the
// page build uses — for unit tests of their pure parts (the DOM parts are tested in tests/e2e/).
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';

/**
 * Resolves with { modules, close }: modules[i] is the module at paths[i] (paths from web/, e.g.
 * '/src/app/router.ts'); close() stops the loader (call it in after()).
 */
export async function loadWebModules(...paths) {
  const server = await createServer({
    configFile: fileURLToPath(new URL('../../../web/vite.config.ts', import.meta.url)),
    server: { middlewareMode: true, hmr: false, ws: false, watch: null },
    appType: 'custom',
    logLevel: 'silent',
    optimizeDeps: { noDiscovery: true, include: [] },
  });
  try {
    const modules = [];
    for (const p of paths) modules.push(await server.ssrLoadModule(p));
    return { modules, close: () => server.close() };
  } catch (error) {
    await server.close();
    throw error;
  }
}
