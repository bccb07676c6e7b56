/**
 * A `PolicySet`'s `policiesFolder`: its files, their digest (`policiesSha256`) and the
 * gzipped tarball a policy set version is uploaded as.
 *
 * Written here rather than taken from a tar library: a version needs only regular files
 * in the POSIX ustar format, which is a 512-byte header per file, and Node's zlib does the
 * compression, so no dependency is added to the package. The archive is the same bytes for
 * the same files (sorted paths, fixed mode, owner and time), like the digest.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { gzipSync } from "node:zlib";

/** One file of the folder: its path relative to the folder (with `/`) and its bytes. */
export interface FolderFile {
  path: string;
  content: Buffer;
}

/** What a program's folder is read from: relative paths start at the program's directory. */
export function folderPath(given: string): string {
  return resolve(process.cwd(), given);
}

/**
 * The regular files under `dir`, by relative path in code-point order. Folders named
 * `.git` and anything that is not a regular file or a folder (links, sockets) are left out.
 */
export function folderFiles(dir: string): FolderFile[] {
  const files: FolderFile[] = [];
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const full = join(at, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== ".git") walk(full);
      } else if (entry.isFile()) {
        files.push({ path: relative(dir, full).split(sep).join("/"), content: readFileSync(full) });
      }
    }
  };
  walk(dir);
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** The SHA-256 (hex) of the files: each one's path, its length and its bytes, in order. */
export function folderDigest(files: readonly FolderFile[]): string {
  const hash = createHash("sha256");
  for (const f of files) {
    hash.update(`${f.path}\0${f.content.length}\0`);
    hash.update(f.content);
  }
  return hash.digest("hex");
}

/** Why `given` cannot be uploaded as a policy set version, or undefined when it can. */
export function folderProblem(given: string): string | undefined {
  const dir = folderPath(given);
  let isDir: boolean;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    return `policiesFolder ${JSON.stringify(given)} does not exist (read from ${dir})`;
  }
  if (!isDir) return `policiesFolder ${JSON.stringify(given)} is not a folder (${dir})`;
  const files = folderFiles(dir);
  if (files.length === 0) return `policiesFolder ${JSON.stringify(given)} holds no files (${dir})`;
  const long = files.find((f) => splitPath(f.path) === undefined);
  if (long) return `policiesFolder: the path ${JSON.stringify(long.path)} is too long for a tarball (ustar)`;
  return undefined;
}

/** The ustar `name` and `prefix` of a path, or undefined when it does not fit (name ≤ 100 bytes, prefix ≤ 155). */
function splitPath(path: string): { name: string; prefix: string } | undefined {
  if (Buffer.byteLength(path) <= 100) return { name: path, prefix: "" };
  for (let i = path.indexOf("/"); i > 0; i = path.indexOf("/", i + 1)) {
    const prefix = path.slice(0, i);
    const name = path.slice(i + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(name) <= 100) return { name, prefix };
  }
  return undefined;
}

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, "0") + "\0";
}

function header(file: FolderFile): Buffer {
  const split = splitPath(file.path);
  if (!split) throw new Error(`the path ${JSON.stringify(file.path)} is too long for a tarball`);
  const h = Buffer.alloc(512);
  h.write(split.name, 0, 100, "utf8");
  h.write(octal(0o644, 8), 100, "ascii");
  h.write(octal(0, 8), 108, "ascii");
  h.write(octal(0, 8), 116, "ascii");
  h.write(octal(file.content.length, 12), 124, "ascii");
  h.write(octal(0, 12), 136, "ascii");
  h.write("        ", 148, "ascii");
  h.write("0", 156, "ascii");
  h.write("ustar\0", 257, "ascii");
  h.write("00", 263, "ascii");
  h.write(split.prefix, 345, 155, "utf8");
  let sum = 0;
  for (const byte of h) sum += byte;
  h.write(sum.toString(8).padStart(6, "0") + "\0 ", 148, "ascii");
  return h;
}

/** The files as a gzipped ustar archive, paths relative to its root. */
export function tarball(files: readonly FolderFile[]): Buffer {
  const parts: Buffer[] = [];
  for (const f of files) {
    parts.push(header(f), f.content);
    const pad = (512 - (f.content.length % 512)) % 512;
    if (pad > 0) parts.push(Buffer.alloc(pad));
  }
  parts.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(parts));
}
