/**
 * Agent tokens over real HTTP: the secret answered once (by the create, never by a read or
 * a list, never in a log line), a description required, pages, revocation, tokens gone
 * with their pool, and 404 for what the caller may not manage, as for an unknown id.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentTokenDocumentSchema } from "../../src/api/agent-tokens";
import { startServer } from "../../src/server";
import { Api, expectStatus, makeTeam, makeUser } from "./helpers";

let server: Awaited<ReturnType<typeof startServer>>;
let api: Api;
let org: string;
let log = "";
beforeAll(async () => {
  server = await startServer({
    port: 0,
    db: ":memory:",
    rateLimit: false,
    logLevel: "trace",
    logDestination: { write: (l) => (log += l) },
  });
  api = new Api(server.url, server.token);
  org = server.organization;
});
afterAll(() => server.close());

async function createPool(name: string) {
  const r = await expectStatus(
    api.post(`/organizations/${org}/agent-pools`, { data: { type: "agent-pools", attributes: { name } } }),
    201,
  );
  return r.body.data.id as string;
}

const tokenBody = (description?: unknown, type = "agent-tokens") => ({
  data: { type, attributes: description === undefined ? {} : { description } },
});

describe("agent tokens", () => {
  it("answer the secret once, on create: never in a read, a list or a log line", async () => {
    const pool = await createPool("tokens-once");
    const created = await expectStatus(api.post(`/agent-pools/${pool}/authentication-tokens`, tokenBody("ci")), 201);
    const doc = agentTokenDocumentSchema.parse(created.body);
    expect(doc.data.id).toMatch(/^at-/);
    const secret = doc.data.attributes.token!;
    expect(secret).toMatch(/\.atlasv1\./);
    expect(doc.data.attributes.description).toBe("ci");
    expect(doc.data.attributes["created-at"]).toBeTruthy();
    expect(created.body.data.attributes["last-used-at"]).toBeNull();
    expect(created.body.data.relationships["created-by"].data.type).toBe("users");

    const read = await expectStatus(api.get(`/authentication-tokens/${doc.data.id}`), 200);
    expect(read.body.data.attributes).not.toHaveProperty("token");
    const { token: _secret, ...rest } = created.body.data.attributes;
    expect(read.body.data.attributes).toEqual(rest);
    expect(read.body.data.relationships).toEqual(created.body.data.relationships);
    const list = await expectStatus(api.get(`/agent-pools/${pool}/authentication-tokens`), 200);
    expect(list.text).not.toContain(secret);
    expect(list.body.data.map((d: any) => d.id)).toEqual([doc.data.id]);
    expect(log).toContain("authentication-tokens");
    expect(log).not.toContain(secret);
  });

  it("need a description: 422 at its pointer, and no token is made", async () => {
    const pool = await createPool("tokens-described");
    for (const description of [undefined, "", "   ", 7]) {
      const r = await api.post(`/agent-pools/${pool}/authentication-tokens`, tokenBody(description));
      expect(r.status).toBe(422);
      expect(r.body.errors[0].source.pointer).toBe("/data/attributes/description");
    }
    // The service's own type is accepted as well as go-tfe's.
    await expectStatus(
      api.post(`/agent-pools/${pool}/authentication-tokens`, tokenBody("typed", "authentication-tokens")),
      201,
    );
    const list = await expectStatus(api.get(`/agent-pools/${pool}/authentication-tokens`), 200);
    expect(list.body.data.map((d: any) => d.attributes.description)).toEqual(["typed"]);
  });

  it("are listed page by page, revoked by delete, and go with their pool", async () => {
    const pool = await createPool("tokens-paged");
    const made: string[] = [];
    for (const d of ["one", "two", "three"])
      made.push(
        (await expectStatus(api.post(`/agent-pools/${pool}/authentication-tokens`, tokenBody(d)), 201)).body.data.id,
      );
    const page2 = await expectStatus(
      api.get(`/agent-pools/${pool}/authentication-tokens?page[size]=2&page[number]=2`),
      200,
    );
    expect(page2.body.data.map((d: any) => d.id)).toEqual([made[2]]);
    expect(page2.body.meta.pagination).toMatchObject({ "current-page": 2, "total-count": 3, "total-pages": 2 });

    await expectStatus(api.delete(`/authentication-tokens/${made[0]}`), 204);
    expect((await api.get(`/authentication-tokens/${made[0]}`)).status).toBe(404);
    expect((await api.delete(`/authentication-tokens/${made[0]}`)).status).toBe(404);

    await expectStatus(api.delete(`/agent-pools/${pool}`), 204);
    for (const id of made.slice(1)) expect((await api.get(`/authentication-tokens/${id}`)).status).toBe(404);
    expect((await api.get(`/agent-pools/${pool}/authentication-tokens`)).status).toBe(404);
  });

  it("are managed by owners and the organization token; anybody else gets what an unknown id gets", async () => {
    const pool = await createPool("tokens-guarded");
    const token = (await expectStatus(api.post(`/agent-pools/${pool}/authentication-tokens`, tokenBody("x")), 201)).body
      .data.id as string;
    const orgToken = await expectStatus(api.post(`/organizations/${org}/authentication-token`), 201);
    const asOrg = api.as(orgToken.body.data.attributes.token);
    await expectStatus(asOrg.get(`/authentication-tokens/${token}`), 200);
    await expectStatus(asOrg.post(`/agent-pools/${pool}/authentication-tokens`, tokenBody("by-org")), 201);

    const member = await makeTeam(api, org, "token-members", { manageWorkspaces: true });
    const outsider = await makeUser(api, "token-outsider");
    for (const caller of [api.as(member.token), api.as(outsider.token)]) {
      for (const [method, path, body] of [
        ["GET", `/authentication-tokens/${token}`, undefined],
        ["DELETE", `/authentication-tokens/${token}`, undefined],
        ["GET", `/agent-pools/${pool}/authentication-tokens`, undefined],
        ["POST", `/agent-pools/${pool}/authentication-tokens`, tokenBody("stolen")],
      ] as const) {
        const real = await caller.request(method, path, body);
        const unknown = await caller.request(
          method,
          path.replace(token, "at-QQQQQQQQQQQQQQQQ").replace(pool, "apool-QQQQQQQQQQQQQQQQ"),
          body,
        );
        expect(real.status, `${method} ${path}`).toBe(404);
        expect(real.text).toBe(unknown.text);
      }
    }
    await expectStatus(api.get(`/authentication-tokens/${token}`), 200);
  });
});
