/**
 * What the providers of `TeamWorkspaceAccess` and `TeamProjectAccess` share: one grant is a
 * level and, for `custom`, groups of permissions (one for a workspace, two for a project),
 * each checked against the lists of src/api/team-access.ts and compared as the permissions
 * the grant ends with, so that a preset level and the same custom permissions are equal and
 * a permission the service adds later (or one it does not send) takes its level's default.
 */
import { ValidationError, type WorkspacesClient } from "../../client";
import { isId, type IdKind } from "../../api/common";
import { CLAIMANT_KEY, claim } from "../process/claims";
import { reportsAdoption, type AdoptionLookup } from "./adoption";
import { getClient, isNotFound } from "./client";
import { diffFields, type FieldRule } from "./compare";
import { childRecord, confirmGone, type MissingRecord } from "./gone";
import { ProviderError } from "./user-errors";
import { isUnknown } from "./unknowns";
import { adoptFailures } from "./workspace-variable-lists";
import {
  grantFailures,
  recorded,
  sameGrant,
  wanted,
  type Grant,
  type GrantKind,
  type Permissions,
} from "./team-access-grants";
import type { CheckFailure, DiffResult, ProviderImpl, Props } from "./types";

/** What one provider adds to the shared implementation: the target and the client calls. */
interface AccessTarget {
  /** Resource type name, for messages: `TeamWorkspaceAccess`. */
  resource: string;
  /** The target's kind as messages and ids name it: `workspace` or `project`. */
  noun: "workspace" | "project";
  /** The target's input: `workspaceId` or `projectId`. */
  input: "workspaceId" | "projectId";
  /** The target's id kind (`workspace`, `project`) and the record's id prefix (`tws-`, `tprj-`). */
  idKind: IdKind;
  prefix: string;
  /** Which records a token must see all of for a 404 to prove this one gone. */
  visibility: MissingRecord["kind"];
  grant: GrantKind;
  /** The diff table of the team and the target: a change of either replaces the access. */
  fields: FieldRule[];
  /** The target's organization, for the 404 rule (one read of the workspace or project). */
  organizationOf(client: WorkspacesClient, targetId: string): Promise<string | null>;
  list(client: WorkspacesClient, targetId: string): AsyncIterable<Grant>;
  read(client: WorkspacesClient, id: string): Promise<Grant>;
  add(
    client: WorkspacesClient,
    teamId: string,
    targetId: string,
    access: string,
    groups: Record<string, Permissions>,
  ): Promise<Grant>;
  update(client: WorkspacesClient, id: string, access: string, groups: Record<string, Permissions>): Promise<Grant>;
  remove(client: WorkspacesClient, id: string): Promise<void>;
}

/** Outputs as stored in state. */
type AccessOutputs = Props & {
  teamId: string;
  access: string;
  /** Organization of the target, for the 404 rule; absent until known. */
  organization?: string | null;
  adopt?: unknown;
};

function outputsOf(
  t: AccessTarget,
  grant: Grant,
  teamId: string,
  targetId: string,
  organization: unknown,
): AccessOutputs {
  const outs: AccessOutputs = {
    teamId: grant.teamId ?? teamId,
    [t.input]: grant.targetId ?? targetId,
    access: grant.access,
    organization: typeof organization === "string" && organization !== "" ? organization : null,
  };
  // Every permission this package knows, the level's default for one the service does not send.
  for (const g of t.grant.groups) outs[g.input] = recorded(t.grant, g, grant.access, grant.groups[g.input]);
  return outs;
}

const withAdopt = (outs: AccessOutputs, from: Props): AccessOutputs =>
  from.adopt !== undefined ? { ...outs, adopt: from.adopt } : outs;

function label(t: AccessTarget, teamId: unknown, targetId: unknown, id?: string): string {
  return `the access of team ${String(teamId)} to ${t.noun} ${String(targetId)}${id ? ` (${id})` : ""}`;
}

/** A create refused because the team already has access there (the hosted service: "has already been taken"). */
function alreadyGranted(err: unknown): boolean {
  return (
    err instanceof ValidationError &&
    err.problems.some((p) => /already been taken|already exists|already has access/i.test(p.detail))
  );
}

async function existing(client: WorkspacesClient, t: AccessTarget, teamId: string, targetId: string) {
  for await (const g of t.list(client, targetId)) if (g.teamId === teamId) return g;
  return undefined;
}

/** The team's access to the target, for the preview of `adopt: true` (see reportsAdoption). */
function accessLookup(t: AccessTarget): AdoptionLookup {
  const ids = (inputs: Props) => ({ teamId: inputs.teamId, targetId: inputs[t.input] });
  return {
    noun: "team access",
    key(inputs) {
      const { teamId, targetId } = ids(inputs);
      if ([teamId, targetId].some((v) => typeof v !== "string" || isUnknown(v))) return undefined;
      return `of team ${String(teamId)} to ${t.noun} ${String(targetId)}`;
    },
    async find(client, inputs) {
      const teamId = String(inputs.teamId);
      const targetId = String(inputs[t.input]);
      const found = await existing(client, t, teamId, targetId).catch((err: unknown) => {
        if (isNotFound(err)) return undefined;
        throw err;
      });
      if (!found) return undefined;
      return {
        id: found.id,
        label: `access of team ${teamId} to ${t.noun} ${targetId} (${found.id}, access "${found.access}")`,
        seed: { teamId, [t.input]: targetId },
      };
    },
  };
}

/** The provider of one kind of team access. */
export function accessProvider(t: AccessTarget): ProviderImpl<Props, AccessOutputs> {
  return reportsAdoption(accessImplementation(t), accessLookup(t));
}

function accessImplementation(t: AccessTarget): ProviderImpl<Props, AccessOutputs> {
  const FIELDS = t.fields;
  const missing = (client: WorkspacesClient, id: string, props: Props): Promise<MissingRecord> =>
    childRecord(client, { label: label(t, props.teamId, props[t.input], id), kind: t.visibility }, props, [
      { kind: t.noun, id: props[t.input] },
      { kind: "team", id: props.teamId },
    ]);

  return {
    async check(_olds, news) {
      const { [CLAIMANT_KEY]: claimant, ...inputs } = news;
      const failures: CheckFailure[] = [];
      const team = news.teamId;
      if (team === undefined || team === null || team === "")
        failures.push({ property: "teamId", reason: "teamId is required: a team id (team-...)" });
      else if (!isUnknown(team) && !isId("team", team))
        failures.push({
          property: "teamId",
          reason: `teamId must be a team id (team-...), not ${JSON.stringify(team)}`,
        });
      const target = news[t.input];
      const prefix = t.idKind === "workspace" ? "ws-" : "prj-";
      if (target === undefined || target === null || target === "")
        failures.push({ property: t.input, reason: `${t.input} is required: a ${t.noun} id (${prefix}...)` });
      else if (!isUnknown(target) && !isId(t.idKind, target))
        failures.push({
          property: t.input,
          reason: `${t.input} must be a ${t.noun} id (${prefix}...), not ${JSON.stringify(target)}`,
        });
      failures.push(...grantFailures(t.grant, news), ...adoptFailures(news.adopt));
      if (failures.length === 0 && typeof claimant === "string" && !isUnknown(team) && !isUnknown(target)) {
        const other = claim(`${String(team)}/${String(target)}`, claimant);
        if (other !== undefined)
          failures.push({
            property: "teamId",
            reason: `team ${String(team)} is given access to ${t.noun} ${String(target)} by two resources of this stack, this one and "${other}": a team has one access per ${t.noun}, so keep one of the two`,
          });
      }
      return { inputs, failures };
    },

    async diff(_id, olds, news): Promise<DiffResult> {
      const { changed, replaces } = diffFields(olds, news, FIELDS);
      const changes = changed.length > 0 || !sameGrant(t.grant, news, olds);
      return { changes, replaces };
    },

    async create(inputs) {
      const teamId = String(inputs.teamId);
      const targetId = String(inputs[t.input]);
      const client = getClient();
      const { access, groups } = wanted(t.grant, inputs);
      const organization = await t.organizationOf(client, targetId).catch((err: unknown) => {
        if (!isNotFound(err)) throw err;
        throw new ProviderError(
          `cannot give team ${teamId} access to ${t.noun} ${targetId}: the service answered 404 for the ${t.noun}, so it does not exist or the token in use may not see it. Check ${t.input}, or use a token that may manage team access.`,
        );
      });
      if (inputs.adopt === true) {
        const found = await existing(client, t, teamId, targetId);
        if (found) {
          const current = outputsOf(t, found, teamId, targetId, organization);
          const outs = sameGrant(t.grant, inputs, current)
            ? current
            : outputsOf(t, await t.update(client, found.id, access, groups), teamId, targetId, organization);
          return { id: found.id, outs: withAdopt(outs, inputs) };
        }
      }
      let grant: Grant;
      try {
        grant = await t.add(client, teamId, targetId, access, groups);
      } catch (err) {
        if (isNotFound(err))
          throw new ProviderError(
            `cannot give team ${teamId} access to ${t.noun} ${targetId}: the service answered 404, so the team does not exist, is in another organization, or the token in use may not see it. Check teamId.`,
          );
        if (!alreadyGranted(err)) throw err;
        const found = await existing(client, t, teamId, targetId).catch(() => undefined);
        const id = found?.id ?? `${teamId}/${targetId}`;
        throw new ProviderError(
          `team ${teamId} already has access to ${t.noun} ${targetId}${found ? ` (${found.id}, access "${found.access}")` : ""}, granted outside this stack (in the UI, by another stack) or by an update of this stack that was interrupted. ` +
            `To manage it from this stack, set adopt: true on this resource: pulumi up then takes it over and changes only what the program declares differently. ` +
            `Or import it: pulumi import workspaces:index:${t.resource} <name> ${id}. Otherwise remove this resource.`,
        );
      }
      return { id: grant.id, outs: withAdopt(outputsOf(t, grant, teamId, targetId, organization), inputs) };
    },

    async read(id, props) {
      const client = getClient();
      let grant: Grant;
      let recordId = id;
      try {
        if (id.startsWith(t.prefix)) grant = await t.read(client, id);
        else {
          const [teamId = "", targetId = "", ...rest] = id.split("/");
          if (rest.length > 0 || !isId("team", teamId) || !isId(t.idKind, targetId))
            throw new ProviderError(
              `${JSON.stringify(id)} is not the id of a ${t.resource}: give its ${t.prefix}... id, or <team-id>/<${t.idKind === "workspace" ? "ws" : "prj"}-id>`,
            );
          const found = await existing(client, t, teamId, targetId);
          if (!found) return {};
          grant = found;
          recordId = found.id;
        }
      } catch (err) {
        if (!isNotFound(err)) throw err;
        await confirmGone(client, await missing(client, id, props), "refresh");
        return {};
      }
      const teamId = grant.teamId ?? String(props.teamId);
      const targetId = grant.targetId ?? String(props[t.input]);
      const organization =
        typeof props.organization === "string" && props.organization !== ""
          ? props.organization
          : await t.organizationOf(client, targetId).catch(() => null);
      return { id: recordId, props: withAdopt(outputsOf(t, grant, teamId, targetId, organization), props) };
    },

    inputShape(name, value, outputs) {
      // A custom grant's permissions as recorded; a preset level's follow from it.
      if (t.grant.groups.some((g) => g.input === name)) return outputs.access === "custom" ? value : undefined;
      return value;
    },

    async update(id, olds, news) {
      const client = getClient();
      const teamId = String(olds.teamId);
      const targetId = String(olds[t.input]);
      if (sameGrant(t.grant, news, olds)) return { outs: withAdopt({ ...olds }, news) };
      const { access, groups } = wanted(t.grant, news);
      let grant: Grant;
      try {
        grant = await t.update(client, id, access, groups);
      } catch (err) {
        if (!isNotFound(err)) throw err;
        await confirmGone(client, await missing(client, id, olds), "update");
        throw new ProviderError(
          `cannot update ${label(t, teamId, targetId, id)}: it was removed outside the program. Run \`pulumi refresh\`, then \`pulumi up\` grants it again.`,
        );
      }
      return { outs: withAdopt(outputsOf(t, grant, teamId, targetId, olds.organization), news) };
    },

    async delete(id, props) {
      const client = getClient();
      try {
        await t.remove(client, id);
      } catch (err) {
        if (!isNotFound(err)) throw err;
        await confirmGone(client, await missing(client, id, props), "delete");
      }
    },
  };
}
