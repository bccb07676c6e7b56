import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkspace, expectStatus, MEDIA, start, type TestServer } from "./helpers";

let t: TestServer;
let wsId: string;
let snapshot: string;

beforeAll(async () => {
  t = await start();
  wsId = (await createWorkspace(t.api, t.org, "guarded", { description: "original" })).id;
  snapshot = JSON.stringify((await t.api.get(`/organizations/${t.org}/workspaces`)).body);
});
afterAll(() => t.server.close());

/** Nothing a bad request does may change the data. */
async function unchanged() {
  expect(JSON.stringify((await t.api.get(`/organizations/${t.org}/workspaces`)).body)).toBe(snapshot);
}

/** Raw request, so the body can be any bytes and the media type anything. */
function raw(
  method: string,
  path: string,
  body: string | Buffer,
  contentType: string | null,
): Promise<{ status: number; body: any }> {
  const url = new URL(t.server.url + path);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = {
      authorization: `Bearer ${t.server.token}`,
      "content-length": Buffer.byteLength(body),
    };
    if (contentType) headers["content-type"] = contentType;
    const req = httpRequest(
      { method, hostname: url.hostname, port: url.port, path: url.pathname + url.search, headers },
      (res) => {
        let text = "";
        res.on("data", (c) => (text += c));
        res.on("end", () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : undefined }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

describe("malformed input gets a 4xx and changes nothing", () => {
  it("non-JSON body is 400", async () => {
    for (const [m, p] of [
      ["POST", `/organizations/${t.org}/workspaces`],
      ["PATCH", `/workspaces/${wsId}`],
      ["POST", `/workspaces/${wsId}/actions/lock`],
    ] as const) {
      const r = await raw(m, p, "{not json", MEDIA);
      expect(r.status, `${m} ${p}`).toBe(400);
      expect(r.body.errors[0].status).toBe("400");
    }
    await unchanged();
  });

  it("a wrong media type is 415", async () => {
    const r = await raw(
      "POST",
      `/organizations/${t.org}/workspaces`,
      JSON.stringify({ data: { type: "workspaces", attributes: { name: "x415" } } }),
      "text/plain",
    );
    expect(r.status).toBe(415);
    expect(r.body.errors[0].status).toBe("415");
    const form = await raw("PATCH", `/workspaces/${wsId}`, "a=b", "application/x-www-form-urlencoded");
    expect(form.status).toBe(415);
    await unchanged();
  });

  it("wrong types, missing keys and wrong shapes are 422 with pointers", async () => {
    const cases: unknown[] = [
      {},
      { data: null },
      { data: [] },
      { data: "workspaces" },
      { data: { type: "workspaces", attributes: { name: 42 } } },
      { data: { type: "workspaces", attributes: { name: "ok-name", "trigger-patterns": "not-a-list" } } },
      { data: { type: "workspaces", attributes: { name: "ok-name", "execution-mode": "cloud" } } },
      { data: { type: "workspaces", attributes: { name: "ok-name", "vcs-repo": "acme/app" } } },
      { data: { type: "workspaces", attributes: { name: "ok-name", "auto-destroy-at": "tomorrow" } } },
      {
        data: {
          type: "workspaces",
          attributes: { name: "ok-name" },
          relationships: { "tag-bindings": { data: [{ type: "tag-bindings", attributes: { key: "" } }] } },
        },
      },
      [1, 2, 3],
      JSON.stringify("a string"),
    ];
    for (const body of cases) {
      const r = await t.api.post(`/organizations/${t.org}/workspaces`, body);
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.body.errors.length).toBeGreaterThan(0);
      for (const e of r.body.errors) {
        expect(e.status).toBe("422");
        expect(typeof e.source.pointer).toBe("string");
      }
    }
    const patch = await t.api.patch(`/workspaces/${wsId}`, {
      data: { type: "workspaces", attributes: { description: 5, "auto-apply": "no" } },
    });
    expect(patch.status).toBe(422);
    expect(patch.body.errors).toHaveLength(2);
    const lock = await t.api.post(`/workspaces/${wsId}/actions/lock`, { reason: 5 });
    expect(lock.status).toBe(422);
    await unchanged();
  });

  it("unknown ids are 404 on every workspace endpoint", async () => {
    const id = "ws-unknown000000";
    const calls: [string, string, unknown?][] = [
      ["GET", `/workspaces/${id}`],
      ["PATCH", `/workspaces/${id}`, { data: { type: "workspaces" } }],
      ["DELETE", `/workspaces/${id}`],
      ["POST", `/workspaces/${id}/actions/safe-delete`],
      ["POST", `/workspaces/${id}/actions/lock`],
      ["POST", `/workspaces/${id}/actions/unlock`],
      ["POST", `/workspaces/${id}/actions/force-unlock`],
      ["PATCH", `/workspaces/${id}/relationships/ssh-key`, { data: { type: "workspaces", attributes: { id: null } } }],
      ["GET", `/workspaces/${id}/relationships/remote-state-consumers`],
      ["PATCH", `/workspaces/${id}/relationships/remote-state-consumers`, { data: [] }],
      ["POST", `/workspaces/${id}/relationships/remote-state-consumers`, { data: [] }],
      ["DELETE", `/workspaces/${id}/relationships/remote-state-consumers`, { data: [] }],
      ["GET", `/workspaces/${id}/relationships/tags`],
      ["POST", `/workspaces/${id}/relationships/tags`, { data: [] }],
      ["DELETE", `/workspaces/${id}/relationships/tags`, { data: [] }],
      ["GET", `/workspaces/${id}/tag-bindings`],
      ["GET", `/workspaces/${id}/effective-tag-bindings`],
      ["GET", `/organizations/${t.org}/workspaces/nope`],
      ["PATCH", `/organizations/${t.org}/workspaces/nope`, { data: { type: "workspaces" } }],
      ["DELETE", `/organizations/${t.org}/workspaces/nope`],
      ["POST", `/organizations/${t.org}/workspaces/nope/actions/safe-delete`],
      ["GET", `/organizations/nope/workspaces`],
      ["POST", `/organizations/nope/workspaces`, { data: { type: "workspaces", attributes: { name: "x" } } }],
    ];
    for (const [method, path, body] of calls) {
      const r = await t.api.request(method, path, body);
      expect(r.status, `${method} ${path}`).toBe(404);
      expect(r.body.errors[0].status).toBe("404");
    }
    await unchanged();
  });

  it("a 10 MB body is refused with 413 and the server keeps serving", async () => {
    const big = JSON.stringify({
      data: { type: "workspaces", attributes: { name: "huge", description: "x".repeat(10 * 1024 * 1024) } },
    });
    // The server reads and discards the body before it answers, so the 413 arrives.
    expect((await raw("POST", `/organizations/${t.org}/workspaces`, big, MEDIA)).status).toBe(413);
    const justOver = JSON.stringify({
      data: { type: "workspaces", attributes: { name: "huge", description: "x".repeat(5 * 1024 * 1024) } },
    });
    const r = await raw("POST", `/organizations/${t.org}/workspaces`, justOver, MEDIA);
    expect(r.status).toBe(413);
    expect(r.body.errors[0].status).toBe("413");
    await unchanged();
  });

  it("accepts media type parameters and plain JSON, and odd query strings never give 500", async () => {
    const withCharset = await raw(
      "PATCH",
      `/workspaces/${wsId}`,
      JSON.stringify({ data: { type: "workspaces", attributes: {} } }),
      `${MEDIA}; charset=utf-8`,
    );
    expect(withCharset.status).toBe(200);
    const plain = await raw(
      "PATCH",
      `/workspaces/${wsId}`,
      JSON.stringify({ data: { type: "workspaces", attributes: {} } }),
      "application/json",
    );
    expect(plain.status).toBe(200);
    for (const q of [
      "page[number]=99999999999999999999",
      "page[size]=-1",
      "page[number]=1&page[number]=2",
      "search[name]=a&search[name]=b",
      "sort=name&sort=-name",
      "filter[tagged][0][key]=a&filter[tagged][0][key]=b",
      "include=project&include=organization",
      "search[name]=%25%5F%5C",
      "filter[tagged][99999999999999999999][key]=x",
    ]) {
      const r = await t.api.get(`/organizations/${t.org}/workspaces?${q}`);
      expect(r.status, q).toBeLessThan(500);
    }
    await unchanged();
  });

  it("unknown routes and methods are JSON:API 404s", async () => {
    for (const [m, p] of [
      ["GET", "/nothing-here"],
      ["PUT", `/workspaces/${wsId}`],
      ["GET", "/"],
    ]) {
      const r = await t.api.request(m, p);
      expect(r.status, `${m} ${p}`).toBe(404);
      expect(r.body.errors[0].status).toBe("404");
    }
  });

  it("never answers 500 to random junk bodies", async () => {
    const junk: unknown[] = [
      null,
      0,
      true,
      { data: { type: "workspaces", attributes: null } },
      { data: { type: "workspaces", attributes: [] } },
      { data: { type: "workspaces", relationships: "x" } },
      { data: { type: "workspaces", relationships: { project: { data: 5 } } } },
      { data: { type: "workspaces", attributes: { "vcs-repo": { identifier: 1 } } } },
      { data: { type: "workspaces", attributes: { "setting-overwrites": "yes" } } },
    ];
    for (const body of junk) {
      for (const [m, p] of [
        ["POST", `/organizations/${t.org}/workspaces`],
        ["PATCH", `/workspaces/${wsId}`],
        ["POST", `/workspaces/${wsId}/relationships/tags`],
        ["POST", `/workspaces/${wsId}/relationships/remote-state-consumers`],
        ["PATCH", `/workspaces/${wsId}/relationships/ssh-key`],
      ]) {
        const r = await raw(m, p, JSON.stringify(body), MEDIA);
        expect(r.status, `${m} ${p} ${JSON.stringify(body)}`).toBeGreaterThanOrEqual(400);
        expect(r.status, `${m} ${p} ${JSON.stringify(body)}`).toBeLessThan(500);
      }
    }
    await unchanged();
  });
});

describe("stats", () => {
  it("counts requests by method and route", async () => {
    await expectStatus(t.api.get(`/workspaces/${wsId}`), 200);
    const s = t.server.stats();
    expect(s.byRoute["GET /api/v2/workspaces/:workspace_id"]).toBeGreaterThan(0);
    const timing = s.serverMs["GET /api/v2/workspaces/:workspace_id"];
    expect(timing.samples).toBe(s.byRoute["GET /api/v2/workspaces/:workspace_id"]);
    expect(timing.p95).toBeGreaterThanOrEqual(timing.p50);
    const viaHttp = await expectStatus(t.api.get(`/_stats`), 200);
    expect(viaHttp.body.total).toBeGreaterThan(0);
  });
});
