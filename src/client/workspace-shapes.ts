/**
 * A workspace as the client shows it, and the options of create, update and list, mapped
 * to and from the service's wire form (JSON:API, kebab-case) through the field table
 * (src/api/workspace-fields.ts). The calls that send them are in `workspaces.ts`.
 */
import type { z } from "zod";
import {
  workspaceSettingWire,
  workspaceFieldEntries,
  type FieldDef,
  type ValueOf,
  type WriteSchemaOf,
  type VcsRepoValue,
  type WorkspaceFieldName,
  type WorkspaceFieldTable,
} from "../api/workspace-fields";
import { type VcsRepo as VcsRepoWire, type ExecutionMode, type WorkspaceResource } from "../api/workspaces";
import { camelKeys, relId, toWire } from "./wire";

export type { ExecutionMode };

/** `vcs-repo` of a workspace, camel-cased (spec 2.4). */
export type VcsRepo = VcsRepoValue;

/** Client property names of the field table's lines that the service reports (every line with a wire name or relationship). */
type ClientFields = {
  [
    K in WorkspaceFieldName as WorkspaceFieldTable[K] extends { wire: string } | { rel: string }
      ? WorkspaceFieldTable[K] extends { client: infer C extends string }
        ? C
        : K
      : never
  ]: ValueOf<WorkspaceFieldTable[K]>;
};

/** A workspace as the service describes it, camel-cased: one property per line of the field table (src/api/workspace-fields.ts) that the service reports, plus the id, links and raw attributes. */
export interface Workspace extends ClientFields {
  /** Workspace id (`ws-...`). */
  id: string;
  /** Links the service sends (`self`, `selfHtml`). */
  links: { self?: string; selfHtml?: string };
  /** Every attribute exactly as received, including ones newer than this client. */
  attributes: Record<string, unknown>;
  /** Every relationship as received, by name; a server that lacks a feature leaves its relationship out (no `project`). */
  relationships: Record<string, unknown>;
}

/** `vcs-repo` on create or update. */
export interface VcsRepoOptions {
  /** Repository as `owner/name`. */
  identifier?: string;
  /** OAuth token (`ot-...`) of the VCS connection; null clears it. */
  oauthTokenId?: string | null;
  /** The GitHub App installation to use instead of an OAuth token (sent as `github-app-installation-id`). */
  vcsAppInstallationId?: string | null;
  /** Branch to follow; empty for the default branch. */
  branch?: string;
  /** Whether runs fetch submodules. */
  ingressSubmodules?: boolean;
  /** Regular expression of the git tags that start runs; null to start runs on branch pushes. */
  tagsRegex?: string | null;
}

/** A key-value tag to bind. */
export interface TagBindingInput {
  /** Tag key. */
  key: string;
  /** Tag value (may be empty). */
  value: string;
}

/** The field table's plain settable lines (not the name, not nested objects). */
type PlainSettingName = {
  [K in WorkspaceFieldName]: K extends "name"
    ? never
    : WorkspaceFieldTable[K] extends { wire: string; write: unknown }
      ? WorkspaceFieldTable[K] extends { shape: "camelKeys" | "vcsRepo" }
        ? never
        : K
      : never;
}[WorkspaceFieldName];

/** One optional property per plain settable line of the field table, typed as the request schema accepts it. */
type PlainSettings = { [K in PlainSettingName]?: z.infer<WriteSchemaOf<WorkspaceFieldTable[K]>> };

/** Settings shared by create and update (spec 4.2, 4.3): the field table's settable lines. `undefined` leaves a setting alone; `null` clears it where the wire allows. */
export interface WorkspaceSettings extends PlainSettings {
  /** Which settings the workspace sets itself instead of inheriting them from its project. */
  settingOverwrites?: { executionMode?: boolean; agentPool?: boolean };
  /** Project to create the workspace in, or (on update) to move it to. */
  projectId?: string;
  /**
   * Key-value tags sent in `relationships.tag-bindings` of the same request, so a
   * workspace is created with its key-value tags in one request.
   */
  tagBindings?: TagBindingInput[];
}

/** What `workspaces.create` sends: the name, the settings and, optionally, a VCS connection and tags. */
export interface WorkspaceCreateOptions extends WorkspaceSettings {
  /** Workspace name: letters, digits, `-` and `_`, unique in the organization regardless of case. */
  name: string;
  /** VCS connection to create the workspace with. */
  vcsRepo?: VcsRepoOptions;
  /**
   * Flat tags sent in `relationships.tags` of the create request, as go-tfe sends them.
   * The API documentation does not list this key, so check `tagNames` of the result and add what is
   * missing with `tags.add` (a service that ignores the key costs one more request).
   */
  tagNames?: string[];
}

/** What `workspaces.update` sends: only the given settings change. */
export interface WorkspaceUpdateOptions extends WorkspaceSettings {
  /** Renames the workspace. */
  name?: string;
  /** `null` removes the VCS connection; an object changes only the given keys. */
  vcsRepo?: VcsRepoOptions | null;
}

/** Sort keys of the workspace list (a leading `-` in `WorkspaceListOptions.sort` reverses them). */
export type WorkspaceSortKey = "name" | "current-run.created-at" | "latest-change-at";

/** Filters of the workspace list (spec 4.4). */
export interface WorkspaceListOptions {
  /** Fuzzy name match (`search[name]`). */
  search?: string;
  /** Only workspaces carrying every one of these flat tags (`search[tags]`). */
  tags?: string[];
  /** Excludes workspaces carrying any of these flat tags (`search[exclude-tags]`). */
  excludeTags?: string[];
  /** Partial name match with `*` as prefix, suffix or both (`search[wildcard-name]`). */
  wildcardName?: string;
  /** Sort key; a leading `-` reverses. */
  sort?: WorkspaceSortKey | `-${WorkspaceSortKey}`;
  /** Only workspaces of this project (`filter[project][id]`). */
  projectId?: string;
  /** Only workspaces whose current run has this status. */
  currentRunStatus?: string;
  /** Key-value tag filters, combined with AND; a filter without `value` matches any value. */
  tagged?: { key: string; value?: string }[];
}

const VCS_KEYS = [
  "identifier",
  "oauthTokenId",
  "vcsAppInstallationId",
  "branch",
  "ingressSubmodules",
  "tagsRegex",
] as const;
/** The hosted service and its official clients spell the app installation after the vendor; every server of this API reads that name. */
const VCS_WIRE_NAMES = { vcsAppInstallationId: "github-app-installation-id" } as const;

/** Builds the JSON:API body of create and update. */
export function workspaceRequestBody(
  options: WorkspaceCreateOptions | WorkspaceUpdateOptions,
): Record<string, unknown> {
  const attributes: Record<string, unknown> = {};
  const given = options as Record<string, unknown>;
  if (given.name !== undefined) attributes.name = given.name;
  for (const [key, wire] of workspaceSettingWire()) if (given[key] !== undefined) attributes[wire] = given[key];
  if (options.settingOverwrites)
    attributes["setting-overwrites"] = toWire(options.settingOverwrites, ["executionMode", "agentPool"]);
  if (options.vcsRepo === null) attributes["vcs-repo"] = null;
  else if (options.vcsRepo) attributes["vcs-repo"] = toWire(options.vcsRepo, VCS_KEYS, VCS_WIRE_NAMES);

  const relationships: Record<string, unknown> = {};
  if (options.projectId) relationships.project = { data: { type: "projects", id: options.projectId } };
  if (options.tagBindings) {
    relationships["tag-bindings"] = {
      data: options.tagBindings.map((t) => ({ type: "tag-bindings", attributes: { key: t.key, value: t.value } })),
    };
  }
  const tagNames = (options as WorkspaceCreateOptions).tagNames;
  if (tagNames?.length) relationships.tags = { data: tagNames.map((name) => ({ type: "tags", attributes: { name } })) };
  const data: Record<string, unknown> = { type: "workspaces", attributes };
  if (Object.keys(relationships).length) data.relationships = relationships;
  return { data };
}

/** Query parameters of the workspace list. */
export function workspaceListQuery(options: WorkspaceListOptions): Record<string, string | undefined> {
  const q: Record<string, string | undefined> = {
    "search[name]": options.search,
    "search[tags]": options.tags?.length ? options.tags.join(",") : undefined,
    "search[exclude-tags]": options.excludeTags?.length ? options.excludeTags.join(",") : undefined,
    "search[wildcard-name]": options.wildcardName,
    sort: options.sort,
    "filter[project][id]": options.projectId,
    "filter[current-run][status]": options.currentRunStatus,
  };
  options.tagged?.forEach((t, i) => {
    q[`filter[tagged][${i}][key]`] = t.key;
    if (t.value !== undefined) q[`filter[tagged][${i}][value]`] = t.value;
  });
  return q;
}

function vcsRepoOf(vcs: VcsRepoWire | null | undefined): VcsRepoValue | null {
  if (!vcs) return null;
  return {
    identifier: vcs.identifier ?? "",
    branch: vcs.branch ?? "",
    displayIdentifier: vcs["display-identifier"] ?? null,
    ingressSubmodules: vcs["ingress-submodules"] ?? false,
    // An empty id (OTF sends `""` for "none") is no id.
    oauthTokenId: vcs["oauth-token-id"] || null,
    vcsAppInstallationId: vcs["github-app-installation-id"] || vcs["vcs-app-installation-id"] || null,
    repositoryHttpUrl: vcs["repository-http-url"] ?? null,
    serviceProvider: vcs["service-provider"] ?? null,
    tagsRegex: vcs["tags-regex"] ?? null,
    webhookUrl: vcs["webhook-url"] ?? null,
  };
}

/**
 * The client's value of one table line, read from a workspace resource: the vendor
 * spelling (`wire`) first, then the spec's (`alias`); `null` and a missing attribute
 * read as the line's `absent` value.
 */
function readField(r: WorkspaceResource, f: FieldDef): unknown {
  const a = r.attributes as Record<string, unknown>;
  if (f.rel) return relId(r, f.rel);
  const raw = a[f.wire!] ?? (f.alias ? a[f.alias] : undefined);
  switch (f.shape) {
    case "camelKeys":
      return camelKeys(raw as Record<string, unknown> | undefined);
    case "vcsRepo":
      return vcsRepoOf(raw as VcsRepoWire | null | undefined);
  }
  return raw === undefined || raw === null
    ? f.absent !== undefined
      ? Array.isArray(f.absent)
        ? []
        : f.absent
      : raw
    : raw;
}

/** Lines of the table the client reads, as `[client name, line]`. */
const READ_FIELDS: readonly (readonly [string, FieldDef])[] = workspaceFieldEntries
  .filter(([, f]) => f.wire !== undefined || f.rel !== undefined)
  .filter(([, f]) => f.read !== undefined || f.rel !== undefined)
  .map(([k, f]) => [f.client ?? k, f] as const);

/** Turns a workspace resource into a {@link Workspace}: one property per line of the field table. */
export function toWorkspace(r: WorkspaceResource): Workspace {
  const links: Record<string, unknown> = r.links ?? {};
  const out: Record<string, unknown> = { id: r.id };
  for (const [name, f] of READ_FIELDS) out[name] = readField(r, f);
  out.links = {
    ...(typeof links.self === "string" ? { self: links.self } : {}),
    ...(typeof links["self-html"] === "string" ? { selfHtml: links["self-html"] } : {}),
  };
  out.attributes = r.attributes;
  out.relationships = r.relationships ?? {};
  return out as unknown as Workspace;
}
