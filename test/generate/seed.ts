/**
 * Seeds an organization the way years of hand work leave one: workspaces in several
 * projects with mixed execution modes (an agent pool), key-value and flat tags, SSH keys,
 * remote state consumers, and two no-code modules with workspaces made from them (one
 * with a sensitive variable; some tagged, one made by a portal that names itself, one
 * with a local execution mode and an SSH key set by hand). Everything goes through the service's public API, paced by
 * the client, so the server's rate limit may stay on.
 */
import { WorkspacesClient } from "../../src/client";
import { pool } from "../../src/generate/read";

export interface SeedServer {
  url: string;
  token: string;
  organization: string;
}

export interface Seeded {
  projects: string[];
  agentPoolId: string;
  sshKeys: string[];
  /** Workspace id by name, plain and module-made. */
  ids: Map<string, string>;
  /** Names of the workspaces made from no-code modules. */
  noCodeNames: string[];
  /** Key-value tags of the module-made workspaces that have tags (each also has the flat tag `no-code`), by name. */
  noCodeTags: Map<string, Record<string, string>>;
  modules: { id: string; registryModuleId: string; name: string }[];
  /** Workspace name -> the consumers it was given (names). */
  consumers: Map<string, string[]>;
  /** Sensitive value of each module-made workspace that has one, by workspace name. */
  passwords: Map<string, string>;
  requests: number;
}

async function raw(server: SeedServer, method: string, path: string, body: unknown): Promise<any> {
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${server.token}`, "content-type": "application/vnd.api+json" },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status === 429 && attempt < 20) {
      await new Promise((r) => setTimeout(r, 250));
      continue;
    }
    if (res.status >= 300) throw new Error(`${method} ${path}: HTTP ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  }
}

/** The name of the i-th plain workspace: a few start with a digit or differ only in `-`/`_`, as real names do. */
export function workspaceName(i: number): string {
  if (i % 50 === 7) return `${i}-batch`;
  // Differs from app-(i-1) only in the separator: both must get their own identifier.
  if (i % 50 === 9) return `app_${i - 1}`;
  return `app-${i}`;
}

/** `count` workspaces in all, of which `noCodeCount` are made from the two no-code modules. */
export async function seedOrganization(server: SeedServer, count: number, noCodeCount = 10): Promise<Seeded> {
  const client = new WorkspacesClient({ address: server.url, token: server.token, organization: server.organization });
  const org = server.organization;
  const projects: string[] = [];
  for (const name of ["platform", "payments", "data", "edge"]) {
    projects.push(
      (
        await raw(server, "POST", `/organizations/${org}/projects`, {
          data: { type: "projects", attributes: { name } },
        })
      ).data.id,
    );
  }
  const agentPoolId = (
    await raw(server, "POST", `/organizations/${org}/agent-pools`, {
      data: { type: "agent-pools", attributes: { name: "on-prem" } },
    })
  ).data.id;
  const sshKeys: string[] = [];
  for (const name of ["deploy", "modules"]) {
    sshKeys.push(
      (
        await raw(server, "POST", `/organizations/${org}/ssh-keys`, {
          data: { type: "ssh-keys", attributes: { name, value: "-----BEGIN KEY-----" } },
        })
      ).data.id,
    );
  }

  const ids = new Map<string, string>();
  const plainCount = count - noCodeCount;
  const plain = Array.from({ length: plainCount }, (_, i) => i);
  await pool(plain, 8, async (i) => {
    const mode = i % 5 === 0 ? "agent" : i % 5 === 1 ? "local" : "remote";
    const tagNames = i % 3 === 0 ? ["critical", "web"] : i % 2 === 0 ? ["web"] : [];
    const ws = await client.workspaces.create(org, {
      name: workspaceName(i),
      projectId: projects[i % projects.length],
      executionMode: mode,
      ...(mode === "agent" ? { agentPoolId } : {}),
      ...(i % 4 === 0 ? { description: `service ${i}` } : {}),
      ...(i % 6 === 0 ? { autoApply: true } : {}),
      ...(i % 9 === 0 ? { engineVersion: "1.5.7" } : {}),
      ...(i % 11 === 0 ? { triggerPrefixes: ["modules/", "envs/"] } : {}),
      tagBindings: [
        { key: "env", value: ["dev", "staging", "prod"][i % 3] },
        { key: "team", value: `team-${i % 7}` },
      ],
      tagNames,
    });
    if (ws.tagNames.length < tagNames.length) await client.tags.add(ws.id, tagNames);
    if (i % 10 === 0) await client.workspaces.assignSSHKey(ws.id, sshKeys[(i / 10) % 2]);
    ids.set(ws.name, ws.id);
  });

  const modules: Seeded["modules"] = [];
  for (const [name, options] of [
    ["network", [{ variableName: "region", variableType: "string", options: ["eu-west-1", "us-east-1"] }]],
    ["database", [{ variableName: "size", variableType: "string", options: ["small", "large"] }]],
  ] as const) {
    const rm = await client.registryModules.create(org, { name, provider: "aws", noCode: true });
    await client.registryModules.createVersion({ organization: org, name, provider: "aws" }, "1.0.0");
    await client.registryModules.createVersion({ organization: org, name, provider: "aws" }, "1.1.0");
    const m = await client.noCode.enable(org, {
      registryModuleId: rm.id,
      versionPin: "1.1.0",
      enabled: true,
      variableOptions: options.map((o) => ({ ...o, options: [...o.options] })),
    });
    modules.push({ id: m.id, registryModuleId: rm.id, name });
  }

  const noCodeNames: string[] = [];
  const passwords = new Map<string, string>();
  const noCodeTags = new Map<string, Record<string, string>>();
  await pool(
    Array.from({ length: noCodeCount }, (_, i) => i),
    4,
    async (i) => {
      const network = i % 2 === 0;
      const name = network ? `net-${i}` : `db-${i}`;
      const password = `pw-${i}-not-shown`;
      const ws = await client.noCode.createWorkspace(modules[network ? 0 : 1].id, {
        name,
        projectId: projects[i % projects.length],
        ...(i % 3 === 0 ? { description: `made from ${network ? "network" : "database"}` } : {}),
        // Made by a self-service portal, which says so.
        ...(i === 0 ? { sourceName: "portal", sourceUrl: "https://portal.example.com" } : {}),
        variables: network
          ? [
              { key: "region", value: i % 4 === 0 ? "eu-west-1" : "us-east-1", category: "engine" },
              { key: "cidr", value: `10.${i}.0.0/16`, category: "engine" },
            ]
          : [
              { key: "size", value: "small", category: "engine" },
              { key: "password", value: password, category: "env", sensitive: true },
            ],
      });
      // Tagged afterwards, as teams do; the program declares them with a WorkspaceTags.
      if (i % 3 === 1) {
        const tags = { env: ["dev", "prod"][i % 2], team: "self-service" };
        await client.tagBindings.set(
          ws.id,
          Object.entries(tags).map(([key, value]) => ({ key, value })),
        );
        await client.tags.add(ws.id, ["no-code"]);
        noCodeTags.set(name, tags);
      }
      // Settings NoCodeWorkspace has no input for, changed by hand after creation.
      if (i === 2) {
        await client.workspaces.update(ws.id, { executionMode: "local" });
        await client.workspaces.assignSSHKey(ws.id, sshKeys[1]);
      }
      if (!network) passwords.set(name, password);
      ids.set(name, ws.id);
      noCodeNames.push(name);
    },
  );
  noCodeNames.sort();

  // Consumers: every eighth workspace is read by the next two, and one by a module-made workspace.
  const consumers = new Map<string, string[]>();
  for (let i = 0; i + 2 < plainCount; i += 8) {
    const readers = [workspaceName(i + 1), workspaceName(i + 2)];
    if (i === 0 && noCodeNames.length) readers.push(noCodeNames[0]);
    consumers.set(workspaceName(i), readers);
  }
  await pool([...consumers], 8, async ([name, readers]) => {
    await client.remoteStateConsumers.add(
      ids.get(name)!,
      readers.map((r) => ids.get(r)!),
    );
  });

  return {
    projects,
    agentPoolId,
    sshKeys,
    ids,
    noCodeNames,
    noCodeTags,
    modules,
    consumers,
    passwords,
    requests: client.stats.requests,
  };
}
