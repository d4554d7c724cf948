// A zip archive of a few files, stored without compression (method 0): the PyTorch export
// (views/studio/pytorch_export.ts) leaves the page as one download instead of three. Layout per
// PKWARE's APPNOTE: a local header + the bytes for each file, then the central directory, then
// its end record; every number little-endian; names UTF-8 (flag bit 11); no zip64, so the
// archive must stay below 4 GiB.
// The CRC stays in model_store.ts, which the storage browser test loads as one self-contained file.
import { crc32 } from '../storage/model_store';

export interface ZipEntry {
  name: string;
  bytes: Uint8Array;
}

const UTF8_NAMES = 0x0800;
const DOS_DATE_1980_01_01 = 0x21; // the earliest date zip can hold; the archive is not dated

/** The archive's bytes. Throws for an empty name, or an archive of 4 GiB or more or 65536 files. */
export function zipStored(entries: ZipEntry[]): Uint8Array {
  const encoder = new TextEncoder();
  const names = entries.map((e) => {
    if (!e.name) throw new Error('zipStored: every file needs a name');
    return encoder.encode(e.name);
  });
  const crcs = entries.map((e) => crc32(e.bytes));
  const localSize = entries.reduce((n, e, i) => n + 30 + names[i].length + e.bytes.length, 0);
  const centralSize = names.reduce((n, name) => n + 46 + name.length, 0);
  const total = localSize + centralSize + 22;
  if (total >= 2 ** 32 || entries.length > 0xffff) {
    throw new Error('zipStored: the archive would need zip64 (4 GiB or more, or over 65535 files)');
  }
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  let at = 0;
  const u16 = (v: number): void => {
    view.setUint16(at, v, true);
    at += 2;
  };
  const u32 = (v: number): void => {
    view.setUint32(at, v, true);
    at += 4;
  };
  const bytes = (b: Uint8Array): void => {
    out.set(b, at);
    at += b.length;
  };
  // What the local header and the central directory record both say about a file.
  const common = (i: number): void => {
    u16(20); // version needed: 2.0
    u16(UTF8_NAMES);
    u16(0); // stored
    u16(0); // time 00:00:00
    u16(DOS_DATE_1980_01_01);
    u32(crcs[i]);
    u32(entries[i].bytes.length); // compressed size = size
    u32(entries[i].bytes.length);
    u16(names[i].length);
    u16(0); // no extra field
  };
  const offsets: number[] = [];
  entries.forEach((e, i) => {
    offsets.push(at);
    u32(0x04034b50);
    common(i);
    bytes(names[i]);
    bytes(e.bytes);
  });
  const centralStart = at;
  entries.forEach((_, i) => {
    u32(0x02014b50);
    u16(20); // made by: 2.0, MS-DOS attributes
    common(i);
    u16(0); // no comment
    u16(0); // disk 0
    u16(0); // internal attributes
    u32(0); // external attributes
    u32(offsets[i]);
    bytes(names[i]);
  });
  const centralEnd = at;
  u32(0x06054b50);
  u16(0); // this disk
  u16(0); // the disk where the central directory starts
  u16(entries.length);
  u16(entries.length);
  u32(centralEnd - centralStart); // central directory size
  u32(centralStart);
  u16(0); // no comment
  return out;
}
