import v8 from 'node:v8';
import vm from 'node:vm';

// Keeps the import's peak memory close to what it really holds. Both passes allocate a
// lot of short-lived data (parsed records, the statements' parameters, which Prisma copies
// several times), and V8 lets its heap grow to a multiple of the live data before it
// collects: for a 160 MB file that is several hundred MB of garbage on top of ~50 MB of
// live data. A full collection every few MB of input costs a few milliseconds each and
// keeps the resident size flat. The `gc` function is taken from a fresh context after
// enabling --expose-gc at run time (the npm script cannot pass node flags); where that
// is not possible this does nothing.

let gc: (() => void) | null | undefined;

function collector(): (() => void) | null {
  if (gc !== undefined) return gc;
  try {
    v8.setFlagsFromString('--expose-gc');
    const f: unknown = vm.runInNewContext('gc');
    gc = typeof f === 'function' ? (f as () => void) : null;
  } catch {
    gc = null;
  }
  return gc;
}

/** Collects garbage once `bytes` has moved on by `every` since the last collection. */
export class GarbageCollector {
  private last = 0;

  constructor(private readonly every = 16 * 1024 * 1024) {}

  tick(bytes: number): void {
    if (bytes - this.last < this.every) return;
    this.last = bytes;
    const t = performance.now();
    collector()?.();
    (globalThis as any).__gcms = ((globalThis as any).__gcms ?? 0) + performance.now() - t;
    (globalThis as any).__gcn = ((globalThis as any).__gcn ?? 0) + 1;
  }

  /** Collects now (between the passes). */
  now(): void {
    this.last = 0;
    collector()?.();
  }
}
