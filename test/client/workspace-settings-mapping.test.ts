import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { workspaceCreateRequestSchema, workspaceUpdateRequestSchema } from "../../src/api/workspaces";
import { workspaceListQuery, workspaceRequestBody } from "../../src/client";
import { serverRequest, uniqueName, useServer } from "./helpers";

describe("camelCase options to wire bodies", () => {
  const settings = fc.record(
    {
      description: fc.option(fc.string(), { nil: null }),
      autoApply: fc.boolean(),
      autoApplyRunTrigger: fc.boolean(),
      allowDestroyPlan: fc.boolean(),
      assessmentsEnabled: fc.boolean(),
      executionMode: fc.constantFrom("remote" as const, "local" as const),
      fileTriggersEnabled: fc.boolean(),
      globalRemoteState: fc.boolean(),
      queueAllRuns: fc.boolean(),
      speculativeEnabled: fc.boolean(),
      engineVersion: fc.constantFrom("1.6.0", "~> 1.5", ">= 1.0, < 2.0"),
      triggerPatterns: fc.array(fc.string()),
      triggerPrefixes: fc.array(fc.string()),
      workingDirectory: fc.option(fc.string(), { nil: null }),
      autoDestroyActivityDuration: fc.option(
        fc.tuple(fc.integer({ min: 1, max: 9999 }), fc.constantFrom("d", "h")).map(([n, u]) => `${n}${u}`),
        { nil: null },
      ),
      sourceName: fc.string(),
      projectId: fc.constant("prj-abc"),
      tagBindings: fc.array(fc.record({ key: fc.string({ minLength: 1 }), value: fc.string() })),
      vcsRepo: fc.record({
        identifier: fc.constant("org/repo"),
        oauthTokenId: fc.constant("ot-1"),
        branch: fc.string(),
        ingressSubmodules: fc.boolean(),
      }),
    },
    { requiredKeys: [] },
  );

  it("every create body the client builds is accepted by the shared request schema, keys in kebab-case", () => {
    fc.assert(
      fc.property(settings, (opts) => {
        const body = workspaceRequestBody({ name: "ws_1-a", ...opts }) as {
          data: { attributes: Record<string, unknown> };
        };
        const parsed = workspaceCreateRequestSchema.safeParse(body);
        if (!parsed.success) return false;
        const keys = Object.keys(body.data.attributes);
        // The engine version goes out in the spelling every server of this API reads (go-tfe's), never the spec's neutral one.
        if ("engine-version" in body.data.attributes) return false;
        return (
          keys.every((k) => /^[a-z]+(-[a-z]+)*$/.test(k)) &&
          (opts.engineVersion === undefined || body.data.attributes["terraform-version"] === opts.engineVersion)
        );
      }),
    );
  });

  it("every update body is accepted too; null clears, undefined is left out", () => {
    fc.assert(
      fc.property(settings, (opts) => {
        const body = workspaceRequestBody({ ...opts, vcsRepo: null }) as {
          data: { attributes: Record<string, unknown> };
        };
        if (!workspaceUpdateRequestSchema.safeParse(body).success) return false;
        if (body.data.attributes["vcs-repo"] !== null) return false;
        return Object.values(body.data.attributes).every((v) => v !== undefined);
      }),
    );
  });

  it("encodes list filters with indexed key-value tag filters", () => {
    expect(
      workspaceListQuery({
        tags: ["a", "b"],
        excludeTags: ["c"],
        tagged: [{ key: "env", value: "prod" }, { key: "team" }],
        sort: "-name",
      }),
    ).toMatchObject({
      "search[tags]": "a,b",
      "search[exclude-tags]": "c",
      "filter[tagged][0][key]": "env",
      "filter[tagged][0][value]": "prod",
      "filter[tagged][1][key]": "team",
      sort: "-name",
    });
  });
});

describe("settings that need related records", () => {
  const t = useServer();

  it("connects a VCS repository, changes its branch, and removes it with null", async () => {
    const oc = await serverRequest(t.server, "POST", `/organizations/${t.org}/oauth-clients`, {
      data: {
        type: "oauth-clients",
        attributes: {
          "service-provider": "github",
          "http-url": "https://github.com",
          "api-url": "https://api.github.com",
        },
      },
    });
    const tokenId: string = oc.data.relationships["oauth-tokens"].data[0].id;
    const ws = await t.client.workspaces.create(t.org, {
      name: uniqueName("vcs"),
      vcsRepo: {
        identifier: "acme/infra",
        oauthTokenId: tokenId,
        branch: "main",
        ingressSubmodules: true,
        tagsRegex: "^v\\d+",
      },
      workingDirectory: "stacks/web",
    });
    expect(ws.vcsRepo).toMatchObject({
      identifier: "acme/infra",
      oauthTokenId: tokenId,
      branch: "main",
      ingressSubmodules: true,
      tagsRegex: "^v\\d+",
    });
    const changed = await t.client.workspaces.update(ws.id, { vcsRepo: { branch: "release" } });
    expect(changed.vcsRepo).toMatchObject({ identifier: "acme/infra", branch: "release", oauthTokenId: tokenId });
    const removed = await t.client.workspaces.update(ws.id, { vcsRepo: null });
    expect(removed.vcsRepo).toBeNull();
  });

  it("runs in agent mode on a pool, with setting overwrites, and back to remote", async () => {
    const pool = await serverRequest(t.server, "POST", `/organizations/${t.org}/agent-pools`, {
      data: { type: "agent-pools", attributes: { name: uniqueName("pool") } },
    });
    const ws = await t.client.workspaces.create(t.org, {
      name: uniqueName("agent"),
      executionMode: "agent",
      agentPoolId: pool.data.id,
      settingOverwrites: { executionMode: true, agentPool: true },
    });
    expect(ws.executionMode).toBe("agent");
    expect(ws.agentPoolId).toBe(pool.data.id);
    expect(ws.settingOverwrites).toEqual({ executionMode: true, agentPool: true });
    const remote = await t.client.workspaces.update(ws.id, { executionMode: "remote", agentPoolId: null });
    expect(remote.executionMode).toBe("remote");
    expect(remote.agentPoolId).toBeNull();
  });
});
