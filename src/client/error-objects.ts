/**
 * Reading the service's error objects: the ones an error message is built from (with the
 * token removed), the reason of a 409, and a 429 that throttles an invalid token.
 */
import { CONFLICT_CODES, errorDocumentSchema, type ErrorObject } from "../api/common";
import type { ConflictReason } from "./typed-errors";

/** Names the operation so that a 409 can be given its reason. */
export type ConflictContext = "lock" | "unlock" | "force-unlock" | "safe-delete" | "create" | "other";

/** The reasons a service may name in an error object's `code` (all but `unknown`). */
const KNOWN_CODES: ReadonlySet<string> = new Set<ConflictReason>(CONFLICT_CODES);

/** An answer as far as its error objects are concerned. */
export interface ErrorAnswer {
  status: number;
  statusText?: string;
  data: unknown;
}

/**
 * The service's error objects, with `redact` applied to every field before a message is
 * built from them. A body that is not an error document becomes one object from the
 * status line and, when the body is text, that text.
 */
export function errorObjectsOf(answer: ErrorAnswer, redact: (text: string) => string): ErrorObject[] {
  const parsed = errorDocumentSchema.safeParse(answer.data);
  const raw: ErrorObject[] = parsed.success
    ? parsed.data.errors
    : [
        {
          status: String(answer.status),
          title: answer.statusText || undefined,
          detail: typeof answer.data === "string" ? answer.data || undefined : undefined,
        },
      ];
  return raw.map((e) => JSON.parse(redact(JSON.stringify(e))) as ErrorObject);
}

/** `text` with every occurrence of `token` replaced (tokens shorter than four characters are left: they would match anywhere). */
export function redactToken(token: string, text: string): string {
  return token.length >= 4 && text.includes(token) ? text.split(token).join("[redacted]") : text;
}

/**
 * Why a 409 answer with body `data` refused the operation `context`: the first error
 * object's `code` that names a {@link ConflictReason} (the local server sends one; `_`
 * and upper case are accepted), else what the objects' title and detail say (the hosted
 * service sends no code), else what a conflict of that operation usually means.
 */
export function conflictReason(context: ConflictContext, data: unknown): ConflictReason {
  const parsed = errorDocumentSchema.safeParse(data);
  const errors = parsed.success ? parsed.data.errors : [];
  for (const e of errors) {
    const code = (e.code ?? "").replace(/_/g, "-").toLowerCase();
    if (KNOWN_CODES.has(code)) return code as ConflictReason;
  }
  const text = errors
    .map((e) => `${e.title ?? ""} ${e.detail ?? ""}`)
    .join(" ")
    .toLowerCase();
  // A safe delete refused because a lock is held (the workspace may be writing state).
  if (context === "safe-delete" && /currently locked|must be unlocked|\bis locked\b/.test(text)) return "locked";
  if (/another user|different user|locked by (user|run|team)|held by/.test(text)) return "locked-by-another-user";
  if (/already locked/.test(text)) return "already-locked";
  if (/not locked|already unlocked|is unlocked/.test(text)) return "not-locked";
  if (/processing|in progress|pending/.test(text)) return "still-processing";
  if (/\bmanag(ing|es)\b.*\bresources?\b|has resources/.test(text)) return "managing-resources";
  if (/already (exists|been taken|taken)|has already been taken/.test(text)) return "already-exists";
  switch (context) {
    case "lock":
      return "already-locked";
    case "unlock":
    case "force-unlock":
      return "not-locked";
    case "safe-delete":
      return "managing-resources";
    case "create":
      return "already-exists";
    default:
      return "unknown";
  }
}

/** Whether a 429's error objects say that it throttles requests with an invalid token (not the token's own rate). */
export function refusesInvalidToken(errors: ErrorObject[]): boolean {
  return errors.some((e) => /\binvalid (api )?token\b/i.test(`${e.title ?? ""} ${e.detail ?? ""}`));
}
