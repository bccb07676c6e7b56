/**
 * `getWorkspaces` against a server that answers as OTF does (test/client/otf-like.ts): its
 * workspace list ignores every filter, has no key-value tags and no projects. What the list
 * document shows (names, flat tags) is checked by the lookup itself; a selection by
 * key-value tags or by project, which neither the server nor the lookup can apply, fails
 * with one message naming the argument and what to select by instead, rather than
 * selecting every workspace.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as pulumi from "@pulumi/pulumi";
import { resetLimiters } from "../../src/client";
import { getWorkspaces } from "../../src/index";
import { TOKEN, fakeClient } from "../client/fake-service";
import { type OtfLike, startOtfLike } from "../client/otf-like";
import { failure } from "./provider-io";

let otf: OtfLike;
const ids: Record<string, string> = {};

beforeAll(async () => {
  otf = await startOtfLike();
  resetLimiters();
  const client = fakeClient(otf.service);
  for (const [name, tagNames] of [
    ["lk-app-prod", ["web", "prod"]],
    ["lk-app-staging", ["web"]],
    ["lk-batch", ["prod"]],
  ] as const) {
    ids[name] = (await client.workspaces.create("acme", { name, tagNames: [...tagNames] })).id;
  }
  pulumi.runtime.setAllConfig(
    { "workspaces:address": otf.service.url, "workspaces:token": TOKEN, "workspaces:organization": "acme" },
    ["workspaces:token"],
  );
});
afterAll(async () => {
  pulumi.runtime.setAllConfig({});
  await otf.close();
});

describe("getWorkspaces on a server whose list ignores filters", () => {
  it("applies name patterns, flat tags and excluded tags itself", async () => {
    const byPattern = await getWorkspaces({ names: ["lk-app-*"] });
    expect(byPattern.names).toEqual(["lk-app-prod", "lk-app-staging"]);
    const byTags = await getWorkspaces({ tagNames: ["WEB", "prod"] });
    expect(byTags.idsByName).toEqual({ "lk-app-prod": ids["lk-app-prod"] });
    const excluded = await getWorkspaces({ names: ["lk-*"], excludeTags: ["web"] });
    expect(excluded.names).toEqual(["lk-batch"]);
  });

  it("refuses to select by key-value tags it cannot apply, naming the feature and the way out", async () => {
    const err = await failure(getWorkspaces({ tags: { team: "search" } }));
    expect(err).toBeInstanceOf(pulumi.RunError);
    expect(err.message).toMatch(
      /^getWorkspaces: the server at http:\/\/127\.0\.0\.1:\d+\/api\/v2 does not offer key-value tags/,
    );
    expect(err.message).toContain("select by `tagNames`, `names` or `search` instead");
    expect(err.message).not.toContain(TOKEN);
  });

  it("refuses to select by project on a server without projects", async () => {
    const err = await failure(getWorkspaces({ project: "prj-anything" }));
    expect(err.message).toMatch(/^getWorkspaces: the server at .* does not offer projects/);
    expect(err.message).toContain("leave `project` out");
  });
});
