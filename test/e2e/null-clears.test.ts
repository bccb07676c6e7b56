/**
 * `null` clears a setting, through the real engine and the real local server: a program
 * sets every nullable setting of a `Workspace`, then clears them with `null` (a typed
 * program: the input types take `null` without a cast); someone sets them again by hand
 * over plain HTTP; `pulumi refresh` finds them, `pulumi preview` shows the update, and
 * `pulumi up` clears them again. A second workspace that never mentions them keeps what
 * was set by hand: omitted still means unmanaged.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import { api, serverEnv, startTestServer, TestStack, type StateResource } from "./harness";
import { createVcsTokenAndSshKey, workspaceByName } from "./server-helpers";

/** Records the program refers to, made over the API (ids in the program text, not config: they look like secrets to the CLI). */
interface Ids {
  oauthTokenId: string;
  sshKeyId: string;
}

/** The nullable settings of `Workspace`, as the program gives them when they are set. */
const SET = (ids: Ids) => `{
  description: "owned by platform",
  autoDestroyAt: "2031-01-02T03:04:05Z",
  autoDestroyActivityDuration: "14d",
  workingDirectory: "infra/live",
  sshKeyId: "${ids.sshKeyId}",
  vcsRepo: { identifier: "acme/web", oauthTokenId: "${ids.oauthTokenId}", tagsRegex: "^v\\\\d+" },
}`;

/** The same settings cleared; the VCS connection stays, its tags regex goes. */
const CLEARED = (ids: Ids) => `{
  description: null,
  autoDestroyAt: null,
  autoDestroyActivityDuration: null,
  workingDirectory: null,
  sshKeyId: null,
  vcsRepo: { identifier: "acme/web", oauthTokenId: "${ids.oauthTokenId}", tagsRegex: null },
}`;

const program = (settings: string) => `
import { Workspace, type WorkspaceArgs } from "pulumi-workspaces";

const settings: Partial<WorkspaceArgs> = ${settings};

export const clearedId = new Workspace("cleared", { name: "cleared", executionMode: "remote", ...settings }).id;
export const untouchedId = new Workspace("untouched", { name: "untouched" }).id;
`;

/** The nullable settings of a workspace document, `null` where the service has none. */
function settingsOf(doc: any): Record<string, unknown> {
  const a = doc.attributes;
  return {
    description: a.description ?? null,
    autoDestroyAt: a["auto-destroy-at"] ? new Date(a["auto-destroy-at"]).toISOString() : null,
    autoDestroyActivityDuration: a["auto-destroy-activity-duration"] ?? null,
    workingDirectory: a["working-directory"] ?? null,
    sshKeyId: doc.relationships["ssh-key"]?.data?.id ?? null,
    tagsRegex: a["vcs-repo"]?.["tags-regex"] ?? null,
  };
}

const NONE = {
  description: null,
  autoDestroyAt: null,
  autoDestroyActivityDuration: null,
  workingDirectory: null,
  sshKeyId: null,
  tagsRegex: null,
};

describe("null clears a setting through the engine", () => {
  let server: RunningServer;
  let stack: TestStack;
  let oauthTokenId: string;
  let sshKeyId: string;

  beforeAll(async () => {
    server = await startTestServer();
    ({ oauthTokenId, sshKeyId } = await createVcsTokenAndSshKey(server));
    stack = await TestStack.create({
      project: "null-clears-e2e",
      files: { "index.ts": program(SET({ oauthTokenId, sshKeyId })) },
      env: serverEnv(server),
    });
  });
  afterAll(async () => {
    stack?.dispose();
    await server?.close();
  });

  const cleared = (): StateResource =>
    stack.resources("dynamic/workspaces:Workspace").find((r) => r.urn.endsWith("::cleared"))!;

  /** Sets every nullable setting of a workspace by hand, over plain HTTP. */
  async function setByHand(id: string): Promise<void> {
    const patch = await api(server, `/workspaces/${id}`, {
      method: "PATCH",
      body: {
        data: {
          type: "workspaces",
          attributes: {
            description: "edited by hand",
            "auto-destroy-at": "2032-05-06T07:08:09Z",
            "auto-destroy-activity-duration": "3h",
            "working-directory": "elsewhere",
            "vcs-repo": { identifier: "acme/web", "oauth-token-id": oauthTokenId, "tags-regex": "^release-" },
          },
        },
      },
    });
    expect(patch.status, JSON.stringify(patch.body)).toBe(200);
    const key = await api(server, `/workspaces/${id}/relationships/ssh-key`, {
      method: "PATCH",
      body: { data: { type: "workspaces", attributes: { id: sshKeyId } } },
    });
    expect(key.status).toBe(200);
  }

  const BY_HAND = () => ({
    description: "edited by hand",
    autoDestroyAt: "2032-05-06T07:08:09.000Z",
    autoDestroyActivityDuration: "3h",
    workingDirectory: "elsewhere",
    sshKeyId,
    tagsRegex: "^release-",
  });

  it("sets every nullable setting", async () => {
    const r = await stack.up();
    expect(r.code, r.output).toBe(0);
    expect(settingsOf(await workspaceByName(server, "cleared"))).toEqual({
      description: "owned by platform",
      autoDestroyAt: "2031-01-02T03:04:05.000Z",
      autoDestroyActivityDuration: "14d",
      workingDirectory: "infra/live",
      sshKeyId,
      tagsRegex: "^v\\d+",
    });
  });

  it("clears them with null, keeps null in state, then previews no change", async () => {
    stack.writeFiles({ "index.ts": program(CLEARED({ oauthTokenId, sshKeyId })) });
    const r = await stack.up();
    expect(r.code, r.output).toBe(0);
    expect(settingsOf(await workspaceByName(server, "cleared"))).toEqual(NONE);
    expect((await workspaceByName(server, "cleared")).attributes["vcs-repo"]?.identifier).toBe("acme/web");

    const res = cleared();
    for (const k of ["description", "autoDestroyAt", "autoDestroyActivityDuration", "workingDirectory", "sshKeyId"]) {
      expect(res.inputs?.[k], k).toBeNull();
      expect(res.outputs?.[k], k).toBeNull();
    }
    expect((res.inputs?.vcsRepo as Record<string, unknown>).tagsRegex).toBeNull();

    const p = await stack.previewJson(["--expect-no-changes"]);
    expect(p.code, p.raw.output).toBe(0);
  });

  it("finds them set by hand on refresh, updates to clear them again, and leaves the unmanaged workspace alone", async () => {
    const { clearedId, untouchedId } = await stack.outputs();
    await setByHand(clearedId);
    await setByHand(untouchedId);

    const refreshed = await stack.refresh();
    expect(refreshed.code, refreshed.output).toBe(0);
    expect(cleared().outputs).toMatchObject({ description: "edited by hand", workingDirectory: "elsewhere", sshKeyId });

    const p = await stack.previewJson();
    expect(p.code, p.raw.output).toBe(0);
    expect(p.steps.filter((s) => s.op !== "same").map((s) => [s.op, s.urn.split("::").pop()])).toEqual([
      ["update", "cleared"],
    ]);

    const up = await stack.up();
    expect(up.code, up.output).toBe(0);
    expect(settingsOf(await workspaceByName(server, "cleared"))).toEqual(NONE);
    expect(settingsOf(await workspaceByName(server, "untouched"))).toEqual(BY_HAND());

    const again = await stack.previewJson(["--expect-no-changes"]);
    expect(again.code, again.raw.output).toBe(0);
  });
});
