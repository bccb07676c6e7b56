/**
 * What the end-to-end tests do on the server directly, over its public API:
 * set up records a program refers to, and read back what the program made.
 */
import { createHash } from "node:crypto";
import type { RunningServer } from "../../src/server";
import { WorkspacesClient } from "../../src/client";
import { api } from "./harness";

export async function expectStatus<T>(p: Promise<{ status: number; body: T }>, ok: number[], what: string): Promise<T> {
  const r = await p;
  if (!ok.includes(r.status)) throw new Error(`${what}: HTTP ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

export async function createProject(server: RunningServer, name: string): Promise<string> {
  const body = await expectStatus(
    api<any>(server, `/organizations/${server.organization}/projects`, {
      method: "POST",
      body: { data: { type: "projects", attributes: { name } } },
    }),
    [200, 201],
    `create project ${name}`,
  );
  return body.data.id;
}

/** A VCS credential (`ot-...`, the OAuth token of a new GitHub OAuth client) made on the server. */
export async function createVcsToken(server: RunningServer): Promise<string> {
  const oc = await expectStatus(
    api<any>(server, `/organizations/${server.organization}/oauth-clients`, {
      method: "POST",
      body: {
        data: {
          type: "oauth-clients",
          attributes: {
            "service-provider": "github",
            "http-url": "https://github.com",
            "api-url": "https://api.github.com",
          },
        },
      },
    }),
    [201],
    "create OAuth client",
  );
  return oc.data.relationships["oauth-tokens"].data[0].id;
}

/** The VCS credential (`ot-...`) and the SSH key (`sshkey-...`) a workspace's settings refer to, made on the server. */
export async function createVcsTokenAndSshKey(
  server: RunningServer,
): Promise<{ oauthTokenId: string; sshKeyId: string }> {
  const oauthTokenId = await createVcsToken(server);
  const key = await expectStatus(
    api<any>(server, `/organizations/${server.organization}/ssh-keys`, {
      method: "POST",
      body: { data: { type: "ssh-keys", attributes: { name: "deploy", value: "-----BEGIN KEY-----" } } },
    }),
    [201],
    "create SSH key",
  );
  return { oauthTokenId, sshKeyId: key.data.id };
}

/** A workspace made on the server (not by a program); its id. */
export async function createWorkspace(server: RunningServer, name: string): Promise<string> {
  const body = await expectStatus(
    api<any>(server, `/organizations/${server.organization}/workspaces`, {
      method: "POST",
      body: { data: { type: "workspaces", attributes: { name } } },
    }),
    [201],
    `create workspace ${name}`,
  );
  return body.data.id;
}

export async function workspaceByName(server: RunningServer, name: string): Promise<any> {
  const body = await expectStatus(
    api<any>(server, `/organizations/${server.organization}/workspaces/${name}`),
    [200],
    `show workspace ${name}`,
  );
  return body.data;
}

/** Key-value tags bound directly to the workspace, as a plain object. */
export async function tagBindings(server: RunningServer, workspaceId: string): Promise<Record<string, string>> {
  const body = await expectStatus(api<any>(server, `/workspaces/${workspaceId}/tag-bindings`), [200], "tag bindings");
  return Object.fromEntries(body.data.map((b: any) => [b.attributes.key, b.attributes.value]));
}

/** Ids of the workspaces allowed to read `workspaceId`'s state, sorted. */
export async function consumerIds(server: RunningServer, workspaceId: string): Promise<string[]> {
  const body = await expectStatus(
    api<any>(server, `/workspaces/${workspaceId}/relationships/remote-state-consumers?page%5Bsize%5D=100`),
    [200],
    "remote state consumers",
  );
  return body.data.map((w: any) => w.id).sort();
}

/**
 * Makes the workspace "manage resources" the way a run does: lock, upload a
 * state version holding `count` resources, unlock.
 */
export async function giveWorkspaceResources(server: RunningServer, workspaceId: string, count: number): Promise<void> {
  await uploadState(server, workspaceId, {
    version: 4,
    serial: 1,
    lineage: "e2e",
    resources: Array.from({ length: count }, (_, i) => ({
      mode: "managed",
      type: "null_resource",
      name: `r${i}`,
      instances: [],
    })),
  });
  const ws = await expectStatus(api<any>(server, `/workspaces/${workspaceId}`), [200], "show workspace");
  if (ws.data.attributes["resource-count"] !== count) {
    throw new Error(
      `workspace ${workspaceId} reports ${ws.data.attributes["resource-count"]} resources, expected ${count}`,
    );
  }
}

/** A private registry module with the given versions; returns its id (`mod-...`). */
export async function createRegistryModule(
  server: RunningServer,
  name: string,
  provider: string,
  versions: string[],
): Promise<string> {
  const body = await expectStatus(
    api<any>(server, `/organizations/${server.organization}/registry-modules`, {
      method: "POST",
      body: { data: { type: "registry-modules", attributes: { name, provider, "registry-name": "private" } } },
    }),
    [200, 201],
    `create registry module ${name}`,
  );
  for (const v of versions) await publishModuleVersion(server, name, provider, v);
  return body.data.id;
}

async function publishModuleVersion(
  server: RunningServer,
  name: string,
  provider: string,
  version: string,
): Promise<void> {
  await expectStatus(
    api(server, `/registry-modules/${server.organization}/${name}/${provider}/versions`, {
      method: "POST",
      body: { data: { type: "registry-module-versions", attributes: { version } } },
    }),
    [200, 201],
    `publish ${name} ${version}`,
  );
}

/** Variables of a workspace by key (sensitive values come back hidden). */
export async function workspaceVars(server: RunningServer, workspaceId: string): Promise<Record<string, any>> {
  const body = await expectStatus(api<any>(server, `/workspaces/${workspaceId}/vars`), [200], "workspace vars");
  return Object.fromEntries(body.data.map((v: any) => [v.attributes.key, v.attributes]));
}

function bindingsBody(tags: Record<string, string>): { data: unknown[] } {
  return { data: Object.entries(tags).map(([key, value]) => ({ type: "tag-bindings", attributes: { key, value } })) };
}

/** A workspace made outside any stack, with key-value tags of its own; returns its id. */
export async function createWorkspaceWithTags(
  server: RunningServer,
  name: string,
  tags: Record<string, string> = {},
): Promise<string> {
  const body = await expectStatus(
    api<any>(server, `/organizations/${server.organization}/workspaces`, {
      method: "POST",
      body: {
        data: { type: "workspaces", attributes: { name }, relationships: { "tag-bindings": bindingsBody(tags) } },
      },
    }),
    [201],
    `create workspace ${name}`,
  );
  return body.data.id;
}

/** Replaces the workspace's own key-value tags, as another owner would. */
export async function setTagBindings(
  server: RunningServer,
  workspaceId: string,
  tags: Record<string, string>,
): Promise<void> {
  await expectStatus(
    api(server, `/workspaces/${workspaceId}`, {
      method: "PATCH",
      body: { data: { type: "workspaces", relationships: { "tag-bindings": bindingsBody(tags) } } },
    }),
    [200],
    "set tag bindings",
  );
}

/**
 * A client of the server, and a workspace `name` with a variable THEIRS that no stack made:
 * what the variable tests' destroy must leave alone.
 */
export async function workspaceWithTheirVariable(
  server: RunningServer,
  name: string,
): Promise<{ client: WorkspacesClient; workspaceId: string; theirs: string }> {
  const client = new WorkspacesClient({ address: server.url, token: server.token, organization: server.organization });
  const workspaceId = (await client.workspaces.create(server.organization, { name })).id;
  const theirs = (await client.variables.create(workspaceId, { key: "THEIRS", value: "kept", category: "env" })).id;
  return { client, workspaceId, theirs };
}

/** Uploads `state` as the workspace's new current state the way a run does: lock, upload, unlock. */
export async function uploadState(
  server: RunningServer,
  workspaceId: string,
  state: { serial: number; lineage: string; [key: string]: unknown },
): Promise<void> {
  const bytes = Buffer.from(JSON.stringify(state), "utf8");
  await expectStatus(
    api(server, `/workspaces/${workspaceId}/actions/lock`, { method: "POST", body: { reason: "e2e run" } }),
    [200],
    "lock",
  );
  await expectStatus(
    api(server, `/workspaces/${workspaceId}/state-versions`, {
      method: "POST",
      body: {
        data: {
          type: "state-versions",
          attributes: {
            serial: state.serial,
            md5: createHash("md5").update(bytes).digest("hex"),
            lineage: state.lineage,
            state: bytes.toString("base64"),
          },
        },
      },
    }),
    [200, 201],
    "create state version",
  );
  await expectStatus(api(server, `/workspaces/${workspaceId}/actions/unlock`, { method: "POST" }), [200], "unlock");
}

/** A person invited into the server's organization out of band: the membership (`ou-...`) and its user. */
export interface Invited {
  id: string;
  userId: string;
  username: string;
}

/** Invites `email` into the server's organization (`POST /organizations/:org/organization-memberships`). */
export async function invite(server: RunningServer, email: string): Promise<Invited> {
  const body = await expectStatus(
    api<any>(server, `/organizations/${server.organization}/organization-memberships`, {
      method: "POST",
      body: { data: { type: "organization-memberships", attributes: { email } } },
    }),
    [201],
    `invite ${email}`,
  );
  const userId: string = body.data.relationships.user.data.id;
  const user = await expectStatus(api<any>(server, `/users/${userId}`), [200], `read user ${userId}`);
  return { id: body.data.id, userId, username: user.data.attributes.username };
}

/**
 * The invited person accepts with their own user token (minted by the site administrator,
 * the owners token of a local server), on the local server's accept route; that token.
 */
export async function accept(server: RunningServer, invited: Invited): Promise<string> {
  const minted = await expectStatus(
    api<any>(server, `/users/${invited.userId}/authentication-tokens`, { method: "POST", body: {} }),
    [201],
    `user token of ${invited.username}`,
  );
  const token: string = minted.data.attributes.token;
  await expectStatus(
    api(server, `/organization-memberships/${invited.id}/actions/accept`, { method: "POST", token }),
    [200, 204],
    `accept ${invited.id}`,
  );
  return token;
}

/** A team of the server's organization made out of band; its id. */
export async function createTeam(server: RunningServer, name: string): Promise<string> {
  const body = await expectStatus(
    api<any>(server, `/organizations/${server.organization}/teams`, {
      method: "POST",
      body: { data: { type: "teams", attributes: { name, visibility: "organization" } } },
    }),
    [201],
    `create team ${name}`,
  );
  return body.data.id;
}

/** Adds members to a team out of band, by username (`users`) or membership id (`organization-memberships`). */
export async function changeTeamMembers(
  server: RunningServer,
  teamId: string,
  method: "POST" | "DELETE",
  kind: "users" | "organization-memberships",
  ids: string[],
): Promise<void> {
  await expectStatus(
    api(server, `/teams/${teamId}/relationships/${kind}`, {
      method,
      body: { data: ids.map((id) => ({ type: kind, id })) },
    }),
    [200, 201, 204],
    `${method} ${kind} of ${teamId}`,
  );
}

/** Who is in a team as the server answers it: people by username, service users apart, memberships by id; each sorted. */
export async function teamMembersOnServer(
  server: RunningServer,
  teamId: string,
): Promise<{ usernames: string[]; serviceUsers: string[]; membershipIds: string[] }> {
  const users = await expectStatus(api<any>(server, `/teams/${teamId}?include=users`), [200], `users of ${teamId}`);
  const memberships = await expectStatus(
    api<any>(server, `/teams/${teamId}?include=organization-memberships`),
    [200],
    `memberships of ${teamId}`,
  );
  const included = (users.included ?? []).filter((r: any) => r.type === "users");
  const names = (service: boolean) =>
    included
      .filter((u: any) => Boolean(u.attributes["is-service-account"]) === service)
      .map((u: any) => u.attributes.username as string)
      .sort();
  return {
    usernames: names(false),
    serviceUsers: names(true),
    membershipIds: (memberships.data.relationships?.["organization-memberships"]?.data ?? [])
      .map((m: { id: string }) => m.id)
      .sort(),
  };
}

/**
 * A team token made out of band: a described one (`POST /teams/:id/authentication-tokens`)
 * or, without a description, the team's legacy one; its id and its secret (answered this once).
 */
export async function createTeamToken(
  server: RunningServer,
  teamId: string,
  description?: string,
): Promise<{ id: string; token: string }> {
  const body = await expectStatus(
    api<any>(server, `/teams/${teamId}/authentication-token${description === undefined ? "" : "s"}`, {
      method: "POST",
      body: { data: { type: "authentication-tokens", attributes: description === undefined ? {} : { description } } },
    }),
    [201],
    `create a token of ${teamId}`,
  );
  return { id: body.data.id, token: body.data.attributes.token };
}

/** The organization's token (`audit-trails` or the organization's own) made out of band; its id and secret. */
export async function createOrganizationToken(
  server: RunningServer,
  tokenType: "organization" | "audit-trails" = "organization",
): Promise<{ id: string; token: string }> {
  const query = tokenType === "audit-trails" ? "?token_type=audit-trails" : "";
  const body = await expectStatus(
    api<any>(server, `/organizations/${server.organization}/authentication-token${query}`, {
      method: "POST",
      body: { data: { type: "authentication-tokens", attributes: {} } },
    }),
    [201],
    `create the ${tokenType} token`,
  );
  return { id: body.data.id, token: body.data.attributes.token };
}

/** The organization's team tokens as the server lists them (`GET /organizations/:org/team-tokens`), every page. */
export async function teamTokensOnServer(
  server: RunningServer,
  teamId?: string,
): Promise<Array<{ id: string; teamId: string; description: string | null }>> {
  const out: Array<{ id: string; teamId: string; description: string | null }> = [];
  for (let page = 1; ; page++) {
    const body = await expectStatus(
      api<any>(server, `/organizations/${server.organization}/team-tokens?page%5Bsize%5D=100&page%5Bnumber%5D=${page}`),
      [200],
      "list team tokens",
    );
    for (const t of body.data)
      out.push({ id: t.id, teamId: t.relationships?.team?.data?.id, description: t.attributes.description ?? null });
    if (!body.meta?.pagination?.["next-page"]) break;
  }
  return out.filter((t) => teamId === undefined || t.teamId === teamId);
}

/** The HTTP status `token` gets for `GET` (or `method`) of `path`: what the token may do. */
export async function statusWith(
  server: RunningServer,
  token: string,
  path: string,
  method = "GET",
  body?: unknown,
): Promise<number> {
  return (await api(server, path, { token, method, body })).status;
}
