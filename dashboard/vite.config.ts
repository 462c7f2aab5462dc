import { resolve } from 'node:path';
import { defineConfig } from 'vite';

// The dashboard is served by the Parley server under /dashboard/ (hashed assets cached for a
// year, index.html never cached). Routes are lazy chunks; the widget preview page is a second
// entry so it can load the real widget.js beside the app without sharing its bundle.
export default defineConfig({
  base: '/dashboard/',
  define: { 'process.env.NODE_ENV': '"production"' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    target: 'es2022',
    assetsDir: 'assets',
    rollupOptions: {
      input: {
        main: resolve(import.meta.dirname, 'index.html'),
        preview: resolve(import.meta.dirname, 'widget-preview.html'),
      },
    },
  },
});
