/** Time as a dependency, so tests can move it (rate-limit windows, idle conversations). */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export function isoAt(ms: number): string {
  return new Date(ms).toISOString();
}

/** A clock tests can set and advance. */
export function createFakeClock(start = Date.parse('2026-01-15T12:00:00.000Z')): Clock & { advance(ms: number): void; set(ms: number): void } {
  let t = start;
  return { now: () => t, advance: (ms) => { t += ms; }, set: (ms) => { t = ms; } };
}
