// An unpacked aclImdb folder, chosen in the page, as the archive the engine reads: its
// {train,test}/{pos,neg}/*.txt files packed into a ustar archive under aclImdb/ and gzipped, so a
// folder is split by the same rule as a .tar.gz (its own test half where it has one, else a
// hold-out). The tar writer is pure (node tests use it to write their archives too).

/** A ustar archive of `files` ([path, content]); paths must fit the 100-byte name field. */
export function tarArchive(files: readonly (readonly [string, string | Uint8Array])[]): Uint8Array {
  const encoder = new TextEncoder();
  const parts: Uint8Array[] = [];
  let size = 0;
  const push = (part: Uint8Array) => {
    parts.push(part);
    size += part.length;
  };
  for (const [name, content] of files) {
    const path = encoder.encode(name);
    if (path.length > 100) throw new Error(`tarArchive: the path ${name} is longer than 100 bytes`);
    const body = typeof content === 'string' ? encoder.encode(content) : content;
    const header = new Uint8Array(512);
    const put = (offset: number, text: string) => header.set(encoder.encode(text), offset);
    header.set(path, 0);
    put(100, '0000644\0'); // mode
    put(108, '0000000\0'); // uid
    put(116, '0000000\0'); // gid
    put(124, body.length.toString(8).padStart(11, '0') + '\0');
    put(136, '00000000000\0'); // mtime
    put(148, '        '); // the checksum counts its own field as spaces
    put(156, '0'); // a regular file
    put(257, 'ustar\u000000');
    const sum = header.reduce((a, b) => a + b, 0);
    put(148, sum.toString(8).padStart(6, '0') + '\0 ');
    push(header);
    push(body);
    push(new Uint8Array((512 - (body.length % 512)) % 512));
  }
  push(new Uint8Array(1024)); // two zero blocks end the archive
  const out = new Uint8Array(size);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/**
 * Where a folder file belongs in an aclImdb archive ("aclImdb/train/pos/1_9.txt"), or null. The
 * urls_pos.txt / urls_neg.txt beside pos/ and neg/ come along: they name each review's movie, so
 * the engine splits by movie.
 */
export function aclImdbPath(relativePath: string): string | null {
  const match = /(?:^|\/)(train|test)\/(pos|neg)\/([^/]+\.txt)$/.exec(relativePath);
  if (match) return `aclImdb/${match[1]}/${match[2]}/${match[3]}`;
  const urls = /(?:^|\/)(train|test)\/(urls_(?:pos|neg)\.txt)$/.exec(relativePath);
  return urls ? `aclImdb/${urls[1]}/${urls[2]}` : null;
}

/** The folder's review files as a gzipped aclImdb archive; null when it holds none. */
export async function folderArchive(
  files: readonly File[],
  onProgress?: (done: number, total: number) => void,
): Promise<Blob | null> {
  const relative = (file: File) => file.webkitRelativePath || file.name;
  let chosen = files.flatMap((file) => {
    const path = aclImdbPath(relative(file));
    return path ? [[path, file] as const] : [];
  });
  // A folder without a train half: every pos/neg review file trains (and a hold-out tests).
  if (!chosen.some(([path]) => path.startsWith('aclImdb/train/'))) {
    chosen = files.flatMap((file, i) => {
      const match = /(?:^|\/)(pos|neg)\/([^/]+\.txt)$/.exec(relative(file));
      return match ? [[`aclImdb/train/${match[1]}/${i}_${match[2]}`, file] as const] : [];
    });
  }
  if (!chosen.length) return null;
  const entries: [string, Uint8Array][] = [];
  for (let i = 0; i < chosen.length; i++) {
    entries.push([chosen[i][0], new Uint8Array(await chosen[i][1].arrayBuffer())]);
    if (i % 500 === 0) onProgress?.(i, chosen.length);
  }
  const tar = new Blob([tarArchive(entries) as BlobPart]);
  return new Response(tar.stream().pipeThrough(new CompressionStream('gzip'))).blob();
}
