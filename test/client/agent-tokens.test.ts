/**
 * The agent token area of the client against the local server: the secret answered by
 * the create alone, never by a read or a list, reads without it, and delete.
 */
import { describe, expect, it } from "vitest";
import { NotFoundError, ValidationError } from "../../src/client";
import { failure, uniqueName, useServer } from "./helpers";

const t = useServer();

describe("agent tokens", () => {
  it("answers the secret once, on create, and never again", async () => {
    const pool = await t.client.agentPools.create(t.org, { name: uniqueName("token-pool") });
    const created = await t.client.agentTokens.create(pool.id, "agents of the build network");
    expect(created.id).toMatch(/^at-/);
    expect(created.description).toBe("agents of the build network");
    expect(typeof created.token).toBe("string");
    expect(created.token!.length).toBeGreaterThan(16);
    expect(Date.parse(created.createdAt ?? "")).not.toBeNaN();

    const read = await t.client.agentTokens.read(created.id);
    expect(read).toMatchObject({ id: created.id, description: created.description });
    expect("token" in read).toBe(false);
    const listed = await t.client.agentTokens.list(pool.id).all();
    expect(listed.map((x) => x.id)).toEqual([created.id]);
    expect(JSON.stringify(listed)).not.toContain(created.token);

    await t.client.agentTokens.delete(created.id);
    expect(await failure(t.client.agentTokens.read(created.id))).toBeInstanceOf(NotFoundError);
    expect(await t.client.agentTokens.list(pool.id).all()).toEqual([]);
  });

  it("refuses a blank description before sending anything", async () => {
    const pool = await t.client.agentPools.create(t.org, { name: uniqueName("token-pool") });
    const before = t.client.stats.requests;
    const err = await failure(t.client.agentTokens.create(pool.id, " "));
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).problems[0].pointer).toBe("/data/attributes/description");
    expect(t.client.stats.requests).toBe(before);
  });

  it("answers 404 for the tokens of a pool that does not exist", async () => {
    expect(await failure(t.client.agentTokens.create("apool-doesnotexist1", "x"))).toBeInstanceOf(NotFoundError);
  });
});
