import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

// The root `npm test` builds the widget first; this guards the 15 KB gzip budget of the one
// file every visitor of every customer site downloads.
const bundle = fileURLToPath(new URL('../dist/widget.js', import.meta.url));

describe('widget.js bundle', () => {
  it('exists (run `npm run build -w widget`)', () => {
    expect(existsSync(bundle)).toBe(true);
  });

  it('is at most 15 KB gzipped', () => {
    const size = gzipSync(readFileSync(bundle)).length;
    expect(size).toBeLessThanOrEqual(15 * 1024);
  });

  it('is one self-contained classic script: no imports, no external chunks or stylesheets', () => {
    const code = readFileSync(bundle, 'utf8');
    expect(code).not.toMatch(/\bimport\s*\(|^\s*import\s|\bexport\s/m);
    expect(code).not.toMatch(/\.css['"]|assets\//);
    expect(code).toContain(':host');
  });
});
