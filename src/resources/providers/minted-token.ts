/**
 * What agent, team and organization tokens share: the service mints the secret and
 * answers it once, on create; the resource keeps it as the stack's own copy; any change
 * replaces the token, and nothing else does (a declared `rotation`, or an expiry that is
 * due, are the ways to rotate). Each kind says where its tokens live ({@link TokenKind}).
 *
 * Two shapes of token:
 * - described: one of several of a holder (an agent pool's tokens, a team's described
 *   tokens). The create appends the stack's origin to the description, so that the token
 *   an interrupted create made (its secret lost with the runner) is recognised, deleted
 *   and made anew; adoption takes the holder's one token of that description.
 * - single: the holder's one token (a team's legacy token, an organization's token of a
 *   type). It carries no description, so nothing on it says which stack made it: a create
 *   that finds one is refused, naming when and by whom it was made, unless `adopt` (take it
 *   over) or `replaceExisting` (revoke it, make a new one) says what to do. A replacement
 *   deletes the old token first (the holder keeps one), always by id, so that it never
 *   deletes a successor.
 */
import { ORIGIN_SOURCE_NAME, originQuery } from "../../api/origin";
import type { WorkspacesClient } from "../../client";
import { reportInfo } from "../process/engine-status";
import { echoAdopt, reportsAdoption, type AdoptionLookup } from "./adoption";
import { getClient, isNotFound } from "./client";
import { diffFields, type FieldRule } from "./compare";
import { confirmGone, type MissingRecord } from "./gone";
import { sameOrigin, withOrigin } from "./origin";
import { expiryDue, expiryFailures, expiryOutputs, expiryToSend, reportRotation, sameExpiry } from "./token-expiry";
import { ProviderError } from "./user-errors";
import { isUnknown } from "./unknowns";
import type { CheckFailure, ProviderImpl, Props } from "./types";

/** A token as every read shows it, without its secret. */
export interface MintedToken {
  id: string;
  description?: string | null;
  createdAt: string | null;
  lastUsedAt: string | null;
  expiredAt?: string | null;
  /** Who made it, as the service names them, when it says. */
  createdBy?: { type: string; id: string } | null;
  createdById?: string | null;
}

/** What a token kind says about itself; the rest is {@link mintedTokenProvider}'s. */
export interface TokenKind<T extends MintedToken> {
  /** How messages name a token of the kind: `agent token`. */
  noun: string;
  /** The inputs that name where the token lives (each change replaces it). */
  ownerFields: FieldRule[];
  /** Whether the kind takes `expiresAt`, `expiresInDays`, `rotateBeforeDays` and `replaceExisting`. */
  expires: boolean;
  /** `required`: every token is described; `optional`: described when given; `none`: never. */
  description: "required" | "optional" | "none";
  /** Failures of the inputs that name the holder. */
  checkOwner(olds: Props, news: Props, inputs: Props): CheckFailure[];
  /** How messages name a token: `agent token at-1 "ci" of agent pool apool-1`. */
  label(id: string | undefined, props: Props): string;
  /** How messages name the holder: `agent pool apool-1`. */
  holder(props: Props): string;
  /** The holder's kind as a sentence names it again: `pool`, `team`. */
  holderNoun: string;
  /** Who may manage the kind's tokens, for the message of a 404 on the holder. */
  whoMay: string;
  /** The organization the outputs record for the 404 rule. */
  organization(client: WorkspacesClient, props: Props): Promise<string | undefined>;
  /** The 404 rule's record of token `id`. */
  missing(client: WorkspacesClient, id: string, props: Props): Promise<MissingRecord>;
  /** The holder's tokens (described kinds). */
  list(client: WorkspacesClient, inputs: Props): Promise<T[]>;
  /** The holder's single token, undefined when none (single kinds). */
  current(client: WorkspacesClient, inputs: Props): Promise<T | undefined>;
  /** A new token with its secret. */
  create(
    client: WorkspacesClient,
    inputs: Props,
    attributes: { description?: string; expiredAt?: string },
  ): Promise<T & { token: string | null }>;
  /** The token's id in an id the resource accepts (import forms included); throws for another. */
  tokenIdOf(id: string): string;
  /** The token a read of `id` finds, with the owner inputs it shows; undefined when it is gone (a 404 is thrown). */
  read(client: WorkspacesClient, id: string, props: Props): Promise<{ token: T; owner: Props } | undefined>;
  /** Deletes token `id` (a 404 is thrown when it is not there). */
  delete(client: WorkspacesClient, id: string, props: Props): Promise<void>;
  /** The outputs that name the holder and the token (`agentPoolId`, `teamId`, `tokenId`). */
  outputs(t: T, from: Props): Props;
}

/** Nothing and an empty text are the same rotation: none. */
function sameRotation(desired: unknown, actual: unknown): boolean {
  const none = (v: unknown) => v === undefined || v === null || v === "";
  return none(desired) ? none(actual) : desired === actual;
}

const DESCRIPTION_FIELD: FieldRule = { name: "description", replaces: true, absentIsValue: true, same: sameRotation };
const ROTATION_FIELD: FieldRule = { name: "rotation", replaces: true, absentIsValue: true, same: sameRotation };
const EXPIRY_FIELDS: FieldRule[] = [
  { name: "expiresAt", replaces: true, absentIsValue: true, same: sameExpiry },
  { name: "expiresInDays", replaces: true, absentIsValue: true, same: sameRotation },
  { name: "rotateBeforeDays" },
  { name: "replaceExisting" },
];

// ---------------------------------------------------------------------------
// The origin a create appends to a description: ` [<origin address>]`.

/** ` [<address>]` at the end of a description, where the address is an origin this package wrote. */
const ORIGIN_SUFFIX = / \[(https:\/\/[^\]\s]+)\]$/;

/** A token's description split into what the program declared and the origin its create appended, if any. */
export function splitDescription(raw: string): { declared: string; origin?: string } {
  const m = ORIGIN_SUFFIX.exec(raw);
  if (!m || !originQuery(m[1])) return { declared: raw };
  return { declared: raw.slice(0, m.index), origin: m[1] };
}

/**
 * The origin a create of these inputs writes: the resource's origin address with its
 * rotation, so that the token a replacement is rotating away from never reads as this
 * create's. Undefined without an origin (no key yet, or an earlier state).
 */
function originOf(inputs: Props): string | undefined {
  const given = withOrigin(inputs);
  if (given.sourceName !== ORIGIN_SOURCE_NAME || typeof given.sourceUrl !== "string") return undefined;
  const rotation = inputs.rotation;
  if (typeof rotation !== "string" || rotation === "") return given.sourceUrl;
  const base = given.sourceUrl.slice(0, given.sourceUrl.indexOf("?") + 1);
  const query = originQuery(given.sourceUrl)!;
  query.set("rotation", rotation);
  return base + query.toString();
}

/** Whether a token's description is one a create of these inputs wrote (same resource, stack, rotation and description). */
function madeByThisResource(inputs: Props, raw: string): boolean {
  const { declared, origin } = splitDescription(raw);
  if (!origin || declared !== inputs.description) return false;
  const rotation = typeof inputs.rotation === "string" ? inputs.rotation : "";
  if ((originQuery(origin)?.get("rotation") ?? "") !== rotation) return false;
  return sameOrigin(inputs, { sourceName: ORIGIN_SOURCE_NAME, sourceUrl: origin });
}

// ---------------------------------------------------------------------------

function descriptionFailures(d: unknown, required: boolean): CheckFailure[] {
  if (d === undefined || d === null)
    return required ? [{ property: "description", reason: "description is required" }] : [];
  if (isUnknown(d)) return [];
  if (typeof d !== "string" || d.trim() === "")
    return [{ property: "description", reason: "description must be a non-empty string" }];
  if (splitDescription(d).origin)
    return [
      {
        property: "description",
        reason: "description must not end with an origin address in brackets: the create appends the stack's own",
      },
    ];
  return [];
}

/** Whether these inputs name one of a holder's described tokens (else its single token). */
function described(kind: TokenKind<MintedToken>, inputs: Props): boolean {
  return kind.description === "required" || (kind.description === "optional" && inputs.description != null);
}

function when(t: MintedToken): string {
  const made = t.createdAt ? `made on ${t.createdAt}` : "made at a time the service does not say";
  const by = t.createdBy ? `${t.createdBy.type.replace(/s$/, "")} ${t.createdBy.id}` : t.createdById;
  return by ? `${made} by ${by}` : made;
}

/** The provider of a token kind, with the preview's line for a token marked `adopt: true`. */
export function mintedTokenProvider<T extends MintedToken>(kind: TokenKind<T>): ProviderImpl {
  const k = kind as unknown as TokenKind<MintedToken>;
  const fields: FieldRule[] = [
    ...kind.ownerFields,
    ...(kind.description === "none" ? [] : [DESCRIPTION_FIELD]),
    ROTATION_FIELD,
    ...(kind.expires ? EXPIRY_FIELDS : []),
  ];

  /** `fn`'s answer, or for a 404 a message naming the holder and who may manage its tokens. */
  async function onHolder<R>(doing: string, inputs: Props, fn: () => Promise<R>, its = "its tokens"): Promise<R> {
    try {
      return await fn();
    } catch (err) {
      if (!isNotFound(err)) throw err;
      throw new ProviderError(
        `cannot ${doing}: the service answered 404 for ${kind.holder(inputs)}, so it does not exist or the token in use may not see ${its} (${kind.whoMay}).`,
      );
    }
  }

  function outputsOf(t: T, from: Props, organization: string | undefined, token?: string | null, sent?: string) {
    const rotation = from.rotation;
    const secret = token ?? (typeof from.token === "string" ? from.token : undefined);
    return {
      ...kind.outputs(t, from),
      ...(typeof rotation === "string" ? { rotation } : {}),
      ...(secret ? { token: secret } : {}),
      createdAt: t.createdAt,
      lastUsedAt: t.lastUsedAt,
      ...(kind.expires ? expiryOutputs(from, t.expiredAt, sent) : {}),
      organization: organization ?? null,
    };
  }

  /** Outputs that carry `adopt` and the origin along, so that a refresh can rebuild the inputs from them. */
  const echoed = (outs: Props, from: Props) => echoAdopt(outs, from) as Props;

  /**
   * The token these inputs adopt: the holder's one token of this description (a token
   * this package made is read without its origin suffix), or its single token; undefined
   * when there is none, an error naming them when several have that description.
   */
  async function adoptable(client: WorkspacesClient, inputs: Props): Promise<T | undefined> {
    if (!described(k, inputs)) return kind.current(client, inputs);
    const description = String(inputs.description);
    const holder = kind.holder(inputs);
    const same = (await onHolder(`adopt a ${kind.noun} of ${holder}`, inputs, () => kind.list(client, inputs))).filter(
      (t) => splitDescription(t.description ?? "").declared === description,
    );
    if (same.length > 1)
      throw new ProviderError(
        `cannot adopt the ${kind.noun} "${description}" of ${holder}: the ${kind.holderNoun} has ${same.length} tokens of that description (${same.map((t) => t.id).join(", ")}). ` +
          "Delete the ones no longer used, or import one by its at- id (`pulumi import`, on the provider plugin); or drop adopt and let this resource make a new token.",
      );
    return same[0];
  }

  /** Described: the token an interrupted create of this resource made, deleted (its secret was lost with the runner). */
  async function replaceLost(client: WorkspacesClient, inputs: Props): Promise<void> {
    if (!originOf(inputs)) return;
    const tokens = await onHolder(`create ${kind.label(undefined, inputs)}`, inputs, () => kind.list(client, inputs));
    for (const t of tokens.filter((t) => madeByThisResource(inputs, t.description ?? ""))) {
      await kind.delete(client, t.id, inputs);
      reportInfo(
        `deleted ${kind.label(t.id, inputs)}, created by an interrupted update of this stack (its secret was lost with it); a new token replaces it`,
      );
    }
  }

  /** Single: the holder's token, refused unless `replaceExisting` (then revoked, by id). */
  async function clearSingle(client: WorkspacesClient, inputs: Props): Promise<void> {
    const label = kind.label(undefined, inputs);
    const existing = await onHolder(`create ${label}`, inputs, () => kind.current(client, inputs), "it");
    if (!existing) return;
    if (inputs.replaceExisting !== true)
      throw new ProviderError(
        `cannot create ${label}: ${kind.holder(inputs)} has one already (${existing.id}, ${when(existing)}), and holds only one. ` +
          "Set adopt: true to take it over without regenerating it (its secret is not shown again), or replaceExisting: true to revoke it and make a new one " +
          "(also for one an interrupted `pulumi up` of this stack made: its secret was lost with it).",
      );
    try {
      await kind.delete(client, existing.id, inputs);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
    reportInfo(
      `revoked ${kind.label(existing.id, inputs)} (${when(existing)}), as replaceExisting says; a new token replaces it`,
    );
  }

  const provider: ProviderImpl = {
    async check(olds, news) {
      const inputs: Props = { ...news };
      const failures = kind.checkOwner(olds, news, inputs);
      if (kind.description !== "none")
        failures.push(...descriptionFailures(news.description, kind.description === "required"));
      const r = news.rotation;
      if (r !== undefined && r !== null && !isUnknown(r) && typeof r !== "string")
        failures.push({ property: "rotation", reason: "rotation must be a string" });
      if (kind.expires) failures.push(...expiryFailures(news));
      return { inputs, failures };
    },

    async diff(id, olds, news) {
      const { changed, replaces } = diffFields(olds, news, fields);
      const due = kind.expires ? expiryDue(olds, news, kind.label(id, olds)) : undefined;
      if (due && !replaces.includes("expiredAt")) replaces.push("expiredAt");
      reportRotation(replaces, olds, news, kind.label(id, olds), due);
      const single = !described(k, news);
      return {
        changes: changed.length > 0 || replaces.length > 0,
        replaces,
        ...(single && replaces.length > 0 ? { deleteBeforeReplace: true } : {}),
      };
    },

    async create(inputs) {
      const client = getClient();
      const organization = await kind.organization(client, inputs);
      if (inputs.adopt === true) {
        const found = await adoptable(client, inputs);
        if (found) return { id: found.id, outs: echoed(outputsOf(found, inputs, organization), inputs) };
      }
      const isDescribed = described(k, inputs);
      if (isDescribed) await replaceLost(client, inputs);
      else await clearSingle(client, inputs);
      const origin = isDescribed ? originOf(inputs) : undefined;
      const description = isDescribed ? String(inputs.description) : undefined;
      const expiredAt = kind.expires ? expiryToSend(inputs) : undefined;
      const label = kind.label(undefined, inputs);
      const created = await onHolder(
        `create ${label}`,
        inputs,
        () =>
          kind.create(client, inputs, {
            ...(description !== undefined ? { description: origin ? `${description} [${origin}]` : description } : {}),
            ...(expiredAt ? { expiredAt } : {}),
          }),
        "it",
      );
      return {
        id: created.id,
        outs: echoed(outputsOf(created, inputs, organization, created.token, expiredAt), inputs),
      };
    },

    async read(id, props) {
      const client = getClient();
      const tokenId = kind.tokenIdOf(id);
      let found: { token: T; owner: Props } | undefined;
      try {
        found = await kind.read(client, id, props);
      } catch (err) {
        if (!isNotFound(err)) throw err;
        await confirmGone(client, await kind.missing(client, tokenId, props), "refresh");
        return {};
      }
      if (!found) return {};
      const from = { ...props, ...found.owner };
      const organization = await kind.organization(client, from);
      return { id: found.token.id, props: echoed(outputsOf(found.token, from, organization), props) };
    },

    async update(_id, olds, news) {
      // Every input but `adopt`, `rotateBeforeDays` and `replaceExisting` replaces the token; those send nothing.
      const kept: Props = { ...olds };
      for (const name of ["rotateBeforeDays", "replaceExisting"]) {
        if (!kind.expires) break;
        if (news[name] === undefined || news[name] === null) delete kept[name];
        else kept[name] = news[name];
      }
      return { outs: echoed(kept, news) };
    },

    async delete(id, props) {
      const client = getClient();
      const tokenId = kind.tokenIdOf(id);
      try {
        await kind.delete(client, tokenId, props);
      } catch (err) {
        if (!isNotFound(err)) throw err;
        await confirmGone(client, await kind.missing(client, tokenId, props), "delete");
      }
    },
  };

  const lookup: AdoptionLookup = {
    noun: kind.noun,
    key(inputs) {
      const owner = kind.ownerFields.map((f) => inputs[f.name]);
      if (owner.some((v) => isUnknown(v)) || isUnknown(inputs.description)) return undefined;
      return described(k, inputs)
        ? `"${String(inputs.description)}" of ${kind.holder(inputs)}`
        : `of ${kind.holder(inputs)}`;
    },
    async find(client, inputs) {
      const t = await adoptable(client, inputs);
      if (!t) return undefined;
      const seed: Props = { rotation: inputs.rotation, adopt: true };
      for (const f of kind.ownerFields) seed[f.name] = inputs[f.name];
      // A declared expiry that is the token's own is what adoption keeps: the preview names no change.
      if (kind.expires && typeof inputs.expiresAt === "string" && sameExpiry(inputs.expiresAt, t.expiredAt))
        seed.expiresAt = inputs.expiresAt;
      return { id: t.id, label: kind.label(t.id, { ...inputs, description: t.description }), seed };
    },
  };
  return reportsAdoption(provider, lookup);
}
