// Serves the built page (dist/) on http://localhost:$PORT (default 5173).
import { preview } from 'vite';

const server = await preview({ configFile: new URL('../web/vite.config.ts', import.meta.url).pathname });
const url = server.resolvedUrls?.local[0] ?? `http://localhost:${process.env.PORT ?? 5173}/`;
console.log(`\nAttention Playground is running at ${url}\n(press Ctrl+C to stop)`);
