import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import * as fs from "node:fs";
import * as path from "node:path";
import { NotFoundError, USER_AGENT, ValidationError, WorkspacesClient } from "../../src/client";
import { clientFor, failure, serverRequest, startTestServer, uniqueName } from "./helpers";

let server: RunningServer;
let client: WorkspacesClient;
let org: string;

beforeAll(async () => {
  server = await startTestServer({ selfManaged: true });
  client = clientFor(server, { rateLimit: false });
  org = server.organization;
});
afterAll(async () => {
  await server?.close();
});

describe("remote state consumers", () => {
  it("replaces, adds and removes consumers, ignoring ones already in place or absent", async () => {
    const subject = await client.workspaces.create(org, { name: uniqueName("subject") });
    const [a, b, c] = await Promise.all([1, 2, 3].map(() => client.workspaces.create(org, { name: uniqueName("reader") })));
    await client.remoteStateConsumers.replace(subject.id, [a.id, b.id]);
    expect((await client.remoteStateConsumers.listIds(subject.id)).sort()).toEqual([a.id, b.id].sort());
    await client.remoteStateConsumers.add(subject.id, [b.id, c.id]);
    expect((await client.remoteStateConsumers.listIds(subject.id)).sort()).toEqual([a.id, b.id, c.id].sort());
    await client.remoteStateConsumers.remove(subject.id, [a.id, a.id]);
    expect((await client.remoteStateConsumers.listIds(subject.id)).sort()).toEqual([b.id, c.id].sort());
    await client.remoteStateConsumers.replace(subject.id, []);
    expect(await client.remoteStateConsumers.listIds(subject.id)).toEqual([]);
  });

  it("pages through 120 consumers with two requests", async () => {
    const subject = await client.workspaces.create(org, { name: uniqueName("popular") });
    const readers = await Promise.all(Array.from({ length: 120 }, () => client.workspaces.create(org, { name: uniqueName("r") })));
    await client.remoteStateConsumers.add(subject.id, readers.map((r) => r.id));
    const route = "GET /api/v2/workspaces/:workspace_id/relationships/remote-state-consumers";
    const before = server.stats().byRoute[route] ?? 0;
    const listed = await client.remoteStateConsumers.list(subject.id).all();
    expect(listed).toHaveLength(120);
    expect(new Set(listed.map((w) => w.id))).toEqual(new Set(readers.map((r) => r.id)));
    expect((server.stats().byRoute[route] ?? 0) - before).toBe(2);
  });

  it("ValidationError when a workspace is added as its own consumer", async () => {
    const subject = await client.workspaces.create(org, { name: uniqueName("self") });
    const err = await failure(client.remoteStateConsumers.add(subject.id, [subject.id]));
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).problems.length).toBeGreaterThan(0);
  });
});

describe("SSH keys", () => {
  it("reads and lists keys, assigns one to a workspace and unassigns it", async () => {
    const key = await serverRequest(server, "POST", `/organizations/${org}/ssh-keys`, {
      data: { type: "ssh-keys", attributes: { name: uniqueName("deploy"), value: "-----BEGIN RSA PRIVATE KEY-----\nabc\n-----END RSA PRIVATE KEY-----" } },
    });
    const id: string = key.data.id;
    const read = await client.sshKeys.read(id);
    expect(read.id).toBe(id);
    expect(read.name).toBe(key.data.attributes.name);
    expect(JSON.stringify(read)).not.toContain("PRIVATE KEY");
    expect((await client.sshKeys.list(org).all()).map((k) => k.id)).toContain(id);

    const ws = await client.workspaces.create(org, { name: uniqueName("ssh") });
    const assigned = await client.workspaces.assignSSHKey(ws.id, id);
    expect(assigned.sshKeyId).toBe(id);
    expect((await client.workspaces.read(ws.id)).sshKeyId).toBe(id);
    const unassigned = await client.workspaces.unassignSSHKey(ws.id);
    expect(unassigned.sshKeyId).toBeNull();
  });

  it("ValidationError naming /data/attributes/id for an unknown key", async () => {
    const ws = await client.workspaces.create(org, { name: uniqueName("ssh-bad") });
    const err = await failure(client.workspaces.assignSSHKey(ws.id, "sshkey-nope"));
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).problems.map((p) => p.pointer)).toContain("/data/attributes/id");
  });
});

describe("organizations and projects", () => {
  it("reads the organization", async () => {
    const o = await client.organizations.read(org);
    expect(o.name).toBe(org);
    expect(o.attributes.name).toBe(org);
    expect(await failure(client.organizations.read("no-such-org"))).toBeInstanceOf(NotFoundError);
  });

  it("reads a project, lists projects and filters by name", async () => {
    const name = uniqueName("proj");
    const created = await serverRequest(server, "POST", `/organizations/${org}/projects`, { data: { type: "projects", attributes: { name } } });
    const p = await client.projects.read(created.data.id);
    expect(p.name).toBe(name);
    expect(p.organization).toBe(org);
    const all = await client.projects.list(org).all();
    expect(all.map((x) => x.id)).toContain(p.id);
    expect((await client.projects.list(org, { name }).all()).map((x) => x.id)).toEqual([p.id]);

    const ws = await client.workspaces.create(org, { name: uniqueName("in-proj"), projectId: p.id });
    expect(ws.projectId).toBe(p.id);
  });

  it("lists effective tag bindings inherited from the project", async () => {
    const created = await serverRequest(server, "POST", `/organizations/${org}/projects`, {
      data: {
        type: "projects",
        attributes: { name: uniqueName("tagged") },
        relationships: { "tag-bindings": { data: [{ type: "tag-bindings", attributes: { key: "cost-center", value: "7" } }] } },
      },
    });
    const ws = await client.workspaces.create(org, { name: uniqueName("inherits"), projectId: created.data.id, tagBindings: [{ key: "env", value: "dev" }] });
    expect(await client.tagBindings.list(ws.id)).toEqual([expect.objectContaining({ key: "env", value: "dev" })]);
    const effective = await client.tagBindings.listEffective(ws.id);
    expect(effective).toEqual(expect.arrayContaining([{ key: "env", value: "dev" }, { key: "cost-center", value: "7" }]));

    const before = server.stats().total;
    const together = await client.tagBindings.readWithWorkspace(ws.id);
    expect(server.stats().total - before).toBe(1);
    expect(together.requests).toBe(1);
    expect(together.workspace.id).toBe(ws.id);
    expect(together.tagBindings).toEqual([{ key: "env", value: "dev" }]);
    expect(together.effectiveTagBindings).toEqual(
      expect.arrayContaining([
        { key: "env", value: "dev", inheritedFrom: null },
        { key: "cost-center", value: "7", inheritedFrom: created.data.id },
      ]),
    );
  });
});

describe("data retention policy (self-managed)", () => {
  it("sets, reads and removes a workspace's policy", async () => {
    const ws = await client.workspaces.create(org, { name: uniqueName("retain") });
    const set = await client.dataRetentionPolicy.set(ws.id, { deleteOlderThanNDays: 30 });
    expect(set.deleteOlderThanNDays).toBe(30);
    expect((await client.dataRetentionPolicy.read(ws.id))?.deleteOlderThanNDays).toBe(30);
    const never = await client.dataRetentionPolicy.set(ws.id, { dontDelete: true });
    expect(never.type).toBe("data-retention-policy-dont-deletes");
    expect(never.deleteOlderThanNDays).toBeNull();
    await client.dataRetentionPolicy.delete(ws.id);
    const after = await client.dataRetentionPolicy.read(ws.id);
    expect(after === null || after.id !== set.id).toBe(true);
  });

  it("is absent from the hosted offering (NotFoundError)", async () => {
    const hosted = await startTestServer();
    try {
      const c = clientFor(hosted, { rateLimit: false });
      const ws = await c.workspaces.create(hosted.organization, { name: uniqueName("hosted") });
      expect(await failure(c.dataRetentionPolicy.read(ws.id))).toBeInstanceOf(NotFoundError);
    } finally {
      await hosted.close();
    }
  });
});

describe("ping and identity", () => {
  it("reports the announced limit and the API version", async () => {
    const limited = await startTestServer({ rateLimit: 25 });
    try {
      const result = await clientFor(limited).ping();
      expect(result.rateLimit).toBe(25);
      expect(result.apiVersion).toMatch(/^\d+\.\d+/);
    } finally {
      await limited.close();
    }
    expect((await client.ping()).rateLimit).toBeNull();
  });

  it("names the package and its version in the User-Agent", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "..", "package.json"), "utf8"));
    expect(USER_AGENT.startsWith(`${pkg.name}/${pkg.version} `)).toBe(true);
  });
});
