/** Time as a dependency, so tests can move it (rate-limit windows, idle conversations). */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export function isoAt(ms: number): string {
  return new Date(ms).toISOString();
}

/** A clock tests move by hand. */
export interface FakeClock extends Clock {
  /** Moves the time `ms` milliseconds forward. */
  advance(ms: number): void;
  /** Sets the time to `ms` (epoch milliseconds). */
  set(ms: number): void;
}

/** A clock tests can set and advance. */
export function createFakeClock(start = Date.parse('2026-01-15T12:00:00.000Z')): FakeClock {
  let t = start;
  return {
    now: () => t,
    advance: (ms) => {
      t += ms;
    },
    set: (ms) => {
      t = ms;
    },
  };
}
