// CPU time of processes from /proc (Linux), in clock ticks of 10 ms: what the benchmarks
// print per request beside throughput, which moves more than CPU on a shared machine.
import fs from 'node:fs';

const statFields = (pid) => {
  try {
    const s = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return s.slice(s.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
};

/** CPU ticks of one process (with its reaped children's when `children`). */
export const cpuTicks = (pid, children = false) => {
  const f = statFields(pid);
  return f ? Number(f[11]) + Number(f[12]) + (children ? Number(f[13]) + Number(f[14]) : 0) : 0;
};

/** CPU ticks of every process named `comm` (postgres, pgbouncer) on this machine. */
export function processTicks(comm) {
  let total = 0;
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      if (fs.readFileSync(`/proc/${d}/comm`, 'utf8').trim() !== comm) continue;
      const parent = statFields(d)?.[1] ?? '1';
      // The postmaster also collects its exited children's time.
      total += cpuTicks(d, fs.readFileSync(`/proc/${parent}/comm`, 'utf8').trim() !== comm);
    } catch {}
  }
  return total;
}

/**
 * CPU ticks of the PostgreSQL backends serving database `name` (their process title,
 * /proc/<pid>/cmdline, names it), by process id: unlike processTicks('postgres'), blind to
 * other clients of a shared server.
 */
export function databaseBackends(name) {
  const ticks = new Map();
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      if (fs.readFileSync(`/proc/${d}/comm`, 'utf8').trim() !== 'postgres') continue;
      if (!fs.readFileSync(`/proc/${d}/cmdline`, 'utf8').includes(` ${name} `)) continue;
      ticks.set(d, cpuTicks(d));
    } catch {}
  }
  return ticks;
}

/**
 * Ticks the backends of database `name` spent since `before` (an earlier databaseBackends),
 * process by process: one that started since counts from 0, and one that ended (a pool closes
 * idle connections) takes with it only its ticks since `before`. The difference of two sums
 * subtracted all its earlier ticks too: -87 ms per request once, for a backend that ended.
 */
export function backendTicksSince(name, before) {
  let total = 0;
  for (const [pid, ticks] of databaseBackends(name)) total += ticks - (before.get(pid) ?? 0);
  return total;
}

/**
 * The machine's ticks (all cores) and those stolen by the host (/proc/stat's steal): on a
 * virtual machine the same work costs more CPU while its host runs other guests.
 */
export function machineTicks() {
  const f = fs.readFileSync('/proc/stat', 'utf8').split('\n', 1)[0].trim().split(/\s+/).slice(1).map(Number);
  return { total: f.reduce((a, b) => a + b, 0), steal: f[7] ?? 0 };
}
