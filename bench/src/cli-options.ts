/** `--name N` from the command line of a bench script, a positive number, or `fallback`. */
export function readOption(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} wants a positive number`);
  return value;
}
