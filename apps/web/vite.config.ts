import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { type EndpointDef, endpoints } from '../../packages/contract/src/api.ts';

/**
 * Production builds: src/app/endpointTable.ts becomes the contract's routes alone (method, path,
 * multipart per endpoint), so the first load carries neither zod nor the schemas.
 */
function endpointRoutes(): Plugin {
  return {
    name: 'fanverse-endpoint-routes',
    apply: 'build',
    load(id) {
      if (!id.endsWith('/src/app/endpointTable.ts')) return null;
      const routes = Object.fromEntries(
        Object.entries(endpoints as Record<string, EndpointDef>).map(
          ([name, { method, path, multipart }]) => [
            name,
            multipart ? { method, path, multipart } : { method, path },
          ],
        ),
      );
      return `export const endpointTable = ${JSON.stringify(routes)};`;
    },
  };
}

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

/**
 * Writes .br and .gz twins of the built assets (the server's static plugin sends them to browsers
 * that accept them, so nothing is compressed per request).
 */
function precompressAssets(): Plugin {
  let assetsDir = 'dist/assets';
  return {
    name: 'fanverse-precompress',
    apply: 'build',
    configResolved(config) {
      assetsDir = resolve(config.root, config.build.outDir, config.build.assetsDir);
    },
    closeBundle() {
      for (const name of readdirSync(assetsDir)) {
        if (!/\.(js|css|svg|json|txt)$/.test(name)) continue;
        const file = resolve(assetsDir, name);
        const source = readFileSync(file);
        if (source.length < 1024) continue;
        writeFileSync(`${file}.gz`, gzipSync(source, { level: 9 }));
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(source, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
        );
      }
    },
  };
}

/**
 * Puts the entry's stylesheet inside index.html (a <style> in place of its <link>): the page's
 * shell paints from the first response, with no render-blocking request for the CSS (about 9 KB
 * gzip, compressed with the page). The content-security policy allows inline styles, not scripts.
 */
function inlineEntryCss(): Plugin {
  return {
    name: 'fanverse-inline-entry-css',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        return html.replace(
          /<link rel="stylesheet"[^>]*href="\/([^"]+\.css)"[^>]*>/g,
          (link, fileName: string) => {
            const asset = bundle?.[fileName];
            if (asset?.type !== 'asset') return link;
            return `<style>${String(asset.source)}</style>`;
          },
        );
      },
    },
  };
}

/**
 * The server's first view (ADR 0048): `vite build --ssr` builds src/ssr/firstView.tsx into
 * dist-ssr/firstView.js (npm packages stay imports from node_modules), which the server imports.
 */
const firstViewBuild = {
  root: import.meta.dirname,
  plugins: [react(), endpointRoutes()],
  build: {
    ssr: 'src/ssr/firstView.tsx',
    outDir: 'dist-ssr',
    emptyOutDir: true,
    sourcemap: true,
    copyPublicDir: false,
    rollupOptions: { output: { entryFileNames: 'firstView.js' } },
  },
};

export default defineConfig(({ isSsrBuild }) =>
  isSsrBuild
    ? firstViewBuild
    : {
        root: import.meta.dirname,
        plugins: [react(), endpointRoutes(), inlineEntryCss(), stampServiceWorker(), precompressAssets()],
        server: {
          proxy: {
            '/api': { target: 'http://localhost:3000', changeOrigin: true, ws: true },
          },
        },
        build: { outDir: 'dist', emptyOutDir: true, sourcemap: true, manifest: true },
      },
);
