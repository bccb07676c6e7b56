/**
 * When a minted token (team, organization) stops working, and when a program's
 * declarations make it due for rotation: the inputs `expiresAt`, `expiresInDays`,
 * `rotateBeforeDays` and `rotation`, checked, sent and compared. `diff` stays pure: the
 * expiry it compares against is the `expiredAt` output the create or the last refresh
 * recorded.
 */
import { reportInfo, reportWarning } from "../process/engine-status";
import { sameInstant } from "./compare";
import { isUnknown } from "./unknowns";
import type { CheckFailure, Props } from "./types";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Now, in milliseconds. Tests only: `WORKSPACES_TEST_NOW` (an ISO 8601 time) moves the
 * clock the expiry rules read, so that an expiry can be reached without waiting.
 */
function now(): number {
  const given = process.env.WORKSPACES_TEST_NOW;
  const at = given ? Date.parse(given) : NaN;
  return Number.isFinite(at) ? at : Date.now();
}

const given = (v: unknown) => v !== undefined && v !== null && !isUnknown(v);

/** RFC 3339 with a zone (`2027-01-31T00:00:00Z`): what the service takes as `expired-at`. */
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

function wholeDays(name: string, v: unknown, least: number): CheckFailure[] {
  if (!given(v)) return [];
  if (typeof v === "number" && Number.isInteger(v) && v >= least) return [];
  const what = least > 0 ? "a whole number of days, 1 or more" : "a whole number of days, 0 or more";
  return [{ property: name, reason: `${name} must be ${what}, not ${JSON.stringify(v)}` }];
}

/** The failures of the expiry inputs, with their property paths. */
export function expiryFailures(news: Props): CheckFailure[] {
  const failures: CheckFailure[] = [];
  const at = news.expiresAt;
  if (given(at)) {
    if (typeof at !== "string" || !RFC3339.test(at) || !Number.isFinite(Date.parse(at)))
      failures.push({
        property: "expiresAt",
        reason: `expiresAt must be an RFC 3339 time with its zone, such as 2027-01-31T00:00:00Z, not ${JSON.stringify(at)}`,
      });
    else if (Date.parse(at) <= now())
      failures.push({
        property: "expiresAt",
        reason: `expiresAt ${at} is in the past: a token cannot be made already expired; give a later time`,
      });
  }
  failures.push(...wholeDays("expiresInDays", news.expiresInDays, 1));
  if (given(at) && given(news.expiresInDays))
    failures.push({
      property: "expiresInDays",
      reason: "expiresInDays and expiresAt are exclusive: give one of them",
    });
  failures.push(...wholeDays("rotateBeforeDays", news.rotateBeforeDays, 0));
  for (const flag of ["replaceExisting"])
    if (given(news[flag]) && typeof news[flag] !== "boolean")
      failures.push({ property: flag, reason: `${flag} must be true or false` });
  return failures;
}

/** The `expired-at` a create of these inputs sends: `expiresAt`, or `expiresInDays` from now; undefined for none. */
export function expiryToSend(inputs: Props): string | undefined {
  if (typeof inputs.expiresAt === "string" && inputs.expiresAt !== "") return inputs.expiresAt;
  if (typeof inputs.expiresInDays === "number") return new Date(now() + inputs.expiresInDays * DAY_MS).toISOString();
  return undefined;
}

/** The expiry inputs as the outputs keep them, so that the next diff compares against them. */
export function expiryOutputs(from: Props, expiredAt: string | null | undefined, sent?: string): Props {
  const out: Props = {};
  for (const name of ["expiresAt", "expiresInDays", "rotateBeforeDays", "replaceExisting"])
    if (from[name] !== undefined && from[name] !== null) out[name] = from[name];
  out.expiredAt = expiredAt ?? sent ?? (typeof from.expiredAt === "string" ? from.expiredAt : null);
  return out;
}

/** The day of an instant as the preview names it (`2027-01-31`). */
function day(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * Why the token recorded in `olds` is due for rotation under `news`, in one line, or
 * undefined when it is not: it has expired, or expires within `rotateBeforeDays`.
 */
export function expiryDue(olds: Props, news: Props, label: string): string | undefined {
  if (typeof olds.expiredAt !== "string") return undefined;
  const expires = Date.parse(olds.expiredAt);
  if (!Number.isFinite(expires)) return undefined;
  const before = typeof news.rotateBeforeDays === "number" ? news.rotateBeforeDays : 0;
  const at = now();
  if (expires <= at) return `${label} expired on ${day(expires)}: it is replaced by a new token`;
  if (expires - before * DAY_MS <= at)
    return `${label} expires on ${day(expires)}, within rotateBeforeDays (${before}): it is replaced by a new token`;
  return undefined;
}

/** A change of `expiresAt` compares instants; the rest of the rules are the diff's own. */
export const sameExpiry = (desired: unknown, actual: unknown) => sameInstant(desired, actual);

/**
 * Says on the preview, in one line, why a token is replaced: `rotation` changed, or its
 * expiry is due. Other replacing changes are named by the engine with their property.
 */
export function reportRotation(replaces: readonly string[], olds: Props, news: Props, label: string, due?: string) {
  if (due) reportWarning(due);
  if (replaces.includes("rotation")) {
    const from = typeof olds.rotation === "string" && olds.rotation !== "" ? JSON.stringify(olds.rotation) : "none";
    const to = isUnknown(news.rotation)
      ? "a value known after apply"
      : typeof news.rotation === "string" && news.rotation !== ""
        ? JSON.stringify(news.rotation)
        : "none";
    reportInfo(`${label}: rotation requested (rotation ${from} → ${to}): it is replaced by a new token`);
  }
}
