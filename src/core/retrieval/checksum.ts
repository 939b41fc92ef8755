/**
 * CRC-32 (the zlib/PNG polynomial) for the index's stored data: shard headers and chunk
 * texts, the lexical snapshot. A check against damage on disk (a flipped byte, a lost line),
 * not against an adversary (who could rewrite the checksum with the data). zlib's own when
 * the runtime has it (Node >= 20.15, 22.2), a table otherwise; the two agree. No imports
 * beyond node:zlib, so the lexical build thread's bundle stays small.
 */
import * as zlib from 'node:zlib';

let table: Uint32Array | undefined;

function crc32Js(data: Uint8Array, prev = 0): number {
  if (!table) {
    table = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c >>> 0;
    }
  }
  let c = (prev ^ 0xffffffff) >>> 0;
  for (let i = 0; i < data.length; i++) c = table[(c ^ data[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

const native = (zlib as { crc32?: (data: Uint8Array | string, value?: number) => number }).crc32;

/** CRC-32 of `data` (strings as UTF-8), continuing from `prev` (a running checksum) */
export function crc32(data: Uint8Array | string, prev = 0): number {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  return native ? native(bytes, prev) >>> 0 : crc32Js(bytes, prev);
}

/** the table version, exported for the test that it agrees with zlib's */
export const crc32Table = crc32Js;
