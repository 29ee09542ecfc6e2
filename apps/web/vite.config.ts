import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/** Stamps dist/sw.js with a build id so that every deploy is a service-worker update. */
function stampServiceWorker(): Plugin {
  let outDir = 'dist';
  return {
    name: 'fanverse-stamp-sw',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const file = resolve(outDir, 'sw.js');
      const source = readFileSync(file, 'utf8');
      const id = `${Date.now().toString(36)}-${createHash('sha1').update(String(Math.random())).digest('hex').slice(0, 8)}`;
      writeFileSync(file, source.replace("const BUILD_ID = 'dev';", `const BUILD_ID = '${id}';`));
    },
  };
}

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react(), stampServiceWorker()],
  server: {
    proxy: {
      '/api': { target: 'http://localhost:3000', changeOrigin: true, ws: true },
    },
  },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
});
