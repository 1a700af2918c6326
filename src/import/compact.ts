// Compact key stores for the first pass of the import. A file of 200 000 customers holds
// about 600 000 ids; as JavaScript strings in Maps they cost ~100 bytes each and make the
// garbage-collected heap grow by a multiple of that. Here an id is 16 bytes in a typed
// array, outside the JavaScript heap.

/** Value of a hex digit (0-9, a-f, A-F) from its character code. */
function hexDigit(c: number): number {
  return c <= 57 ? c - 48 : (c | 32) - 87;
}

/** The four 32-bit words of a UUID (validated before: 8-4-4-4-12 hex digits). */
function words(id: string, out: Uint32Array, at: number): void {
  let w = 0;
  let n = 0;
  let k = at;
  for (let i = 0; i < 36; i++) {
    const c = id.charCodeAt(i);
    if (c === 45) continue; // '-'
    w = ((w << 4) | hexDigit(c)) >>> 0;
    if (++n === 8) {
      out[k++] = w;
      w = 0;
      n = 0;
    }
  }
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
const hex4 = (w: number) => HEX[(w >>> 8) & 255]! + HEX[w & 255]!;

function text(k: Uint32Array, at: number): string {
  const a = k[at]!;
  const b = k[at + 1]!;
  const c = k[at + 2]!;
  const d = k[at + 3]!;
  return `${hex4(a >>> 16)}${hex4(a)}-${hex4(b >>> 16)}-${hex4(b)}-${hex4(c >>> 16)}-${hex4(c)}${hex4(d >>> 16)}${hex4(d)}`;
}

function hash(k: Uint32Array, at: number): number {
  let h = Math.imul(k[at]! ^ 0x9e3779b9, 0x85ebca6b);
  h = Math.imul(h ^ k[at + 1]! ^ (h >>> 13), 0xc2b2ae35);
  h = Math.imul(h ^ k[at + 2]! ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ k[at + 3]! ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** UUID → non-negative integer (an index), open addressing with linear probing. */
export class UuidMap {
  private keys: Uint32Array;
  private values: Int32Array;
  private mask: number;
  private count = 0;
  private readonly probe = new Uint32Array(4);

  constructor(capacity = 64) {
    let cap = 16;
    while (cap < capacity * 2) cap *= 2;
    this.keys = new Uint32Array(cap * 4);
    this.values = new Int32Array(cap).fill(-1);
    this.mask = cap - 1;
  }

  get size(): number {
    return this.count;
  }

  private slot(k: Uint32Array, at: number): number {
    let i = hash(k, at) & this.mask;
    for (;;) {
      if (this.values[i] === -1) return i;
      const o = i * 4;
      const keys = this.keys;
      if (keys[o] === k[at] && keys[o + 1] === k[at + 1] && keys[o + 2] === k[at + 2] && keys[o + 3] === k[at + 3]) return i;
      i = (i + 1) & this.mask;
    }
  }

  get(id: string): number | undefined {
    words(id, this.probe, 0);
    const v = this.values[this.slot(this.probe, 0)]!;
    return v === -1 ? undefined : v;
  }

  has(id: string): boolean {
    return this.get(id) !== undefined;
  }

  /** Sets id → value (value >= 0). */
  set(id: string, value: number): void {
    words(id, this.probe, 0);
    const i = this.slot(this.probe, 0);
    if (this.values[i] === -1) {
      this.count++;
      this.keys.set(this.probe, i * 4);
    }
    this.values[i] = value;
    if (this.count * 2 > this.mask + 1) this.grow();
  }

  private grow(): void {
    const oldKeys = this.keys;
    const oldValues = this.values;
    const cap = (this.mask + 1) * 2;
    this.keys = new Uint32Array(cap * 4);
    this.values = new Int32Array(cap).fill(-1);
    this.mask = cap - 1;
    for (let j = 0; j < oldValues.length; j++) {
      if (oldValues[j] === -1) continue;
      const i = this.slot(oldKeys, j * 4);
      this.keys.set(oldKeys.subarray(j * 4, j * 4 + 4), i * 4);
      this.values[i] = oldValues[j]!;
    }
  }
}

/** index → UUID (or nothing), growing as needed. */
export class UuidList {
  private keys = new Uint32Array(64 * 4);
  private present = new Uint8Array(64);

  private ensure(i: number): void {
    if (i < this.present.length) return;
    let cap = this.present.length;
    while (cap <= i) cap *= 2;
    const keys = new Uint32Array(cap * 4);
    keys.set(this.keys);
    const present = new Uint8Array(cap);
    present.set(this.present);
    this.keys = keys;
    this.present = present;
  }

  set(i: number, id: string): void {
    this.ensure(i);
    words(id, this.keys, i * 4);
    this.present[i] = 1;
  }

  get(i: number): string | undefined {
    return i < this.present.length && this.present[i] === 1 ? text(this.keys, i * 4) : undefined;
  }
}

/** A growable list of 32-bit integers; unset entries read as `fill`. */
export class IntList {
  private data: Int32Array;
  private len = 0;

  constructor(private readonly fill = -1) {
    this.data = new Int32Array(64).fill(fill);
  }

  get length(): number {
    return this.len;
  }

  set(i: number, v: number): void {
    if (i >= this.data.length) {
      let cap = this.data.length;
      while (cap <= i) cap *= 2;
      const d = new Int32Array(cap).fill(this.fill);
      d.set(this.data);
      this.data = d;
    }
    this.data[i] = v;
    if (i >= this.len) this.len = i + 1;
  }

  push(v: number): void {
    this.set(this.len, v);
  }

  get(i: number): number {
    return i < this.len ? this.data[i]! : this.fill;
  }
}
