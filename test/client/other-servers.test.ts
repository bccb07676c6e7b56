/**
 * The client against a server it did not write, answering as OTF does: the service's
 * spellings on the wire, liberal reading of what comes back, no lost creates, and one
 * typed error for each feature such a server lacks.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  FeatureUnavailableError,
  NotFoundError,
  UnexpectedResponseError,
  UnreadableCreateError,
  type WorkspacesClient,
} from "../../src/client";
import { readOrganization } from "../../src/generate";
import { fakeClient, reply, startFakeService } from "./fake-service";
import { OTF_LATEST, type OtfLike, startOtfLike } from "./otf-like";

let otf: OtfLike;
let client: WorkspacesClient;
beforeAll(async () => {
  otf = await startOtfLike();
  client = fakeClient(otf.service, { rateLimit: false });
});
afterAll(async () => otf.close());
afterEach(() => {
  otf.bodies.length = 0;
  otf.nextCreateAnswer = undefined;
});

async function failure(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (err) {
    return err as Error;
  }
  throw new Error("expected a failure");
}

let n = 0;
const fresh = (prefix: string) => `${prefix}-${++n}`;

describe("the service's spellings on the wire", () => {
  it("sends terraform-version and github-app-installation-id, and a server that reads only those stores them", async () => {
    const ws = await client.workspaces.create("acme", { name: fresh("wire"), engineVersion: "1.6.0" });
    expect(ws.engineVersion).toBe("1.6.0");
    expect(otf.workspaces.get(ws.id)!["terraform-version"]).toBe("1.6.0");
    await client.workspaces.update(ws.id, {
      engineVersion: "1.7.0",
      vcsRepo: { identifier: "acme/infra", vcsAppInstallationId: "ghain-1" },
    });
    const sent = otf.bodies.map((b) => b.body as { data: { attributes: Record<string, unknown> } });
    expect(sent.map((b) => b.data.attributes["terraform-version"])).toEqual(["1.6.0", "1.7.0"]);
    expect(sent.every((b) => !("engine-version" in b.data.attributes))).toBe(true);
    expect(sent[1].data.attributes["vcs-repo"]).toEqual({
      identifier: "acme/infra",
      "github-app-installation-id": "ghain-1",
    });
    expect(otf.workspaces.get(ws.id)!["terraform-version"]).toBe("1.7.0");
  });

  it("without a version, reads the one the server chose", async () => {
    const ws = await client.workspaces.create("acme", { name: fresh("latest") });
    expect(ws.engineVersion).toBe(OTF_LATEST);
  });

  it("sends no-code variables of the engine's own kind with the category terraform", async () => {
    const seen: unknown[] = [];
    const svc = await startFakeService((req, res, body) => {
      if (req.url === "/api/v2/ping") return reply(res, 204, undefined);
      seen.push(JSON.parse(body));
      reply(res, 201, { data: { id: "ws-nc1", type: "workspaces", attributes: { name: "nc" } } });
    });
    try {
      await fakeClient(svc, { rateLimit: false }).noCode.createWorkspace("nocode-1", {
        name: "nc",
        variables: [
          { key: "region", value: "eu", category: "engine" },
          { key: "TOKEN", value: "x", category: "env" },
        ],
      });
      const vars = (seen[0] as { data: { relationships: { vars: { data: { attributes: { category: string } }[] } } } })
        .data.relationships.vars.data;
      expect(vars.map((v) => v.attributes.category)).toEqual(["terraform", "env"]);
    } finally {
      await svc.close();
    }
  });
});

describe("liberal reading", () => {
  it("reads null lists, a null relationship, no project relationship and unknown attributes as their absent values", async () => {
    const ws = await client.workspaces.create("acme", { name: fresh("nulls") });
    expect(ws.tagNames).toEqual([]);
    expect(ws.triggerPatterns).toEqual([]);
    expect(ws.triggerPrefixes).toEqual([]);
    expect(ws.projectId).toBeNull();
    expect(ws.sshKeyId).toBeNull();
    expect(ws.vcsRepo).toBeNull();
    expect(ws.settingOverwrites).toEqual({});
    expect(ws.attributes["migration-environment"]).toBe("");
    expect("project" in ws.relationships).toBe(false);
    const listed = await client.workspaces.list("acme").all();
    expect(listed.find((w) => w.id === ws.id)).toMatchObject({ tagNames: [], triggerPatterns: [], projectId: null });
  });

  it("reads a document whose attributes are null or missing, with every line at its absent value", async () => {
    for (const attributes of [
      null,
      undefined,
      { name: null, locked: null, "created-at": null, "tag-names": null, permissions: { "can-update": null } },
    ]) {
      const svc = await startFakeService((req, res) =>
        req.url === "/api/v2/ping"
          ? reply(res, 204, undefined)
          : reply(res, 200, { data: { id: "ws-1", type: "workspaces", attributes, relationships: null, links: null } }),
      );
      try {
        const ws = await fakeClient(svc, { rateLimit: false }).workspaces.read("ws-1");
        expect(ws).toMatchObject({
          id: "ws-1",
          name: "",
          locked: false,
          createdAt: "",
          tagNames: [],
          executionMode: "remote",
          permissions: {},
          organization: null,
        });
      } finally {
        await svc.close();
      }
    }
  });

  it("still refuses a document without data.id", async () => {
    const svc = await startFakeService((req, res) =>
      req.url === "/api/v2/ping"
        ? reply(res, 204, undefined)
        : reply(res, 200, { data: { type: "workspaces", attributes: { name: "x" } } }),
    );
    try {
      const err = await failure(fakeClient(svc, { rateLimit: false }).workspaces.read("ws-1"));
      expect(err).toBeInstanceOf(UnexpectedResponseError);
      expect(err.message).toMatch(/\/data\/id/);
    } finally {
      await svc.close();
    }
  });
});

describe("a create the server acknowledged is never lost", () => {
  it("reads the workspace back by the answer's data.id when the rest of the answer is unreadable", async () => {
    otf.nextCreateAnswer = {
      status: 201,
      body: JSON.stringify({ data: { id: "WS_ID", type: "workspaces", attributes: "not an object" } }),
    };
    const name = fresh("unreadable");
    const ws = await client.workspaces.create("acme", { name, description: "kept" });
    expect(ws.name).toBe(name);
    expect(ws.description).toBe("kept");
    expect(otf.service.requests.slice(-2)).toEqual([
      "POST /api/v2/organizations/acme/workspaces",
      `GET /api/v2/workspaces/${ws.id}`,
    ]);
  });

  it("reads it back by name when the answer has no id at all", async () => {
    otf.nextCreateAnswer = { status: 201, body: "<html>created</html>" };
    const name = fresh("noid");
    const ws = await client.workspaces.create("acme", { name });
    expect(ws.id).toMatch(/^ws-otf/);
    expect(otf.service.requests.slice(-1)).toEqual([`GET /api/v2/organizations/acme/workspaces/${name}`]);
  });

  it("names the id it was given when even the read-back fails", async () => {
    otf.nextCreateAnswer = {
      status: 201,
      body: JSON.stringify({ data: { id: "ws-elsewhere", type: "workspaces", attributes: 1 } }),
    };
    const err = await failure(client.workspaces.create("acme", { name: fresh("lost") }));
    expect(err).toBeInstanceOf(UnreadableCreateError);
    expect((err as UnreadableCreateError).createdId).toBe("ws-elsewhere");
    expect(err.message).toMatch(
      /the service made the record \(ws-elsewhere\) but reading it back failed too: GET \/workspaces\/ws-elsewhere: 404/,
    );
  });
});

describe("features the server lacks", () => {
  it("safe delete: FeatureUnavailableError naming the route and the answer; the workspace stays", async () => {
    const ws = await client.workspaces.create("acme", { name: fresh("safe") });
    const err = await failure(client.workspaces.safeDelete(ws.id));
    expect(err).toBeInstanceOf(FeatureUnavailableError);
    const e = err as FeatureUnavailableError;
    expect(e.feature).toBe("safe delete");
    expect(e.status).toBe(404);
    expect(e.message).toBe(
      `the server at ${otf.service.url}/api/v2 does not offer safe delete (POST /workspaces/${ws.id}/actions/safe-delete answered 404)`,
    );
    expect(otf.workspaces.has(ws.id)).toBe(true);
    expect(otf.service.requests.filter((r) => r.startsWith("DELETE"))).toEqual([]);
  });

  it("safe delete of a workspace that does not read either: the 404 stays a NotFoundError", async () => {
    const err = await failure(client.workspaces.safeDelete("ws-missing"));
    expect(err).toBeInstanceOf(NotFoundError);
    expect(err).not.toBeInstanceOf(FeatureUnavailableError);
  });

  it("key-value tags, remote state consumers, no-code provisioning: one error each, naming the feature", async () => {
    const ws = await client.workspaces.create("acme", { name: fresh("features") });
    const calls: [string, () => Promise<unknown>, string][] = [
      ["key-value tags", () => client.tagBindings.list(ws.id), `GET /workspaces/${ws.id}/tag-bindings`],
      [
        "key-value tags",
        () => client.tagBindings.listEffective(ws.id),
        `GET /workspaces/${ws.id}/effective-tag-bindings`,
      ],
      [
        "remote state consumers",
        () => client.remoteStateConsumers.listIds(ws.id),
        `GET /workspaces/${ws.id}/relationships/remote-state-consumers`,
      ],
      [
        "remote state consumers",
        () => client.remoteStateConsumers.add(ws.id, ["ws-other"]),
        `POST /workspaces/${ws.id}/relationships/remote-state-consumers`,
      ],
      [
        "no-code provisioning",
        () => client.noCode.enable("acme", { registryModuleId: "mod-1" }),
        "POST /organizations/acme/no-code-modules",
      ],
    ];
    for (const [feature, call, route] of calls) {
      const err = await failure(call());
      expect(err, route).toBeInstanceOf(FeatureUnavailableError);
      expect((err as FeatureUnavailableError).feature).toBe(feature);
      expect(err.message).toContain(`does not offer ${feature} (${route}`);
    }
  });

  it("a 405 or 501 says it by itself; a record that is gone keeps its 404", async () => {
    for (const status of [405, 501]) {
      const svc = await startFakeService((req, res) =>
        req.url === "/api/v2/ping"
          ? reply(res, 204, undefined)
          : reply(res, status, { errors: [{ status: String(status), title: "not allowed" }] }),
      );
      try {
        const err = await failure(fakeClient(svc, { rateLimit: false }).workspaces.safeDelete("ws-1"));
        expect(err).toBeInstanceOf(FeatureUnavailableError);
        expect(svc.requests).toEqual(["POST /api/v2/workspaces/ws-1/actions/safe-delete"]);
      } finally {
        await svc.close();
      }
    }
    const gone = await failure(client.tagBindings.list("ws-gone"));
    expect(gone).toBeInstanceOf(NotFoundError);
    expect(gone).not.toBeInstanceOf(FeatureUnavailableError);
  });

  it("projects of a variable set: a 404 names projects when sets read without them, else stays a NotFoundError", async () => {
    for (const withProjects of [false, true]) {
      const set = {
        id: "varset-1",
        type: "varsets",
        attributes: { name: "shared", global: false },
        relationships: {
          organization: { data: { id: "acme", type: "organizations" } },
          workspaces: { data: [] },
          ...(withProjects ? { projects: { data: [] } } : {}),
        },
      };
      const svc = await startFakeService((req, res) => {
        if (req.url === "/api/v2/ping") return reply(res, 204, undefined);
        if (req.method === "GET" && req.url === "/api/v2/varsets/varset-1") return reply(res, 200, { data: set });
        res.writeHead(404, { "content-type": "text/plain" });
        res.end("404 page not found\n");
      });
      try {
        const sets = fakeClient(svc, { rateLimit: false }).variableSets;
        for (const call of [
          () => sets.applyToProjects("varset-1", ["prj-1"]),
          () => sets.removeFromProjects("varset-1", ["prj-1"]),
        ]) {
          const err = await failure(call());
          if (withProjects) expect(err).not.toBeInstanceOf(FeatureUnavailableError);
          expect(err).toBeInstanceOf(withProjects ? NotFoundError : FeatureUnavailableError);
          if (!withProjects) expect((err as FeatureUnavailableError).feature).toBe("projects");
        }
      } finally {
        await svc.close();
      }
    }
  });
});

describe("the generator against a server without key-value tags, consumers or a registry", () => {
  it("writes the program of what the server has, carrying over no tags, consumers or modules", async () => {
    const ws = await client.workspaces.create("acme", {
      name: fresh("gen"),
      description: "generated",
      tagNames: ["web"],
    });
    const snapshot = await readOrganization(client, { organization: "acme" });
    const record = snapshot.workspaces.find((r) => r.workspace.id === ws.id);
    expect(record).toMatchObject({ tags: {}, consumerIds: [] });
    expect(record?.workspace.tagNames).toEqual(["web"]);
    expect(snapshot.modules).toEqual([]);
  });
});
