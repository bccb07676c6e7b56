/**
 * A create whose answer is lost after the service committed it: the client never
 * repeats it, so the provider must adopt what it made instead of orphaning it.
 */
import { describe, it, expect, beforeAll, afterAll, afterEach } from "vitest";
import { workspaceProvider } from "../../src/resources/providers/workspace";
import { startHarness, uniqueName, type Harness } from "./helpers";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h.close());
afterEach(() => h.server.setFaults({}));

async function namedWorkspaces(name: string): Promise<string[]> {
  const ids: string[] = [];
  for await (const ws of h.client.workspaces.list(h.org, { search: name })) if (ws.name === name) ids.push(ws.id);
  return ids;
}

describe("Workspace create with a lost answer", () => {
  for (const failureMode of ["503", "drop"] as const) {
    it(`adopts the workspace the create made (${failureMode})`, async () => {
      const name = uniqueName("lost");
      const inputs = { organization: h.org, name, description: "made once", tags: { env: "dev" } };
      const checked = await workspaceProvider.check({}, inputs);
      // Every POST commits and then loses its answer; reads go through.
      h.server.setFaults({ failureRate: 1, failureMode, failureStage: "after", methods: ["POST"] });
      const created = await workspaceProvider.create(checked.inputs);
      h.server.setFaults({});

      const ids = await namedWorkspaces(name);
      expect(ids).toEqual([created.id]);
      expect(created.outs.description).toBe("made once");
      expect(created.outs.tags).toEqual({ env: "dev" });
      // The adopted workspace is managed like any other: no diff, and delete removes it.
      const diff = await workspaceProvider.diff(created.id, created.outs, checked.inputs);
      expect(diff.changes).toBe(false);
      await workspaceProvider.delete(created.id, created.outs);
      expect(await namedWorkspaces(name)).toEqual([]);
    });
  }

  it("keeps the original error when the create did not happen", async () => {
    const name = uniqueName("refused");
    const checked = await workspaceProvider.check({}, { organization: h.org, name });
    // The POST fails before any handler runs: nothing was made, nothing to adopt.
    h.server.setFaults({ failureRate: 1, failureMode: "503", failureStage: "before", methods: ["POST"] });
    await expect(workspaceProvider.create(checked.inputs)).rejects.toThrow(/503|unavailable/i);
    h.server.setFaults({});
    expect(await namedWorkspaces(name)).toEqual([]);
  });

  it("does not adopt an older workspace of the same name", async () => {
    const name = uniqueName("older");
    const older = await h.client.workspaces.create(h.org, { name });
    const checked = await workspaceProvider.check({}, { organization: h.org, name });
    // Created long before this request (as far as the provider can tell): a 5xx must not make it ours.
    const realNow = Date.now;
    Date.now = () => realNow() + 10 * 60_000;
    try {
      h.server.setFaults({ failureRate: 1, failureMode: "503", failureStage: "after", methods: ["POST"] });
      await expect(workspaceProvider.create(checked.inputs)).rejects.toThrow();
    } finally {
      Date.now = realNow;
      h.server.setFaults({});
    }
    expect(await namedWorkspaces(name)).toEqual([older.id]);
  });
});
