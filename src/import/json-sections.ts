// A streaming reader for the one JSON shape the import takes:
//   { "section": [ record, record, ... ], "section": [ ... ], ... }
// It scans the bytes chunk by chunk, cuts out one record at a time and hands it to
// JSON.parse, so memory holds one chunk and one record, never the file. Records of a
// section the caller does not want are only scanned for their end, not parsed (the
// import's second pass reads a file whose syntax the first pass has checked).

import { messageOf } from '../lib/unknown';

/** The file is not the JSON the import takes; the message says where. */
export class JsonShapeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JsonShapeError';
  }
}

export interface SectionHandler {
  /** A section starts; `seq` is its 0-based place among the file's top-level keys. */
  section?(name: string, seq: number, line: number): void;
  /** One element of a section's array (already parsed). */
  record?(section: string, index: number, value: unknown, line: number): void;
  /** A section ends; `count` is the number of elements it had. */
  sectionEnd?(name: string, count: number): void;
  /** A top-level key whose value is not an array (the value is parsed and passed). */
  notArray?(name: string, seq: number, value: unknown, line: number): void;
  /** Whether the records of a section are wanted (parsed and passed to `record`). */
  wants?(section: string): boolean;
}

const enum State {
  Start,
  KeyOrEnd,
  Key,
  Colon,
  SectionValue,
  ElemOrEnd,
  Elem,
  AfterElem,
  AfterSection,
  Done,
}

const enum Kind {
  Container,
  String,
  Literal,
}

const enum Target {
  Key,
  NotArray,
  Record,
}

const BOM = [0xef, 0xbb, 0xbf];
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const LF = 0x0a;

function describe(c: number): string {
  if (c >= 0x20 && c < 0x7f) return `'${String.fromCharCode(c)}'`;
  return `byte 0x${c.toString(16).padStart(2, '0')}`;
}

export class JsonSectionScanner {
  private state = State.Start;
  private line = 1;
  private bytes = 0;
  private seq = 0;
  private section = '';
  private index = 0;
  private wanted = true;
  private readonly seen = new Set<string>();

  // The value being cut out (a key, a record, or a section value that is not an array).
  private inValue = false;
  private kind = Kind.Literal;
  private target = Target.Record;
  private depth = 0;
  private inString = false;
  private escaped = false;
  private valueLine = 1;
  private parts: Buffer[] = [];

  // Records of the current chunk not yet parsed: (start, end, line) triples.
  private group: number[] = [];
  private groupChunk: Buffer | undefined;
  private groupIndex = 0;

  constructor(private readonly handler: SectionHandler) {}

  /** Bytes consumed so far. */
  get position(): number {
    return this.bytes;
  }

  push(chunk: Buffer): void {
    const base = this.bytes; // offset of chunk[0] in the file
    this.bytes += chunk.length;
    this.scan(chunk, base);
    this.flushGroup(); // the records of this chunk, before the next chunk is read
  }

  private scan(chunk: Buffer, base: number): void {
    const n = chunk.length;
    let i = 0;
    if (this.inValue) {
      i = this.scanValue(chunk, i, i);
      if (this.inValue) return;
    }
    while (i < n) {
      const c = chunk[i]!;
      if (c === 0x20 || c === LF || c === 0x0d || c === 0x09) {
        if (c === LF) this.line++;
        i++;
        continue;
      }
      switch (this.state) {
        case State.Start:
          if (base + i < 3 && c === BOM[base + i]) {
            i++; // a UTF-8 byte order mark
            break;
          }
          if (c !== 0x7b) this.fail(`the file must hold a JSON object ({ "customers": [...], ... }), found ${describe(c)}`);
          this.state = State.KeyOrEnd;
          i++;
          break;
        case State.KeyOrEnd:
        case State.Key:
          if (c === 0x7d && this.state === State.KeyOrEnd) {
            this.state = State.Done;
            i++;
            break;
          }
          if (c !== QUOTE) this.fail(`expected a section name in double quotes, found ${describe(c)}`);
          i = this.beginValue(chunk, i, Target.Key);
          break;
        case State.Colon:
          if (c !== 0x3a) this.fail(`expected ':' after the section name "${this.section}", found ${describe(c)}`);
          this.state = State.SectionValue;
          i++;
          break;
        case State.SectionValue:
          if (c === 0x5b) {
            this.state = State.ElemOrEnd;
            this.index = 0;
            this.wanted = this.handler.wants ? this.handler.wants(this.section) : true;
            this.handler.section?.(this.section, this.seq, this.line);
            i++;
          } else {
            i = this.beginValue(chunk, i, Target.NotArray);
          }
          break;
        case State.ElemOrEnd:
          if (c === 0x5d) {
            this.endSection();
            i++;
            break;
          }
          i = this.beginValue(chunk, i, Target.Record);
          break;
        case State.Elem:
          if (c === 0x5d || c === 0x2c) this.fail(`expected a record after ',' in "${this.section}", found ${describe(c)}`);
          i = this.beginValue(chunk, i, Target.Record);
          break;
        case State.AfterElem:
          if (c === 0x2c) this.state = State.Elem;
          else if (c === 0x5d) this.endSection();
          else this.fail(`expected ',' or ']' after ${this.section}[${this.index - 1}], found ${describe(c)}`);
          i++;
          break;
        case State.AfterSection:
          if (c === 0x2c) this.state = State.Key;
          else if (c === 0x7d) this.state = State.Done;
          else this.fail(`expected ',' or '}' after the section "${this.section}", found ${describe(c)}`);
          i++;
          break;
        case State.Done:
          this.fail(`unexpected ${describe(c)} after the end of the JSON object`);
      }
      if (this.inValue) return; // the value runs past this chunk
    }
  }

  /** The end of the input: throws unless the document is complete. */
  end(): void {
    if (this.inValue && this.kind === Kind.Literal) this.finishValue(Buffer.alloc(0), 0, 0);
    if (this.bytes === 0) this.fail('the file is empty');
    if (this.state !== State.Done) this.fail('unexpected end of file: the JSON object is not complete');
  }

  private fail(message: string, line = this.line): never {
    throw new JsonShapeError(`line ${line}: ${message}`);
  }

  private endSection(): void {
    this.flushGroup();
    this.handler.sectionEnd?.(this.section, this.index);
    this.state = State.AfterSection;
  }

  private beginValue(chunk: Buffer, i: number, target: Target): number {
    const c = chunk[i]!;
    this.inValue = true;
    this.target = target;
    this.kind = c === 0x7b || c === 0x5b ? Kind.Container : c === QUOTE ? Kind.String : Kind.Literal;
    this.depth = 0;
    this.inString = false;
    this.escaped = false;
    this.valueLine = this.line;
    this.parts = [];
    if (this.kind === Kind.String) {
      this.inString = true;
      return this.scanValue(chunk, i, i + 1);
    }
    return this.scanValue(chunk, i, i);
  }

  /** Scans from `i` (the value began at `start` in this chunk); returns where scanning stopped. */
  private scanValue(chunk: Buffer, start: number, i: number): number {
    const n = chunk.length;
    if (this.kind === Kind.Literal) {
      for (; i < n; i++) {
        const c = chunk[i]!;
        if (c === 0x2c || c === 0x5d || c === 0x7d || c === 0x20 || c === LF || c === 0x0d || c === 0x09) {
          this.finishValue(chunk, start, i);
          return i;
        }
      }
    } else {
      let depth = this.depth;
      let inString = this.inString;
      let escaped = this.escaped;
      while (i < n) {
        if (inString) {
          // Most bytes are inside strings: jump to the next quote and see whether a run
          // of backslashes escapes it.
          if (escaped) {
            escaped = false;
            i++;
            continue;
          }
          const q = chunk.indexOf(QUOTE, i);
          if (q < 0) {
            let k = 0;
            for (let j = n - 1; j >= i && chunk[j] === BACKSLASH; j--) k++;
            escaped = k % 2 === 1; // the string goes on in the next chunk
            i = n;
            break;
          }
          let k = 0;
          for (let j = q - 1; j >= i && chunk[j] === BACKSLASH; j--) k++;
          i = q + 1;
          if (k % 2 === 1) continue; // an escaped quote
          inString = false;
          if (depth === 0) {
            this.finishValue(chunk, start, i);
            return i;
          }
          continue;
        }
        const c = chunk[i]!;
        if (c === QUOTE) inString = true;
        else if (c === 0x7b || c === 0x5b) depth++;
        else if (c === 0x7d || c === 0x5d) {
          depth--;
          if (depth === 0) {
            this.finishValue(chunk, start, i + 1);
            return i + 1;
          }
        } else if (c === LF) this.line++;
        i++;
      }
      this.depth = depth;
      this.inString = inString;
      this.escaped = escaped;
    }
    // The value continues in the next chunk.
    if (start < n) this.parts.push(chunk.subarray(start));
    return n;
  }

  private parse(text: string, index = this.index): unknown {
    try {
      return JSON.parse(text);
    } catch (e) {
      const what =
        this.target === Target.Key
          ? 'a section name'
          : this.target === Target.Record
            ? `${this.section}[${index}]`
            : `the value of "${this.section}"`;
      return this.fail(`${what} is not valid JSON: ${messageOf(e)}`, this.valueLine);
    }
  }

  /**
   * Records that begin and end in one chunk are parsed together, as one JSON array of the
   * bytes from the first to the last (the commas between them are there already): one
   * JSON.parse and one decoding per chunk instead of one per record.
   */
  private groupRecord(chunk: Buffer, start: number, end: number): void {
    if (this.group.length === 0) {
      this.groupChunk = chunk;
      this.groupIndex = this.index;
    }
    this.group.push(start, end, this.valueLine);
  }

  private flushGroup(): void {
    const g = this.group;
    if (g.length === 0) return;
    const chunk = this.groupChunk!;
    const count = g.length / 3;
    let values: unknown[] | undefined;
    try {
      values = JSON.parse(`[${chunk.toString('utf8', g[0], g[g.length - 2])}]`) as unknown[];
    } catch {
      values = undefined; // find the faulty record below
    }
    for (let k = 0; k < count; k++) {
      const index = this.groupIndex + k;
      let value: unknown;
      if (values && values.length === count) value = values[k];
      else {
        this.valueLine = g[k * 3 + 2]!;
        value = this.parse(chunk.toString('utf8', g[k * 3], g[k * 3 + 1]), index);
      }
      this.handler.record?.(this.section, index, value, g[k * 3 + 2]!);
    }
    this.group = [];
    this.groupChunk = undefined;
  }

  private finishValue(chunk: Buffer, start: number, end: number): void {
    this.inValue = false;
    if (this.target === Target.Record && this.wanted && this.parts.length === 0 && this.handler.record) {
      this.groupRecord(chunk, start, end);
      this.index++;
      this.state = State.AfterElem;
      return;
    }
    this.flushGroup();
    const skip = this.target === Target.Record && !this.wanted;
    let text = '';
    if (!skip) {
      text =
        this.parts.length === 0
          ? chunk.toString('utf8', start, end)
          : Buffer.concat([...this.parts, chunk.subarray(start, end)]).toString('utf8');
    }
    this.parts = [];
    switch (this.target) {
      case Target.Key: {
        const name: unknown = this.parse(text);
        // The scanner calls a key what it found before a colon, so it is a JSON string.
        if (typeof name !== 'string') return this.fail('a section name must be a string', this.valueLine);
        if (this.seen.has(name)) this.fail(`the section "${name}" appears twice`, this.valueLine);
        this.seen.add(name);
        this.section = name;
        this.seq = this.seen.size - 1;
        this.state = State.Colon;
        return;
      }
      case Target.NotArray: {
        const value = this.parse(text);
        this.handler.notArray?.(this.section, this.seq, value, this.valueLine);
        this.state = State.AfterSection;
        return;
      }
      case Target.Record: {
        if (!skip) {
          const value = this.parse(text);
          this.handler.record?.(this.section, this.index, value, this.valueLine);
        }
        this.index++;
        this.state = State.AfterElem;
      }
    }
  }
}
