import { randomBytes } from "node:crypto";
import { ID_PREFIXES, type IdKind } from "../api/common";

const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

/** A random base58 string: unguessable, so ids double as capabilities nowhere but also never collide in practice. */
export function randomString(length: number): string {
  const bytes = randomBytes(length);
  let out = "";
  for (let i = 0; i < length; i++) out += ALPHABET[bytes[i] % ALPHABET.length];
  return out;
}

/** A fresh identifier with the spec's prefix for `kind` (spec 2.1). */
export function newId(kind: IdKind): string {
  return ID_PREFIXES[kind] + randomString(16);
}

/** Prefixes of records the spec does not name, kept here so every id comes from one place. */
export function newInternalId(prefix: "tws-" | "tprj-" | "oc-" | "sv-" | "user-" | "sub-" | "tool-"): string {
  return prefix + randomString(16);
}

/** An API token in the hosted service's shape; only its digest is stored. */
export function newToken(): string {
  return `${randomString(14)}.atlasv1.${randomString(67)}`;
}
