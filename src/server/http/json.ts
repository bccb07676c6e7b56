/**
 * Request bodies are bounded in depth before they are parsed: every later step (schema
 * validation, rendering, storing) walks the value recursively, and a body of thousands
 * of nested arrays would exhaust the stack there. No document of the spec comes close
 * to the bound.
 */
export const MAX_JSON_DEPTH = 64;

/** JSON pointer segment escaping (RFC 6901). */
function segment(s: string | number): string {
  return String(s).replace(/~/g, "~0").replace(/\//g, "~1");
}

/**
 * The JSON pointer of the first container nested deeper than `maxDepth` in `text`, or
 * null. A single pass over the text that tracks strings, keys and array indexes; it
 * does not validate (JSON.parse does that afterwards), so malformed text only ever
 * yields a pointer that is approximate.
 */
export function tooDeep(text: string, maxDepth = MAX_JSON_DEPTH): string | null {
  const isArray: boolean[] = [];
  const path: Array<string | number> = [];
  let expectKey = false;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const start = i;
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c /* \ */) i++;
        else if (d === 0x22) break;
      }
      if (expectKey) {
        const raw = text.slice(start, i + 1);
        let key: string;
        try {
          key = JSON.parse(raw) as string;
        } catch {
          key = raw.slice(1, -1);
        }
        path[path.length - 1] = key;
        expectKey = false;
      }
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (isArray.length >= maxDepth) return "/" + path.map(segment).join("/");
      isArray.push(c === 0x5b);
      path.push(c === 0x5b ? 0 : "");
      expectKey = c === 0x7b;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      isArray.pop();
      path.pop();
      expectKey = false;
    } else if (c === 0x2c /* , */ && isArray.length) {
      const top = isArray.length - 1;
      if (isArray[top]) path[top] = (path[top] as number) + 1;
      else expectKey = true;
    }
  }
  return null;
}

const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERALS = ["true", "false", "null"];

/**
 * Whether `text` is one JSON value (RFC 8259), checked in a single iterative pass that
 * builds nothing: a body nested past the bound is still told apart as well-formed (a
 * valid document the server refuses, 422) or not JSON at all (400), without the time
 * and memory JSON.parse would spend building millions of nested arrays.
 */
export function wellFormedJson(text: string): boolean {
  /** Open containers, innermost last: true for an array, false for an object. */
  const open: boolean[] = [];
  const n = text.length;
  let i = 0;
  const skip = () => {
    while (i < n && WHITESPACE.has(text.charCodeAt(i))) i++;
  };
  const string = (): boolean => {
    for (i++; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x22) return (i++, true);
      if (c < 0x20) return false;
      if (c !== 0x5c) continue;
      const e = text[++i];
      if (e === "u") {
        if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) return false;
        i += 4;
      } else if (e === undefined || !'"\\/bfnrt'.includes(e)) return false;
    }
    return false;
  };
  /** After a value: closes containers and consumes separators until the next value is due; false on a syntax error. */
  const afterValue = (): "value" | "end" | false => {
    for (;;) {
      skip();
      if (open.length === 0) return i === n ? "end" : false;
      const c = text[i++];
      const inArray = open[open.length - 1];
      if (c === ",") {
        if (inArray) return "value";
        skip();
        if (text[i] !== '"' || !string()) return false;
        skip();
        if (text[i++] !== ":") return false;
        return "value";
      }
      if (c !== (inArray ? "]" : "}")) return false;
      open.pop();
    }
  };
  for (;;) {
    skip();
    const c = text[i];
    if (c === "[" || c === "{") {
      i++;
      open.push(c === "[");
      skip();
      if (text[i] === (c === "[" ? "]" : "}")) {
        i++;
        open.pop();
      } else if (c === "{") {
        if (text[i] !== '"' || !string()) return false;
        skip();
        if (text[i++] !== ":") return false;
        continue;
      } else continue;
    } else if (c === '"') {
      if (!string()) return false;
    } else {
      const literal = LITERALS.find((l) => text.startsWith(l, i));
      if (literal) i += literal.length;
      else {
        NUMBER.lastIndex = i;
        if (!NUMBER.test(text)) return false;
        i = NUMBER.lastIndex;
      }
    }
    const next = afterValue();
    if (next === false) return false;
    if (next === "end") return true;
  }
}
