/**
 * A local server's site administration over real HTTP, as go-tfe's tests drive it before
 * they test policy sets and more: the plans (`GET /admin/feature-sets?q=`), an
 * organization's subscription (`POST /admin/organizations/:org/subscription`), and the
 * policy tool versions (`/admin/sentinel-versions`). Only the site administrator may call
 * them; an organization's owner is told there is nothing here; a bad body gets 422 with a pointer.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectStatus, makeUser, start, type Api, type TestServer } from "./helpers";

let t: TestServer;
/** The owner of an organization of its own (it created it), and no site administrator. */
let owner: Api;
const ownOrg = "owned-org";

beforeAll(async () => {
  t = await start();
  owner = t.api.as((await makeUser(t.api, "org-owner")).token);
  await expectStatus(
    owner.post("/organizations", {
      data: { type: "organizations", attributes: { name: ownOrg, email: "o@example.com" } },
    }),
    201,
  );
});
afterAll(() => t.server.close());

/** The body go-tfe's `WithBusinessPlan()` sends, with another feature set when asked. */
function plan(featureSetId: string, attributes: Record<string, unknown> = {}) {
  return {
    data: {
      type: "subscription",
      attributes: {
        "runs-ceiling": 10,
        "agents-ceiling": 10,
        "contract-start-at": "2026-01-02T03:04:05Z",
        "end-at": "2027-01-02T03:04:05Z",
        "contract-user-limit": 1000,
        "contract-apply-limit": 5000,
        ...attributes,
      },
      relationships: { "feature-set": { data: { type: "feature-sets", id: featureSetId } } },
    },
  };
}

const names = (r: { body: { data: Array<{ attributes: { name: string } }> } }) =>
  r.body.data.map((f) => f.attributes.name);

describe("feature sets", () => {
  it("a search by name finds the plans whose name contains it, in the list's order", async () => {
    const business = await expectStatus(t.api.get("/admin/feature-sets?q=Business"), 200);
    expect(business.body.data).toEqual([expect.objectContaining({ id: "fs-business", type: "feature-sets" })]);
    expect(business.body.meta.pagination["total-count"]).toBe(1);
    expect(names(await expectStatus(t.api.get("/admin/feature-sets?q=standard"), 200))).toEqual([
      "Standard",
      "Standard (entitlement)",
    ]);
    expect(names(await expectStatus(t.api.get("/admin/feature-sets?q=Free"), 200))).toEqual(["Free"]);
    expect(names(await expectStatus(t.api.get("/admin/feature-sets?q=enterprise-x"), 200))).toEqual([]);
    expect(names(await expectStatus(t.api.get("/admin/feature-sets"), 200))).toHaveLength(7);
  });
});

describe("an organization's subscription", () => {
  const path = (org: string) => `/admin/organizations/${org}/subscription`;

  it("the site administrator gives an organization a plan, recorded with its limits and replaced by the next", async () => {
    expect((await expectStatus(t.api.get(path(t.org)), 200)).body.data).toBeNull();
    const first = await expectStatus(t.api.post(path(t.org), plan("fs-business")), 201);
    expect(first.body.data.type).toBe("subscriptions");
    expect(first.body.data.relationships["feature-set"].data).toEqual({ type: "feature-sets", id: "fs-business" });
    expect(first.body.data.attributes).toMatchObject({ "runs-ceiling": 10, "contract-apply-limit": 5000 });

    const second = await expectStatus(
      t.api.post(path(t.org), {
        data: {
          type: "subscription",
          attributes: { "runs-ceiling": 1 },
          relationships: { "feature-set": { data: { type: "feature-sets", id: "fs-free" } } },
        },
      }),
      201,
    );
    const read = await expectStatus(t.api.get(path(t.org)), 200);
    expect(read.body.data.id).toBe(first.body.data.id);
    expect(second.body.data.id).toBe(first.body.data.id);
    expect(read.body.data.relationships["feature-set"].data.id).toBe("fs-free");
    expect(read.body.data.attributes["runs-ceiling"]).toBe(1);
    expect(read.body.data.attributes["contract-apply-limit"]).toBeNull();
  });

  it("an organization's owner is told there is nothing here, exactly as for an unknown path, and nothing is recorded", async () => {
    const unknownRoute = await owner.get("/admin/no-such-thing");
    for (const r of [
      await owner.get("/admin/feature-sets?q=Business"),
      await owner.post(path(ownOrg), plan("fs-business")),
      await owner.get(path(ownOrg)),
      await owner.post(path(ownOrg), { data: "not a subscription" }),
    ]) {
      expect(r.status).toBe(404);
      expect(r.body.errors[0].status).toBe(unknownRoute.body.errors[0].status);
    }
    const own = await owner.post(path(ownOrg), plan("fs-business"));
    const unknownOrg = await owner.post(path("no-such-org"), plan("fs-business"));
    expect(own.text).toBe(unknownOrg.text);
    expect((await expectStatus(t.api.get(path(ownOrg)), 200)).body.data).toBeNull();
  });

  it("a bad body gets 422 with the pointer of what is wrong; an unknown organization gets 404", async () => {
    const pointers = async (body: unknown) => {
      const r = await expectStatus(t.api.post(path(ownOrg), body), 422);
      return r.body.errors.map((e: { source?: { pointer?: string } }) => e.source?.pointer);
    };
    expect(await pointers(plan("fs-gold"))).toEqual(["/data/relationships/feature-set/data/id"]);
    expect(await pointers(plan("fs-business", { "runs-ceiling": -1 }))).toEqual(["/data/attributes/runs-ceiling"]);
    expect(await pointers(plan("fs-business", { "end-at": "next year" }))).toEqual(["/data/attributes/end-at"]);
    expect(await pointers({ data: { type: "subscription", attributes: {} } })).toEqual(["/data/relationships"]);
    await expectStatus(t.api.post(path("no-such-org"), plan("fs-business")), 404);
    expect((await expectStatus(t.api.get(path(ownOrg)), 200)).body.data).toBeNull();
  });
});

describe("policy tool versions", () => {
  const body = (attributes: Record<string, unknown>) => ({ data: { type: "sentinel-versions", attributes } });

  it("the site administrator adds a version, finds it by its version, and deletes it; a repeated version gets 422", async () => {
    const created = await expectStatus(
      t.api.post("/admin/sentinel-versions", body({ version: "0.0.42", url: "https://example.com/s.zip", sha: "abc" })),
      201,
    );
    const id = created.body.data.id as string;
    expect(created.body.data.attributes).toMatchObject({ version: "0.0.42", enabled: true, official: false });
    const found = await expectStatus(t.api.get("/admin/sentinel-versions?filter[version]=0.0.42"), 200);
    expect(found.body.data.map((v: { id: string }) => v.id)).toEqual([id]);
    expect((await expectStatus(t.api.get("/admin/opa-versions?filter[version]=0.0.42"), 200)).body.data).toEqual([]);

    const again = await expectStatus(
      t.api.post("/admin/sentinel-versions", body({ version: "0.0.42", url: "https://example.com/s.zip", sha: "abc" })),
      422,
    );
    expect(again.body.errors[0].source.pointer).toBe("/data/attributes/version");
    const patched = await expectStatus(
      t.api.patch(`/admin/sentinel-versions/${id}`, body({ deprecated: true, "deprecated-reason": "old" })),
      200,
    );
    expect(patched.body.data.attributes).toMatchObject({ deprecated: true, "deprecated-reason": "old", sha: "abc" });

    await expectStatus(t.api.delete(`/admin/sentinel-versions/${id}`), 204);
    await expectStatus(t.api.get(`/admin/sentinel-versions/${id}`), 404);
  });

  it("a version without a URL and a SHA, or builds per architecture, gets 422; an owner gets 404", async () => {
    const r = await expectStatus(t.api.post("/admin/sentinel-versions", body({ version: "0.0.43" })), 422);
    expect(r.body.errors[0].source.pointer).toBe("/data/attributes/url");
    await expectStatus(owner.post("/admin/sentinel-versions", body({ version: "0.0.44", url: "u", sha: "s" })), 404);
    await expectStatus(owner.get("/admin/sentinel-versions"), 404);
    expect((await expectStatus(t.api.get("/admin/sentinel-versions?search[version]=0.0.4"), 200)).body.data).toEqual(
      [],
    );
  });
});
