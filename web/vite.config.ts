/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath, URL } from 'node:url';
import { serviceWorkerPlugin } from './sw-plugin.ts';

// The local gateway (infra/gateway) listens on 9999 (spec: dev port 9999), so
// the vite dev server takes another port and proxies the API to it.
const apiTarget = process.env.VITE_API_PROXY ?? 'http://127.0.0.1:9999';

export default defineConfig({
  base: './',
  plugins: [react(), serviceWorkerPlugin()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  server: {
    port: 8080,
    proxy: { '/partnerapi': { target: apiTarget, changeOrigin: true } },
    // The server's message catalogue is read where it lives (src/i18n/messages.ts).
    fs: { allow: ['.', '../shared/envelope/messages'] },
  },
  build: {
    outDir: 'dist',
    assetsDir: 'static',
    // exceljs is one 929 kB chunk (minified; 256 kB gzip), fetched only when
    // a page exports or imports a sheet (`import('exceljs')`); every other
    // chunk stays under 600 kB, so a new one above 1000 kB still warns.
    chunkSizeWarningLimit: 1000,
    manifest: true,
    rolldownOptions: {
      // Rolldown's automatic splitting left ~230 chunks, many under 1 KB
      // (one Fluent hook or icon each): a cold order list made 115 requests,
      // queued on HTTP/1.1's 6 connections per host. Common chunks under
      // 64 KiB are copied into the chunks that use them (a shared runtime
      // keeps one module state), so the cold order list makes 34 requests
      // and is interactive in about half the time; the price is more bytes
      // over all pages (each lazy page carries its copies), not on any one.
      preserveEntrySignatures: false,
      // A feature's public face (index.ts) re-exports its pieces; its api,
      // components and model modules only declare things, so a page that
      // imports one piece through the face leaves the others out of its
      // chunk (the home screen does not carry the refund dialogs).
      treeshake: {
        moduleSideEffects: [{ test: /\/src\/features\/[^/]+\/(api|components|model)\//, sideEffects: false }],
      },
      output: {
        codeSplitting: {
          experimentalInlineCommonChunks: { maxSize: 64 * 1024 },
        },
      },
    },
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/test/setup.ts'],
    // The app tests render the whole shell with lazy pages; on a loaded
    // 2-core machine one can take over the default 5 s without being wrong.
    testTimeout: 15_000,
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
  },
});
