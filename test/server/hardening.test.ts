/**
 * Hostile requests of the kinds an outside probe found: each block is one class (any
 * `Host` header, any body depth, any number of filter values, oversized bodies, guessed
 * sensitive values, invalid bodies from callers who may not write, wrong tokens, and
 * repeated parameters or control characters), asserted over real HTTP.
 */
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BODY_LIMIT } from "../../src/server/app";
import { MAX_JSON_DEPTH } from "../../src/server/http/json";
import { MAX_LIST_VALUES } from "../../src/server/http/jsonapi";
import { FAILED_AUTH_LIMIT } from "../../src/server/ratelimit";
import { createWorkspace, expectStatus, grant, makeTeam, MEDIA, start, type TestServer } from "./helpers";
import { createFromModule, enableModule, pollUpgrade, publishModule, upgradePath } from "./no-code-support";

interface RawReply {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json: any;
}

/** One request over node:http, with any headers (a `Host` of any text included) and any body. */
function raw(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string | number>,
  body?: string | Buffer,
): Promise<RawReply> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { method, hostname: url.hostname, port: url.port, path: url.pathname + path, headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let json: unknown;
          try {
            json = text ? JSON.parse(text) : undefined;
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

let t: TestServer;
let wsId: string;
let otherWsId: string;
let readToken: string;

beforeAll(async () => {
  t = await start({ runSpeed: Number.POSITIVE_INFINITY, publicUrl: "https://workspaces.example.com/" });
  const ws = await createWorkspace(t.api, t.org, "alpha");
  wsId = ws.id;
  otherWsId = (await createWorkspace(t.api, t.org, "beta")).id;
  await expectStatus(
    t.api.post(`/workspaces/${wsId}/relationships/tags`, {
      data: [
        { type: "tags", attributes: { name: "red" } },
        { type: "tags", attributes: { name: "blue" } },
      ],
    }),
    204,
  );
  await expectStatus(
    t.api.post(`/workspaces/${wsId}/relationships/remote-state-consumers`, {
      data: [{ type: "workspaces", id: otherWsId }],
    }),
    204,
  );
  const team = await makeTeam(t.api, t.org, "readers");
  await grant(t.api, team.id, wsId, "read");
  readToken = team.token;
});
afterAll(() => t.server.close());

const auth = () => ({ authorization: `Bearer ${t.server.token}` });

describe("links never come from the request's Host header", () => {
  const lists = () => [
    `/organizations/${t.org}/workspaces`,
    `/organizations/${t.org}/projects`,
    `/organizations/${t.org}/tags`,
    `/organizations/${t.org}/ssh-keys`,
    `/organizations/${t.org}/agent-pools`,
    `/organizations/${t.org}/registry-modules`,
    `/workspaces/${wsId}/relationships/tags`,
    `/workspaces/${wsId}/relationships/remote-state-consumers`,
  ];

  it("every paginated list answers 200 with links on the configured public address, whatever the Host", async () => {
    for (const host of ["a b", "evil.example", "", "[::1", "x:99999", "évil.example", "%00"]) {
      for (const path of lists()) {
        const r = await raw(t.server.url, "GET", `${path}?page[size]=1`, { ...auth(), host });
        expect(r.status, `${path} with Host ${JSON.stringify(host)}: ${r.text.slice(0, 200)}`).toBe(200);
        const links = Object.values(r.json.links as Record<string, string | null>).filter(
          (l): l is string => l !== null,
        );
        expect(links.length).toBeGreaterThanOrEqual(3);
        for (const link of links) {
          expect(link.startsWith(`https://workspaces.example.com/api/v2${path}?`), `${path}: ${link}`).toBe(true);
          if (host !== "") expect(link.includes(host), `${path}: ${link}`).toBe(false);
        }
        expect(r.json.meta.pagination["page-size"]).toBe(1);
      }
    }
  });

  it("a server without a configured address links to the address it listens on", async () => {
    const plain = await start();
    try {
      const r = await raw(plain.server.url, "GET", `/organizations/${plain.org}/workspaces`, {
        authorization: `Bearer ${plain.server.token}`,
        host: "evil.example",
      });
      expect(r.status).toBe(200);
      expect(r.json.links.self).toBe(
        `${plain.server.url}/organizations/${plain.org}/workspaces?page%5Bnumber%5D=1&page%5Bsize%5D=20`,
      );
    } finally {
      await plain.server.close();
    }
  });

  it("refuses a public address that is not an absolute http URL", async () => {
    await expect(start({ publicUrl: "workspaces.example.com" })).rejects.toThrow(/publicUrl/);
  });
});

describe("body depth is bounded at parse time", () => {
  const nested = (depth: number) => "[".repeat(depth) + "]".repeat(depth);

  it("10,000 nested arrays in no-code options and in workspace attributes are a 422 with a pointer", async () => {
    const options = `{"data":{"type":"no-code-modules","attributes":{"enabled":true},"relationships":{"variable-options":{"data":[{"type":"variable-options","attributes":{"variable-name":"x","variable-type":"string","options":${nested(10_000)}}}]}}}}`;
    const r1 = await raw(
      t.server.url,
      "POST",
      `/organizations/${t.org}/no-code-modules`,
      { ...auth(), "content-type": MEDIA },
      options,
    );
    expect(r1.status, r1.text.slice(0, 300)).toBe(422);
    expect(r1.json.errors[0].source.pointer).toBe(
      `/data/relationships/variable-options/data/0/attributes/options${"/0".repeat(MAX_JSON_DEPTH - 7)}`,
    );
    const attrs = `{"data":{"type":"workspaces","attributes":{"name":"deep","description":${nested(10_000)}}}}`;
    const r2 = await raw(t.server.url, "PATCH", `/workspaces/${wsId}`, { ...auth(), "content-type": MEDIA }, attrs);
    expect(r2.status).toBe(422);
    expect(r2.json.errors[0].source.pointer.startsWith("/data/attributes/description/0/0")).toBe(true);
    expect(r2.json.errors[0].detail).toContain(String(MAX_JSON_DEPTH));
  });

  it("a body nested past the bound that is not JSON at all is a 400, as any text that is not JSON", async () => {
    for (const text of [
      `{"data":${"[".repeat(100_000)}`,
      `{"data":${nested(100_000)},}`,
      `{"data":${"[".repeat(100)}1 2${"]".repeat(100)}}`,
    ]) {
      const r = await raw(t.server.url, "PATCH", `/workspaces/${wsId}`, { ...auth(), "content-type": MEDIA }, text);
      expect(r.status, r.text.slice(0, 200)).toBe(400);
      expect(r.json.errors[0].detail).toMatch(/not valid JSON/);
    }
  });

  it("the bound is exact: depth 64 reaches validation, depth 65 is refused at parse time (422 both); keys with / and ~ are escaped", async () => {
    const at = (key: string, depth: number) =>
      `{"data":{"type":"workspaces","attributes":{${JSON.stringify(key)}:${nested(depth - 3)}}}}`;
    const atLimit = await raw(
      t.server.url,
      "PATCH",
      `/workspaces/${wsId}`,
      { ...auth(), "content-type": MEDIA },
      at("description", MAX_JSON_DEPTH),
    );
    expect(atLimit.status).toBe(422);
    expect(atLimit.json.errors[0].source.pointer).toBe("/data/attributes/description");
    const over = await raw(
      t.server.url,
      "PATCH",
      `/workspaces/${wsId}`,
      { ...auth(), "content-type": MEDIA },
      at("a/b~c", MAX_JSON_DEPTH + 1),
    );
    expect(over.status).toBe(422);
    expect(over.json.errors[0].detail).toContain(String(MAX_JSON_DEPTH));
    expect(over.json.errors[0].source.pointer.startsWith("/data/attributes/a~1b~0c/0")).toBe(true);
    // Brackets inside strings are not nesting.
    const inString = `{"data":{"type":"workspaces","attributes":{"description":${JSON.stringify("[".repeat(10_000))}}}}`;
    expect(
      (await raw(t.server.url, "PATCH", `/workspaces/${wsId}`, { ...auth(), "content-type": MEDIA }, inString)).status,
    ).toBe(200);
  });
});

describe("filters take any number of values", () => {
  it("1,000 values of each list filter are a 400 that states the limit; the limit itself is served", async () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => `v${i}`).join(",");
    for (const param of ["search[tags]", "search[exclude-tags]", "filter[current-run][status]"]) {
      const over = await t.api.get(`/organizations/${t.org}/workspaces?${encodeURIComponent(param)}=${many(1000)}`);
      expect(over.status, `${param}: ${over.text.slice(0, 200)}`).toBe(400);
      expect(over.body.errors[0].detail).toContain(`at most ${MAX_LIST_VALUES}`);
      expect(over.body.errors[0].source.parameter).toBe(param);
      const at = await t.api.get(
        `/organizations/${t.org}/workspaces?${encodeURIComponent(param)}=${many(MAX_LIST_VALUES)}`,
      );
      expect(at.status, `${param}: ${at.text.slice(0, 200)}`).toBe(200);
    }
    const tagged = (n: number) => Array.from({ length: n }, (_, i) => `filter[tagged][${i}][key]=k${i}`).join("&");
    const over = await t.api.get(`/organizations/${t.org}/workspaces?${tagged(MAX_LIST_VALUES + 50)}`);
    expect(over.status).toBe(400);
    expect(over.body.errors[0].detail).toContain(`at most ${MAX_LIST_VALUES}`);
    expect((await t.api.get(`/organizations/${t.org}/workspaces?${tagged(MAX_LIST_VALUES)}`)).status).toBe(200);
  });

  it("all filters at their limit together still answer 200", async () => {
    const many = (p: string, n: number) => Array.from({ length: n }, (_, i) => `${p}${i}`).join(",");
    const q = [
      `search[tags]=${many("t", MAX_LIST_VALUES)}`,
      `search[exclude-tags]=${many("x", MAX_LIST_VALUES)}`,
      `filter[current-run][status]=${many("s", MAX_LIST_VALUES)}`,
      ...Array.from(
        { length: MAX_LIST_VALUES },
        (_, i) => `filter[tagged][${i}][key]=k${i}&filter[tagged][${i}][value]=v${i}`,
      ),
    ].join("&");
    const r = await t.api.get(`/organizations/${t.org}/workspaces?${q}`);
    expect(r.status, r.text.slice(0, 300)).toBe(200);
    expect(r.body.data).toEqual([]);
  });
});

describe("an oversized body gets its 413", () => {
  const big = Buffer.alloc(2 * BODY_LIMIT, 0x61);

  it("answers Expect: 100-continue with 413 before the body is sent", async () => {
    const url = new URL(t.server.url);
    const result = await new Promise<{ status: number; body: any; sentBody: boolean }>((resolve, reject) => {
      let sentBody = false;
      const req = http.request(
        {
          method: "POST",
          hostname: url.hostname,
          port: url.port,
          path: `${url.pathname}/organizations/${t.org}/workspaces`,
          headers: { ...auth(), "content-type": MEDIA, "content-length": big.length, expect: "100-continue" },
          agent: false,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () =>
            resolve({
              status: res.statusCode ?? 0,
              body: JSON.parse(Buffer.concat(chunks).toString("utf8")),
              sentBody,
            }),
          );
        },
      );
      req.on("continue", () => {
        sentBody = true;
        req.end(big);
      });
      req.on("error", reject);
      req.flushHeaders();
    });
    expect(result.sentBody).toBe(false);
    expect(result.status).toBe(413);
    expect(result.body.errors[0].status).toBe("413");
    // Within the limit the client is told to continue and the request is served; an unknown expectation is a JSON:API 417.
    const small = Buffer.from(JSON.stringify({ data: { type: "workspaces", attributes: { name: "expected" } } }));
    const served = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        {
          method: "POST",
          hostname: url.hostname,
          port: url.port,
          path: `${url.pathname}/organizations/${t.org}/workspaces`,
          headers: { ...auth(), "content-type": MEDIA, "content-length": small.length, expect: "100-continue" },
          agent: false,
        },
        (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode ?? 0));
        },
      );
      req.on("continue", () => req.end(small));
      req.on("error", reject);
      req.flushHeaders();
    });
    expect(served).toBe(201);
    const odd = await raw(t.server.url, "GET", `/workspaces/${wsId}`, { ...auth(), expect: "something-else" });
    expect(odd.status).toBe(417);
    expect(odd.json.errors[0].status).toBe("417");
  });

  /** A client that starts sending, pauses, then sends the rest: the server refuses while the body is still arriving. */
  function sendInTwoParts(path: string, body: Buffer): Promise<string> {
    const url = new URL(t.server.url);
    return new Promise((resolve) => {
      const req = http.request(
        {
          method: "POST",
          hostname: url.hostname,
          port: url.port,
          path: url.pathname + path,
          headers: { ...auth(), "content-type": MEDIA, "content-length": body.length },
          agent: false,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () =>
            resolve(`${res.statusCode} ${JSON.parse(Buffer.concat(chunks).toString("utf8")).errors[0].status}`),
          );
        },
      );
      req.on("error", (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
      req.write(body.subarray(0, 64 * 1024));
      setTimeout(() => req.end(body.subarray(64 * 1024)), 20);
    });
  }

  it("without Expect, every attempt with Node's http and with fetch sees the 413, not a reset", async () => {
    const outcomes: string[] = [];
    for (let i = 0; i < 10; i++)
      outcomes.push(
        await sendInTwoParts(`/organizations/${t.org}/workspaces`, i % 2 ? big : Buffer.concat([big, big, big])),
      );
    expect(outcomes).toEqual(Array(10).fill("413 413"));
    for (let i = 0; i < 3; i++) {
      const r = await raw(
        t.server.url,
        "POST",
        `/organizations/${t.org}/workspaces`,
        { ...auth(), "content-type": MEDIA, "content-length": big.length },
        big,
      );
      expect(r.status).toBe(413);
      expect(r.json.errors[0].detail).toContain(String(BODY_LIMIT));
      const f = await fetch(`${t.server.url}/workspaces/${wsId}`, {
        method: "PATCH",
        headers: { ...auth(), "content-type": MEDIA },
        body: big,
      });
      expect(f.status).toBe(413);
      expect(((await f.json()) as { errors: { status: string }[] }).errors[0].status).toBe("413");
    }
    // A chunked body (no declared length) that grows past the limit, and a big body refused for its token.
    const chunked = await raw(
      t.server.url,
      "POST",
      `/organizations/${t.org}/workspaces`,
      { ...auth(), "content-type": MEDIA, "transfer-encoding": "chunked" },
      big,
    );
    expect(chunked.status).toBe(413);
    const anonymous = await raw(
      t.server.url,
      "POST",
      `/organizations/${t.org}/workspaces`,
      { "content-type": MEDIA, "content-length": big.length },
      big,
    );
    expect(anonymous.status).toBe(401);
    // The server still serves.
    expect((await t.api.get(`/workspaces/${wsId}`)).status).toBe(200);
  });
});

describe("a sensitive no-code variable cannot be guessed", () => {
  it("an upgrade plans the same whether the guess is right or wrong; a non-sensitive unchanged variable still plans no changes", async () => {
    const moduleId = await publishModule(t.api, t.org, "guarded", ["1.0.0"]);
    const noCode = await enableModule(t.api, t.org, moduleId, { "version-pin": "1.0.0" });
    const ws = await createFromModule(t.api, noCode.id, "guarded-ws", [
      { key: "secret", value: "s3cret", sensitive: true },
      { key: "region", value: "eu" },
    ]);
    const plan = async (vars: object[]) => {
      const r = await expectStatus(
        t.api.post(upgradePath(noCode.id, ws.id), {
          data: { type: "workspaces", relationships: { vars: { data: vars } } },
        }),
        200,
      );
      const settled = await pollUpgrade(t.api, noCode.id, ws.id, r.body.data.id, [
        "planned",
        "planned_and_finished",
        "errored",
      ]);
      return settled.doc.attributes.status as string;
    };
    const secret = (value: string) => ({
      type: "vars",
      attributes: { key: "secret", value, category: "engine", sensitive: true },
    });
    const right = await plan([secret("s3cret")]);
    const wrong = await plan([secret("guess")]);
    expect(right).toBe(wrong);
    expect(right).toBe("planned");
    // Said without `sensitive`, the stored variable is still sensitive: no answer either.
    expect(await plan([{ type: "vars", attributes: { key: "secret", value: "s3cret", category: "engine" } }])).toBe(
      "planned",
    );
    expect(await plan([{ type: "vars", attributes: { key: "region", value: "eu", category: "engine" } }])).toBe(
      "planned_and_finished",
    );
  });
});

describe("access is checked before the body on write endpoints", () => {
  it("a read-only team gets the same 404 with an invalid body as with a valid one", async () => {
    const reader = t.api.as(readToken);
    const tagId = (await expectStatus(t.api.get(`/workspaces/${wsId}/relationships/tags`), 200)).body.data[0]
      .id as string;
    const cases: Array<[string, string, unknown, unknown]> = [
      [
        "POST",
        `/tags/${tagId}/relationships/workspaces`,
        { data: [{ type: 7, id: wsId }] },
        { data: [{ type: "workspaces", id: wsId }] },
      ],
      ["DELETE", `/organizations/${t.org}/tags`, { data: [{ id: 5 }] }, { data: [{ type: "tags", id: tagId }] }],
      [
        "PATCH",
        `/workspaces/${wsId}`,
        { data: { type: "workspaces", attributes: { "auto-apply": "maybe" } } },
        { data: { type: "workspaces", attributes: { "auto-apply": true } } },
      ],
      [
        "PATCH",
        `/organizations/${t.org}/workspaces/alpha`,
        { data: { attributes: { name: 7 } } },
        { data: { type: "workspaces", attributes: { description: "x" } } },
      ],
      ["POST", `/workspaces/${wsId}/actions/lock`, { reason: 12 }, { reason: "x" }],
      [
        "PATCH",
        `/workspaces/${wsId}/relationships/ssh-key`,
        { data: { attributes: { id: 5 } } },
        { data: { type: "workspaces", attributes: { id: null } } },
      ],
      [
        "POST",
        `/organizations/${t.org}/workspaces`,
        { data: { attributes: { name: "bad name!" } } },
        { data: { type: "workspaces", attributes: { name: "fine" } } },
      ],
      [
        "POST",
        `/organizations/${t.org}/projects`,
        { data: { attributes: {} } },
        { data: { type: "projects", attributes: { name: "p" } } },
      ],
      [
        "POST",
        `/runs`,
        {
          data: {
            attributes: { "is-destroy": "yes" },
            relationships: { workspace: { data: { type: "workspaces", id: wsId } } },
          },
        },
        { data: { type: "runs", relationships: { workspace: { data: { type: "workspaces", id: wsId } } } } },
      ],
      [
        "POST",
        `/team-workspaces`,
        { data: { attributes: { access: "everything" }, relationships: { workspace: { data: { id: wsId } } } } },
        {
          data: {
            type: "team-workspaces",
            attributes: { access: "admin" },
            relationships: {
              workspace: { data: { type: "workspaces", id: wsId } },
              team: { data: { type: "teams", id: "team-x" } },
            },
          },
        },
      ],
    ];
    for (const [method, path, invalid, valid] of cases) {
      const bad = await reader.request(method, path, invalid);
      const good = await reader.request(method, path, valid);
      expect(bad.status, `${method} ${path} invalid: ${bad.text.slice(0, 200)}`).toBe(good.status);
      expect(bad.status, `${method} ${path}`).toBe(404);
    }
    // The owner, who may write, still gets the validation errors.
    expect((await t.api.patch(`/workspaces/${wsId}`, cases[2][2])).status).toBe(422);
  });
});

describe("failed authentication is bounded per client address", () => {
  it(`after ${FAILED_AUTH_LIMIT} wrong tokens the address gets 429 for wrong tokens; generated tokens are still served`, async () => {
    const limited = await start({ rateLimit: 30, token: "chosen-owners-token" });
    try {
      const team = await makeTeam(limited.api, limited.org, "served", { manageWorkspaces: true });
      const wrong = limited.api.as("not-a-token");
      for (let i = 0; i < FAILED_AUTH_LIMIT; i++)
        expect((await wrong.get(`/organizations/${limited.org}/workspaces`)).status).toBe(401);
      const refused = await wrong.get(`/organizations/${limited.org}/workspaces`);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(refused.body.errors[0].status).toBe("429");
      expect(refused.body.errors[0].detail).toMatch(/invalid token/);
      // A generated token is served, and a wrong one of the same shape is still refused.
      expect((await limited.api.as(team.token).get(`/organizations/${limited.org}/workspaces`)).status).toBe(200);
      const lookalike = team.token.slice(0, -1) + (team.token.endsWith("a") ? "b" : "a");
      expect((await limited.api.as(lookalike).get(`/organizations/${limited.org}/workspaces`)).status).toBe(429);
      // A chosen token may be guessable: a right guess of it gets the same answer as a wrong one.
      expect((await limited.api.get(`/organizations/${limited.org}/workspaces`)).status).toBe(429);
      // A request without credentials is no guess and still gets its 401.
      expect((await limited.api.as(null).get(`/organizations/${limited.org}/workspaces`)).status).toBe(401);
    } finally {
      await limited.server.close();
    }
  });
});

describe("control characters are literal and a single-valued parameter is given once", () => {
  it("search[name], search[wildcard-name] and tag search take NUL and other control characters literally", async () => {
    const names = async (q: string) =>
      ((await expectStatus(t.api.get(`/organizations/${t.org}/workspaces?${q}`), 200)).body.data as any[]).map(
        (w) => w.attributes.name,
      );
    for (const c of ["%00", "%01", "%1F", "%7F", "a%00", "%00a"]) {
      expect(await names(`search[name]=${c}`), c).toEqual([]);
      expect(await names(`search[wildcard-name]=*${c}*`), c).toEqual([]);
      expect((await expectStatus(t.api.get(`/organizations/${t.org}/tags?q=${c}`), 200)).body.data, c).toEqual([]);
    }
    // Ordinary searches are unchanged: substring, case-insensitive, wildcards.
    expect(await names("search[name]=LPH")).toEqual(["alpha"]);
    expect(await names("search[wildcard-name]=b*a")).toEqual(["beta"]);
    expect(await names("search[name]=%25")).toEqual([]);
  });

  it("a repeated single-valued parameter is a 400 naming it; a repeated list parameter is joined", async () => {
    for (const q of [
      `filter[project][id]=prj-a&filter[project][id]=prj-b`,
      `search[name]=a&search[name]=b`,
      `page[number]=1&page[number]=2`,
      `sort=name&sort=-name`,
    ]) {
      const r = await t.api.get(`/organizations/${t.org}/workspaces?${q}`);
      expect(r.status, q).toBe(400);
      const param = q.split("=")[0];
      expect(r.body.errors[0].source.parameter).toBe(param);
      expect(r.body.errors[0].detail).toContain(param);
    }
    const joined = await expectStatus(
      t.api.get(`/organizations/${t.org}/workspaces?search[tags]=red&search[tags]=blue`),
      200,
    );
    expect(joined.body.data.map((w: any) => w.id)).toEqual([wsId]);
    const none = await expectStatus(
      t.api.get(`/organizations/${t.org}/workspaces?search[tags]=red&search[tags]=green`),
      200,
    );
    expect(none.body.data).toEqual([]);
    expect((await t.api.get(`/workspaces/${wsId}?include=project&include=organization`)).status).toBe(200);
  });
});

describe("include is a list parameter like the others", () => {
  it("more than the limit of include values is a 400 that states the limit; the limit itself is served", async () => {
    const includes = (n: number) => Array.from({ length: n }, () => "organization").join(",");
    const over = await t.api.get(`/workspaces/${wsId}?include=${includes(1000)}`);
    expect(over.status, over.text.slice(0, 200)).toBe(400);
    expect(over.body.errors[0].detail).toBe(`include accepts at most ${MAX_LIST_VALUES} values; 1000 were given`);
    expect(over.body.errors[0].source.parameter).toBe("include");
    expect((await t.api.get(`/workspaces/${wsId}?include=${includes(MAX_LIST_VALUES)}`)).status).toBe(200);
  });
});
