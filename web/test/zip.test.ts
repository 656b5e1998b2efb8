import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 as nodeCrc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { crc32, zipFiles } from '../src/lib/zip';

/** Export Data's archive (issue 50, item 13): a zip an ordinary unzip opens, names and texts intact. */

/** Reads a stored zip by its central directory, as an unzip program does, checking each entry's CRC. */
const readZip = (bytes: Uint8Array) => {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = bytes.length - 22;
  expect(view.getUint32(end, true)).toBe(0x06054b50);
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const files: Record<string, string> = {};
  for (let i = 0; i < count; i++) {
    expect(view.getUint32(at, true)).toBe(0x02014b50);
    const size = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const extra = view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    const offset = view.getUint32(at + 42, true);
    const name = new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength));
    expect(view.getUint32(offset, true)).toBe(0x04034b50);
    const start = offset + 30 + view.getUint16(offset + 26, true) + view.getUint16(offset + 28, true);
    const data = bytes.subarray(start, start + size);
    expect(nodeCrc32(data)).toBe(view.getUint32(at + 16, true));
    files[name] = new TextDecoder().decode(data);
    at += 46 + nameLength + extra;
  }
  return files;
};

const FILES = [
  { name: 'lincoln-elementary/students.csv', text: 'First Name,Last Name\r\nAva,Martínez\r\n' },
  { name: 'lincoln-elementary/dismissals.csv', text: 'Session ID\r\n' },
];

describe('zipFiles', () => {
  it('computes CRC-32 as zlib does', () => {
    const bytes = new TextEncoder().encode('Ava,Martínez,2\r\n');
    expect(crc32(bytes)).toBe(nodeCrc32(bytes));
  });

  it('makes an archive whose directory names every file, folders and UTF-8 included, each intact', () => {
    expect(readZip(zipFiles(FILES))).toEqual(Object.fromEntries(FILES.map((file) => [file.name, file.text])));
  });

  it.runIf(existsSync('/usr/bin/unzip'))('opens with unzip', () => {
    const dir = mkdtempSync(join(tmpdir(), 'curbside-zip-'));
    try {
      const path = join(dir, 'export.zip');
      writeFileSync(path, zipFiles(FILES));
      expect(execFileSync('unzip', ['-t', path]).toString()).toContain('No errors detected');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
