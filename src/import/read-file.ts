import fs from 'node:fs';
import { JsonSectionScanner, JsonShapeError, type SectionHandler } from './json-sections';
import { ImportFileError } from './types';
import { stringProp } from '../lib/unknown';

const CHUNK = 1 << 20;

function fsMessage(e: NodeJS.ErrnoException): string {
  switch (e.code) {
    case 'ENOENT':
      return 'no such file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'is a directory';
    default:
      return e.message;
  }
}

const isFsError = (e: unknown): e is NodeJS.ErrnoException => e instanceof Error && stringProp(e, 'syscall') !== undefined;

/** Size of a readable regular file; an ImportFileError otherwise. */
export async function fileSize(file: string): Promise<{ size: number; mtimeMs: number }> {
  try {
    const st = await fs.promises.stat(file);
    if (st.isDirectory()) throw new ImportFileError(`cannot read ${file}: is a directory`);
    await fs.promises.access(file, fs.constants.R_OK);
    return { size: st.size, mtimeMs: st.mtimeMs };
  } catch (e) {
    if (isFsError(e)) throw new ImportFileError(`cannot read ${file}: ${fsMessage(e)}`);
    throw e;
  }
}

/**
 * Streams the file through the scanner. `afterChunk` runs after each chunk's records were
 * handed over; the next chunk is read only when it has finished (back-pressure).
 */
export async function scanFile(file: string, handler: SectionHandler, afterChunk?: (bytes: number) => Promise<void> | void): Promise<void> {
  const scanner = new JsonSectionScanner(handler);
  try {
    for await (const chunk of fs.createReadStream(file, { highWaterMark: CHUNK })) {
      scanner.push(chunk as Buffer);
      if (afterChunk) await afterChunk(scanner.position);
    }
    scanner.end();
  } catch (e) {
    if (e instanceof JsonShapeError) throw new ImportFileError(`${file} is not a valid import file: ${e.message}`);
    if (isFsError(e)) throw new ImportFileError(`cannot read ${file}: ${fsMessage(e)}`);
    throw e;
  }
}
