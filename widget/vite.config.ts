import { defineConfig } from 'vite';

// One self-contained IIFE: site owners paste a single <script> tag, so no chunks, no CSS
// file (styles.css is imported with ?inline and injected into the shadow root).
export default defineConfig({
  // Library mode keeps process.env references for the consumer; a browser script has none.
  define: { 'process.env.NODE_ENV': '"production"' },
  build: {
    lib: {
      entry: 'src/main.tsx',
      formats: ['iife'],
      name: 'ParleyWidget',
      fileName: () => 'widget.js',
    },
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
  },
});
