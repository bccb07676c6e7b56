/**
 * What a list held by a record owned elsewhere is (./record-lists.ts), and what its `check`
 * judges: the ids and their kind, the mode, and one owner per list in this stack.
 */
import { ID_PREFIXES, isId, type IdKind } from "../../api/common";
import type { WorkspacesClient } from "../../client";
import { claimList, type ListHolding } from "../process/claims";
import type { MissingRecord } from "./gone";
import { isUnknown } from "./unknowns";
import type { CheckFailure, Props } from "./types";
import type { OwnershipMode } from "../workspace-tags";

/** The record whose lists the resources manage: an agent pool, a policy set. */
export interface ListOwner<R> {
  /** The input that names the owner. */
  arg: string;
  /** The kind of the owner's id. */
  idKind: IdKind;
  /** How messages name the owner (`agent pool`), and the kind of record for the 404 rule. */
  noun: MissingRecord["kind"];
  /** How messages name the owner after it was named once: `pool`. */
  short: string;
  /** Whose token may manage the owner, for the way out of a 404: `a token that may manage agent pools`. */
  manager: string;
  read(client: WorkspacesClient, id: string): Promise<R>;
  organization(record: R): string | null | undefined;
}

/** What tells one list of an owner from another. */
export interface RecordList<R> {
  owner: ListOwner<R>;
  /** The relationship on the wire, and the kind of claims in this process. */
  relationship: string;
  /** How messages name the list: `allowed workspaces`. */
  noun: string;
  /** The input that lists the ids, and the output of the ids an additive resource added. */
  arg: string;
  added: string;
  /** The kind of id the list holds. */
  idKind: IdKind;
  of(record: R): string[];
  /** Brings the owner's list from `current` to `next` (both as just read); answers the list after. */
  write(client: WorkspacesClient, ownerId: string, current: string[], next: string[]): Promise<string[]>;
  /** Why the owner as read takes no such list (a global policy set and its workspaces): refused at check and before any write. */
  refusal?(record: R): string | undefined;
  /** True when this process already knows the owner takes the list (the program declares so), so `check` reads nothing. */
  accepted?(ownerId: string): boolean;
  /** Told when a `check` declares the list, when its write landed or found nothing to write, and when it failed (an agent pool's allowances). */
  signals?: { declared(ownerId: string, claimant: string): void; written: Signal; failed: Signal };
}

type Signal = (ownerId: string, claimant: string) => void;

const MODES: readonly string[] = ["authoritative", "additive"];

export function modeOf(p: { mode?: unknown }): OwnershipMode {
  return p.mode === "additive" ? "additive" : "authoritative";
}

export function idsOf(v: unknown): string[] {
  return Array.isArray(v) ? Array.from(new Set(v.map(String))).sort() : [];
}

/** `a workspace id (ws-...)`, `an agent pool id (apool-...)`. */
function anId(kind: IdKind, noun: string): string {
  return `${/^[aeiou]/.test(noun) ? "an" : "a"} ${noun} id (${ID_PREFIXES[kind]}...)`;
}

export function label<R>(list: RecordList<R>, ownerId: string): string {
  return `the ${list.noun} of ${list.owner.noun} ${ownerId}`;
}

export function checkList<R>(list: RecordList<R>, news: Props): CheckFailure[] {
  const { owner } = list;
  const failures: CheckFailure[] = [];
  const ownerId = news[owner.arg];
  if (ownerId === undefined || ownerId === null)
    failures.push({ property: owner.arg, reason: `${owner.arg} is required` });
  else if (!isUnknown(ownerId) && !isId(owner.idKind, ownerId))
    failures.push({ property: owner.arg, reason: `${owner.arg} must be ${anId(owner.idKind, owner.noun)}` });
  if (news.mode !== undefined && !isUnknown(news.mode) && !MODES.includes(news.mode as string))
    failures.push({
      property: "mode",
      reason: `mode must be "authoritative" or "additive", not ${JSON.stringify(news.mode)}`,
    });
  const ids = news[list.arg];
  const noun = list.idKind.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`);
  const prefix = anId(list.idKind, noun);
  if (ids === undefined || ids === null)
    failures.push({
      property: list.arg,
      reason: `${list.arg} is required (an empty list clears the ${owner.short}'s ${list.noun} in authoritative mode)`,
    });
  else if (!Array.isArray(ids)) {
    if (!isUnknown(ids))
      failures.push({
        property: list.arg,
        reason: `${list.arg} must be a list of ${noun} ids (${ID_PREFIXES[list.idKind]}...)`,
      });
  } else
    failures.push(...itemFailures(list.arg, ids, (id) => (isId(list.idKind, id) ? undefined : `must be ${prefix}`)));
  return failures;
}

/**
 * The failures of the items of a list input `arg`: each that `invalid` refuses (it says
 * why), and each listed twice. Items not known until apply are judged later.
 */
export function itemFailures(arg: string, items: unknown[], invalid: (item: unknown) => string | undefined) {
  const failures: CheckFailure[] = [];
  const seen = new Set<unknown>();
  items.forEach((item: unknown, i: number) => {
    if (isUnknown(item)) return;
    const property = `${arg}[${i}]`;
    const why = invalid(item);
    if (why !== undefined) failures.push({ property, reason: `${property}: ${why}, not ${JSON.stringify(item)}` });
    else if (seen.has(item)) failures.push({ property, reason: `${property}: ${String(item)} is listed twice` });
    seen.add(item);
  });
  return failures;
}

/** What the resource holds of its list, for the claims: all of it, or the ids it adds. */
export function holdingOf<R>(list: RecordList<R>, inputs: Props): ListHolding {
  return {
    list: String(inputs[list.owner.arg]),
    items: modeOf(inputs) === "authoritative" ? "all" : idsOf(inputs[list.arg]),
  };
}

/** One resource's claim of a list, for {@link listClaimFailures}. */
export interface ListClaim {
  /** The kind of claims (see ../process/claims.ts). */
  kind: string;
  /** How messages name the list: `the allowed workspaces of agent pool apool-...`. */
  label: string;
  /** The input that names the list's owner. */
  ownerArg: string;
  mode: OwnershipMode;
  holding: ListHolding;
  /** The input that declares an item (its property path), and how messages name it. */
  itemArg(item: string): string;
  itemName(item: string): string;
  /** What the additive resources add, for the way out: `ids`. */
  items: string;
}

/**
 * The refusals of two resources of this stack on one list: two owners of the whole list, a
 * whole list and an additive resource, or two additive resources adding the same item.
 */
export function listClaimFailures(claim: ListClaim, claimant: string): CheckFailure[] {
  const conflicts = claimList(claim.kind, claimant, claim.holding);
  const seen = new Set<string>();
  const failures: CheckFailure[] = [];
  for (const c of conflicts) {
    if (seen.has(c.other)) continue;
    seen.add(c.other);
    const what =
      c.item !== undefined
        ? `both add ${claim.itemName(c.item)} to it`
        : `"${c.other}" is ${c.otherHolds === "all" ? "authoritative" : "additive"} and this one is ${claim.mode}`;
    failures.push({
      property: c.item !== undefined ? claim.itemArg(c.item) : claim.ownerArg,
      reason:
        `${claim.label} are declared by two resources of this stack, this one and "${c.other}": ${what}. ` +
        `A list has one owner: keep one authoritative resource for the whole list, or only additive ones that each add different ${claim.items}.`,
    });
  }
  return failures;
}

/** {@link listClaimFailures} of a list of ids. */
export function claimFailures<R>(list: RecordList<R>, news: Props, claimant: string): CheckFailure[] {
  return listClaimFailures(
    {
      kind: list.relationship,
      label: label(list, String(news[list.owner.arg])),
      ownerArg: list.owner.arg,
      mode: modeOf(news),
      holding: holdingOf(list, news),
      itemArg: () => list.arg,
      itemName: (id) => id,
      items: "ids",
    },
    claimant,
  );
}
