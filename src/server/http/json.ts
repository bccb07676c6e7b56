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
