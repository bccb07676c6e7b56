/**
 * Sensitive values at rest (a sensitive variable's value, in `vars` and in the variables
 * an upgrade will apply) are sealed with AES-256-GCM under a key the operator controls,
 * as the hosted service encrypts them: a copy of the database file, a backup or a stray
 * WAL file shows no secret without the key.
 *
 * The key is 32 bytes, given as 64 hexadecimal digits or as base64 (`openssl rand -hex
 * 32`): as an option, in a file, or, when neither is given, generated on first start
 * into `<database>.key` beside the database file, readable by its owner only (mode 0600).
 * A `:memory:` database gets a key of its own that lives as long as the process.
 *
 * A start with a key that does not open the values the database holds is refused with
 * a message (see `wrongKey`) instead of serving secrets it cannot open.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { closeSync, linkSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Marks a sealed value; what follows is base64url of IV, tag and ciphertext. */
const PREFIX = "$aes256gcm$v1$";

/** Encrypts and decrypts sensitive values; `purpose` (the column a value belongs to) is authenticated with it. */
export interface SecretBox {
  seal(plain: string, purpose: string): string;
  /** The plain text of a sealed value; throws when it was sealed under another key or purpose, or altered. */
  open(sealed: string, purpose: string): string;
  /** Whether `value` is a value this key sealed for `purpose` (a clear value never is). */
  sealedHere(value: string, purpose: string): boolean;
  /** Whether `value` has the form of a sealed value, under whatever key. */
  looksSealed(value: string): boolean;
}

/** Where the key of a server comes from, in the order they are looked at. */
export interface KeySource {
  /** The key itself (64 hex digits or base64 of 32 bytes, or the 32 bytes). */
  key?: string | Buffer;
  /** A file holding the key as text. */
  file?: string;
  /** The database file, beside which a key is kept when none is given; `:memory:` gets one of its own. */
  db: string;
}

/** The 32 bytes of a key given as text (hex or base64, surrounding whitespace ignored) or as bytes. */
export function parseKey(raw: string | Buffer, where: string): Buffer {
  if (Buffer.isBuffer(raw)) {
    if (raw.length === KEY_BYTES) return Buffer.from(raw);
    raw = raw.toString("utf8");
  }
  const text = raw.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(text)
    ? Buffer.from(text, "hex")
    : /^[A-Za-z0-9+/_-]{43}=?$/.test(text)
      ? Buffer.from(text, "base64")
      : null;
  if (!key || key.length !== KEY_BYTES)
    throw new Error(
      `the encryption key ${where} must be 32 bytes written as 64 hexadecimal digits or as base64 (openssl rand -hex 32)`,
    );
  return key;
}

/**
 * Reads the key file beside the database, or creates it with a new key. The file is
 * written under another name and linked into place, so two servers starting on one
 * database at once end up with the same key (the second reads what the first linked).
 */
function keyBesideDatabase(file: string): Buffer {
  try {
    return parseKey(readFileSync(file), `in ${file}`);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  const scratch = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
  const fd = openSync(scratch, "wx", 0o600);
  try {
    writeSync(fd, `${randomBytes(KEY_BYTES).toString("hex")}\n`);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(scratch, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  } finally {
    unlinkSync(scratch);
  }
  return parseKey(readFileSync(file), `in ${file}`);
}

export function loadKey(source: KeySource): Buffer {
  if (source.key !== undefined) return parseKey(source.key, "given");
  if (source.file !== undefined) return parseKey(readFileSync(source.file), `in ${source.file}`);
  if (source.db === ":memory:" || source.db === "") return randomBytes(KEY_BYTES);
  return keyBesideDatabase(`${source.db}.key`);
}

export function secretBox(key: Buffer): SecretBox {
  const seal = (plain: string, purpose: string) => {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", key, iv);
    cipher.setAAD(Buffer.from(purpose));
    const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
    return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
  };
  const open = (sealed: string, purpose: string) => {
    if (!sealed.startsWith(PREFIX)) throw new Error(`not a sealed ${purpose} value`);
    const raw = Buffer.from(sealed.slice(PREFIX.length), "base64url");
    if (raw.length < IV_BYTES + TAG_BYTES) throw new Error(`not a sealed ${purpose} value`);
    const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(purpose));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8");
  };
  return {
    seal,
    open,
    looksSealed: (value) => value.startsWith(PREFIX),
    sealedHere(value, purpose) {
      if (!value.startsWith(PREFIX)) return false;
      try {
        open(value, purpose);
        return true;
      } catch {
        return false;
      }
    },
  };
}

/** The failure of a start whose key does not open the database's sealed values; it names the ways to give the key and never the key. */
export function wrongKey(database: string): Error {
  return new Error(
    `the encryption key does not open the sensitive values of database ${database}, which were sealed with another key; start the server with the key it was written with (--encryption-key-file FILE, WORKSPACES_SERVER_ENCRYPTION_KEY, or the file ${database}.key beside the database)`,
  );
}
