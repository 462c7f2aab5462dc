import fs from 'node:fs';

/**
 * CPU time of other processes from /proc (Linux): Parley instances, nginx and PostgreSQL
 * backends have no /cpu route like the serve process, and the kernel's accounting is the same
 * for all of them. Resolution is one clock tick (10 ms at the usual 100 Hz), far below a
 * window's seconds of CPU.
 */
const TICK_MICROS = 1_000_000 / 100;

/** utime + stime of one process (µs), or null when it is gone. */
export function processCpuMicros(pid: number): number | null {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The command name (field 2) may hold spaces: fields are counted after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return Number.isFinite(utime) && Number.isFinite(stime) ? (utime + stime) * TICK_MICROS : null;
}

/** The direct children of `pid` (nginx's worker under its master). */
export function childPids(pid: number): number[] {
  const out: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) out.push(Number(entry));
  }
  return out;
}

/** A reading of several processes' CPU, by pid. */
export type CpuSnapshot = Map<number, number>;

export function snapshot(pids: readonly number[]): CpuSnapshot {
  const s: CpuSnapshot = new Map();
  for (const pid of pids) {
    const micros = processCpuMicros(pid);
    if (micros !== null) s.set(pid, micros);
  }
  return s;
}

/**
 * CPU spent between two readings: a process that appeared in between counts from zero (a new
 * PostgreSQL backend); one that ended in between is lost (the pools keep their connections
 * under load, so this is rare).
 */
export function cpuBetween(before: CpuSnapshot, after: CpuSnapshot): number {
  let total = 0;
  for (const [pid, micros] of after) total += micros - (before.get(pid) ?? 0);
  return total;
}
