/**
 * TypeScript text of a generated program: literals of JSON-like values, with code (a
 * reference, a call) written as is, and the statement that declares one resource.
 */

/** Code to write as is (a reference or a call) instead of a literal. */
export class Code {
  constructor(readonly text: string) {}
}

/** A literal id with a comment naming the record and the stack that owns it. */
export class NotedId extends Code {
  constructor(
    readonly id: string,
    note: string,
  ) {
    super(`${JSON.stringify(id)} /* ${note.replace(/\*\//g, "* /")} */`);
  }
}

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A TypeScript expression for a JSON-like value; `Code` is written as is. */
function literal(value: unknown, indent = ""): string {
  if (value instanceof Code) return value.text;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    const items = value.map((v) => literal(v, indent + "  "));
    const flat = `[${items.join(", ")}]`;
    if (flat.length <= 80 && !flat.includes("\n")) return flat;
    return `[\n${items.map((i) => `${indent}  ${i},`).join("\n")}\n${indent}]`;
  }
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return "{}";
    const items = entries.map(([k, v]) =>
      v instanceof Code && v.text === k ? k : `${IDENT.test(k) ? k : JSON.stringify(k)}: ${literal(v, indent + "  ")}`,
    );
    const flat = `{ ${items.join(", ")} }`;
    if (flat.length <= 80 && !flat.includes("\n")) return flat;
    return `{\n${items.map((i) => `${indent}  ${i},`).join("\n")}\n${indent}}`;
  }
  return JSON.stringify(value ?? null);
}

/** `new Kind("name", {...});` bound to `ident` (exported), or a bare statement. */
export function statement(kind: string, name: string, args: Record<string, unknown>, ident?: string): string {
  const call = `new ${kind}(${JSON.stringify(name)}, ${literal(args)})`;
  return ident ? `export const ${ident} = ${call};` : `${call};`;
}
