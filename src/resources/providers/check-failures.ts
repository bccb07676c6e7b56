/** Check failures with the program's property paths. */
import type { CheckFailure } from "./types";

function kebabToCamel(key: string): string {
  return key.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

export function camelToKebab(key: string): string {
  return key.replace(/[A-Z]/g, (c) => "-" + c.toLowerCase());
}

/**
 * Maps a path into a request body (zod issue path or JSON pointer) to the input
 * property it came from, e.g. `/data/attributes/vcs-repo/identifier` -> `vcsRepo.identifier`.
 * `renames` maps wire keys that do not convert mechanically (`terraform-version` to
 * `engineVersion`; `agent-pool-id` to `agentPoolId` converts by itself).
 */
function inputPathOf(path: ReadonlyArray<PropertyKey> | string, renames: Record<string, string> = {}): string {
  const parts =
    typeof path === "string"
      ? path
          .split("/")
          .filter((p) => p !== "")
          .map(unescapePointer)
      : path.map(String);
  let rest = parts;
  if (rest[0] === "data") rest = rest.slice(1);
  if (rest[0] === "attributes") rest = rest.slice(1);
  else if (rest[0] === "relationships") {
    rest = rest.slice(1);
    const rel = rest[0];
    if (rel !== undefined && renames[`relationships.${rel}`]) {
      // e.g. relationships/vars/data/2/attributes/key -> variables[2].key
      const after = rest.slice(1).filter((p) => p !== "data" && p !== "attributes");
      return joinPath([renames[`relationships.${rel}`], ...after], renames);
    }
  }
  return joinPath(rest, renames);
}

function unescapePointer(p: string): string {
  return p.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** A program property path from its parts: `["vcsRepo", "identifier"]` is `vcsRepo.identifier`, `["tagNames", 1]` is `tagNames[1]`. */
export function propertyPath(parts: ReadonlyArray<PropertyKey>): string {
  return joinPath(parts.map(String), {});
}

function joinPath(parts: string[], renames: Record<string, string>): string {
  let out = "";
  parts.forEach((p, i) => {
    if (/^\d+$/.test(p)) {
      out += `[${p}]`;
      return;
    }
    const name = renames[p] ?? kebabToCamel(p);
    out += i === 0 ? name : `.${name}`;
  });
  return out;
}

/** Failures from zod issues of a request body. */
export function failuresFromIssues(
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>,
  renames: Record<string, string> = {},
): CheckFailure[] {
  return issues.map((issue) => {
    const property = inputPathOf(issue.path, renames);
    return { property, reason: `${property || "input"}: ${issue.message}` };
  });
}

/** Removes repeated failures (the same property and reason reported by two rules). */
export function dedupeFailures(failures: CheckFailure[]): CheckFailure[] {
  const seen = new Set<string>();
  return failures.filter((f) => {
    const key = `${f.property}\u0000${f.reason}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Check failures as the engine prints them: `property <p> value {<v>} has a problem:
 * <reason>`. Every failure keeps its property path (an absent input too, whose value the
 * engine prints as `{<nil>}`), and as the engine names the property before the reason, a
 * reason that begins with it is given from the word after it. Repeats are dropped.
 */
export function failuresForEngine(failures: CheckFailure[]): CheckFailure[] {
  return dedupeFailures(
    (failures ?? []).map((f) => {
      const property = f.property ?? "";
      const reason = String(f.reason ?? "");
      const rest = property && reason.startsWith(property) ? reason.slice(property.length) : undefined;
      const named = rest !== undefined && /^(: | )/.test(rest);
      return { property, reason: named ? rest.replace(/^:? /, "") : reason };
    }),
  );
}
