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
