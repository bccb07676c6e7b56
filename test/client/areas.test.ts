import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { NotFoundError, USER_AGENT, ValidationError } from "../../src/client";
import { clientFor, failure, serverRequest, startTestServer, uniqueName, useServer } from "./helpers";

const t = useServer({ selfManaged: true });

describe("remote state consumers", () => {
  it("replaces, adds and removes consumers, ignoring ones already in place or absent", async () => {
    const subject = await t.client.workspaces.create(t.org, { name: uniqueName("subject") });
    const [a, b, c] = await Promise.all(
      [1, 2, 3].map(() => t.client.workspaces.create(t.org, { name: uniqueName("reader") })),
    );
    await t.client.remoteStateConsumers.replace(subject.id, [a.id, b.id]);
    expect((await t.client.remoteStateConsumers.listIds(subject.id)).sort()).toEqual([a.id, b.id].sort());
    await t.client.remoteStateConsumers.add(subject.id, [b.id, c.id]);
    expect((await t.client.remoteStateConsumers.listIds(subject.id)).sort()).toEqual([a.id, b.id, c.id].sort());
    await t.client.remoteStateConsumers.remove(subject.id, [a.id, a.id]);
    expect((await t.client.remoteStateConsumers.listIds(subject.id)).sort()).toEqual([b.id, c.id].sort());
    await t.client.remoteStateConsumers.replace(subject.id, []);
    expect(await t.client.remoteStateConsumers.listIds(subject.id)).toEqual([]);
  });

  it("pages through 120 consumers with two requests", async () => {
    const subject = await t.client.workspaces.create(t.org, { name: uniqueName("popular") });
    const readers = await Promise.all(
      Array.from({ length: 120 }, () => t.client.workspaces.create(t.org, { name: uniqueName("r") })),
    );
    await t.client.remoteStateConsumers.add(
      subject.id,
      readers.map((r) => r.id),
    );
    const route = "GET /api/v2/workspaces/:workspace_id/relationships/remote-state-consumers";
    const before = t.server.stats().byRoute[route] ?? 0;
    const listed = await t.client.remoteStateConsumers.list(subject.id).all();
    expect(listed).toHaveLength(120);
    expect(new Set(listed.map((w) => w.id))).toEqual(new Set(readers.map((r) => r.id)));
    expect((t.server.stats().byRoute[route] ?? 0) - before).toBe(2);
  });

  it("ValidationError when a workspace is added as its own consumer", async () => {
    const subject = await t.client.workspaces.create(t.org, { name: uniqueName("self") });
    const err = await failure(t.client.remoteStateConsumers.add(subject.id, [subject.id]));
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).problems.length).toBeGreaterThan(0);
  });
});

describe("SSH keys", () => {
  it("reads and lists keys, assigns one to a workspace and unassigns it", async () => {
    const key = await serverRequest(t.server, "POST", `/organizations/${t.org}/ssh-keys`, {
      data: {
        type: "ssh-keys",
        attributes: {
          name: uniqueName("deploy"),
          value: "-----BEGIN RSA PRIVATE KEY-----\nabc\n-----END RSA PRIVATE KEY-----",
        },
      },
    });
    const id: string = key.data.id;
    const read = await t.client.sshKeys.read(id);
    expect(read.id).toBe(id);
    expect(read.name).toBe(key.data.attributes.name);
    expect(JSON.stringify(read)).not.toContain("PRIVATE KEY");
    expect((await t.client.sshKeys.list(t.org).all()).map((k) => k.id)).toContain(id);

    const ws = await t.client.workspaces.create(t.org, { name: uniqueName("ssh") });
    const assigned = await t.client.workspaces.assignSSHKey(ws.id, id);
    expect(assigned.sshKeyId).toBe(id);
    expect((await t.client.workspaces.read(ws.id)).sshKeyId).toBe(id);
    const unassigned = await t.client.workspaces.unassignSSHKey(ws.id);
    expect(unassigned.sshKeyId).toBeNull();
  });

  it("ValidationError naming /data/attributes/id for an unknown key", async () => {
    const ws = await t.client.workspaces.create(t.org, { name: uniqueName("ssh-bad") });
    const err = await failure(t.client.workspaces.assignSSHKey(ws.id, "sshkey-nope"));
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).problems.map((p) => p.pointer)).toContain("/data/attributes/id");
  });
});

describe("organizations and projects", () => {
  it("reads the organization", async () => {
    const o = await t.client.organizations.read(t.org);
    expect(o.name).toBe(t.org);
    expect(o.attributes.name).toBe(t.org);
    expect(await failure(t.client.organizations.read("no-such-t.org"))).toBeInstanceOf(NotFoundError);
  });

  it("reads a project, lists projects and filters by name", async () => {
    const name = uniqueName("proj");
    const created = await serverRequest(t.server, "POST", `/organizations/${t.org}/projects`, {
      data: { type: "projects", attributes: { name } },
    });
    const p = await t.client.projects.read(created.data.id);
    expect(p.name).toBe(name);
    expect(p.organization).toBe(t.org);
    const all = await t.client.projects.list(t.org).all();
    expect(all.map((x) => x.id)).toContain(p.id);
    expect((await t.client.projects.list(t.org, { name }).all()).map((x) => x.id)).toEqual([p.id]);

    const ws = await t.client.workspaces.create(t.org, { name: uniqueName("in-proj"), projectId: p.id });
    expect(ws.projectId).toBe(p.id);
  });

  it("lists effective tag bindings inherited from the project", async () => {
    const created = await serverRequest(t.server, "POST", `/organizations/${t.org}/projects`, {
      data: {
        type: "projects",
        attributes: { name: uniqueName("tagged") },
        relationships: {
          "tag-bindings": { data: [{ type: "tag-bindings", attributes: { key: "cost-center", value: "7" } }] },
        },
      },
    });
    const ws = await t.client.workspaces.create(t.org, {
      name: uniqueName("inherits"),
      projectId: created.data.id,
      tagBindings: [{ key: "env", value: "dev" }],
    });
    expect(await t.client.tagBindings.list(ws.id)).toEqual([expect.objectContaining({ key: "env", value: "dev" })]);
    const effective = await t.client.tagBindings.listEffective(ws.id);
    expect(effective).toEqual(
      expect.arrayContaining([
        { key: "env", value: "dev" },
        { key: "cost-center", value: "7" },
      ]),
    );

    const before = t.server.stats().total;
    const together = await t.client.tagBindings.readWithWorkspace(ws.id);
    expect(t.server.stats().total - before).toBe(1);
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
    const ws = await t.client.workspaces.create(t.org, { name: uniqueName("retain") });
    const set = await t.client.dataRetentionPolicy.set(ws.id, { deleteOlderThanNDays: 30 });
    expect(set.deleteOlderThanNDays).toBe(30);
    expect((await t.client.dataRetentionPolicy.read(ws.id))?.deleteOlderThanNDays).toBe(30);
    const never = await t.client.dataRetentionPolicy.set(ws.id, { dontDelete: true });
    expect(never.type).toBe("data-retention-policy-dont-deletes");
    expect(never.deleteOlderThanNDays).toBeNull();
    await t.client.dataRetentionPolicy.delete(ws.id);
    const after = await t.client.dataRetentionPolicy.read(ws.id);
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
    expect((await t.client.ping()).rateLimit).toBeNull();
  });

  it("names the package and its version in the User-Agent", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "..", "package.json"), "utf8"));
    expect(USER_AGENT.startsWith(`${pkg.name}/${pkg.version} `)).toBe(true);
  });
});
