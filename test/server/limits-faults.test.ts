import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkspace, start, type TestServer } from "./helpers";

describe("rate limit (per user)", () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await start({ rateLimit: 5 });
  });
  afterAll(() => t.server.close());

  it("sends the headers and answers 429 with the hosted body once the budget is spent", async () => {
    const results = [];
    for (let i = 0; i < 8; i++) results.push(await t.api.get(`/organizations/${t.org}/workspaces`));
    const first = results[0];
    expect(first.headers.get("x-ratelimit-limit")).toBe("5");
    expect(first.headers.get("x-ratelimit-remaining")).toBe("4");
    expect(Number(first.headers.get("x-ratelimit-reset"))).toBeLessThanOrEqual(1);
    const limited = results.filter((r) => r.status === 429);
    // Requests might straddle a window boundary, so at least the last ones are refused.
    expect(limited.length).toBeGreaterThanOrEqual(2);
    expect(limited[0].body).toEqual({
      errors: [{ status: "429", title: "Too many requests", detail: "You have exceeded the API's rate limit." }],
    });
    expect(limited[0].headers.get("x-ratelimit-remaining")).toBe("0");
  });

  it("keeps separate budgets per user and refills after the window", async () => {
    for (let i = 0; i < 6; i++) await t.api.get(`/ping`);
    const other = await t.api.as(null).get(`/ping`);
    expect(other.status).toBe(204);
    await new Promise((r) => setTimeout(r, 1100));
    expect((await t.api.get(`/organizations/${t.org}/workspaces`)).status).toBe(200);
  });
});

describe("rate limit disabled", () => {
  it("sends no rate limit headers and never refuses", async () => {
    const t = await start({ rateLimit: 0 });
    try {
      const rs = await Promise.all(Array.from({ length: 60 }, () => t.api.get(`/ping`)));
      expect(rs.every((r) => r.status === 204)).toBe(true);
      expect(rs[0].headers.get("x-ratelimit-limit")).toBeNull();
    } finally {
      await t.server.close();
    }
  });
});

describe("fault injection", () => {
  it("fails about the configured fraction with 503 and changes nothing", async () => {
    const t = await start();
    try {
      t.server.setFaults({ failureRate: 0.5, failureMode: "503" });
      const results = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          t.api.post(`/organizations/${t.org}/workspaces`, {
            data: { type: "workspaces", attributes: { name: `f-${i}` } },
          }),
        ),
      );
      const failed = results.filter((r) => r.status === 503);
      const created = results.filter((r) => r.status === 201);
      expect(failed.length + created.length).toBe(200);
      expect(failed.length).toBeGreaterThan(50);
      expect(failed.length).toBeLessThan(150);
      expect(failed[0].body.errors[0].status).toBe("503");
      t.server.setFaults({});
      const list = await t.api.get(`/organizations/${t.org}/workspaces?page[size]=1`);
      expect(list.body.meta.pagination["total-count"]).toBe(created.length);
    } finally {
      await t.server.close();
    }
  });

  it("drops connections in drop mode", async () => {
    const t = await start({ faults: { failureRate: 1, failureMode: "drop" } });
    try {
      await expect(fetch(`${t.server.url}/ping`)).rejects.toThrow();
      t.server.setFaults({});
      expect((await fetch(`${t.server.url}/ping`)).status).toBe(204);
    } finally {
      await t.server.close();
    }
  });

  it("adds latency", async () => {
    const t = await start({ faults: { latencyMs: 150 } });
    try {
      const began = Date.now();
      await createWorkspace(t.api, t.org, "slow");
      expect(Date.now() - began).toBeGreaterThanOrEqual(140);
    } finally {
      await t.server.close();
    }
  });
});
