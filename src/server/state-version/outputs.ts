import { createHash } from "node:crypto";
import { ID_PREFIXES } from "../../api/common";
import type { Db } from "../store/db";
import { stateText } from "./store";

/** One root-module output of a state file. */
export interface StateOutput {
  id: string;
  name: string;
  sensitive: boolean;
  /** The coarse kind the hosted service reports: string, number, boolean, array, object. */
  type: string;
  /** The engine's own type expression, as found in the state file. */
  detailedType: unknown;
  value: unknown;
}

const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

/** Output ids are derived from the state version and the name, so they are stable without being stored. */
function outputId(stateVersionId: string, name: string): string {
  const bytes = createHash("sha256").update(`${stateVersionId}\0${name}`).digest();
  let out = "";
  for (let i = 0; i < 16; i++) out += ALPHABET[bytes[i] % ALPHABET.length];
  return ID_PREFIXES.workspaceOutput + out;
}

function coarseType(type: unknown, value: unknown): string {
  const head: unknown = Array.isArray(type) ? type[0] : type;
  switch (head) {
    case "string":
    case "number":
      return head;
    case "bool":
      return "boolean";
    case "list":
    case "tuple":
    case "set":
      return "array";
    case "map":
    case "object":
      return "object";
  }
  if (Array.isArray(value)) return "array";
  if (value === null) return "string";
  return typeof value === "object" ? "object" : typeof value === "boolean" ? "boolean" : typeof value;
}

/** Parsed outputs per state version; a state version never changes once written, so entries never go stale. */
const cache = new WeakMap<Db, Map<string, StateOutput[]>>();
const CACHE_LIMIT = 5000;

/** The outputs of a state version's state file, in name order; empty when it holds no state. */
export function stateVersionOutputs(db: Db, stateVersionId: string): StateOutput[] {
  let perDb = cache.get(db);
  if (!perDb) cache.set(db, (perDb = new Map<string, StateOutput[]>()));
  const hit = perDb.get(stateVersionId);
  if (hit) return hit;
  const state = stateText(db, stateVersionId);
  let outputs: StateOutput[] = [];
  if (state) {
    let raw: unknown;
    try {
      raw = (JSON.parse(state) as { outputs?: unknown }).outputs;
    } catch {
      raw = undefined;
    }
    if (raw && typeof raw === "object" && !Array.isArray(raw)) {
      outputs = Object.entries(raw as Record<string, { value?: unknown; type?: unknown; sensitive?: unknown }>)
        .filter(([, o]) => o && typeof o === "object")
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([name, o]) => ({
          id: outputId(stateVersionId, name),
          name,
          sensitive: o.sensitive === true,
          type: coarseType(o.type, o.value),
          detailedType: o.type ?? null,
          value: o.value ?? null,
        }));
    }
  }
  if (perDb.size >= CACHE_LIMIT) perDb.delete(perDb.keys().next().value!);
  perDb.set(stateVersionId, outputs);
  return outputs;
}
