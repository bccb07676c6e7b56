/**
 * A team flag this release does not know, from the YAML door (the provider plugin) through
 * the real engine: the schema's `organizationAccess.otherFlags` carries it, the provider
 * sends it in the service's spelling, the local server stores it and answers it, the
 * stack reads it back with no change to show, and turning it off in the program turns it
 * off on the server.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import { api, startTestServer, TestStack } from "./harness";

const program = (newThing: boolean) => `
resources:
  platform:
    type: workspaces:index:Team
    properties:
      name: platform-flags
      organizationAccess:
        manageWorkspaces: true
        otherFlags:
          manageNewThing: ${newThing}
outputs:
  teamId: \${platform.id}
  access: \${platform.organizationAccess}
`;

describe("a team flag this release does not know, from YAML", () => {
  let server: RunningServer;
  let stack: TestStack;

  beforeAll(async () => {
    server = await startTestServer();
    stack = await TestStack.create({
      project: "team-flags-yaml",
      files: {},
      yaml: program(true),
      config: { "workspaces:address": server.url, "workspaces:organization": server.organization },
      secretConfig: { "workspaces:token": server.token },
    });
  });
  afterAll(async () => {
    stack?.dispose();
    await server?.close();
  });

  /** The team's `organization-access` as the server answers it on the wire. */
  const wireFlags = async (id: string): Promise<Record<string, boolean>> => {
    const res = await api(server, `/teams/${id}`);
    expect(res.status).toBe(200);
    return res.body.data.attributes["organization-access"];
  };

  it("up sends it in the service's spelling; the server stores and answers it; a preview shows no change", async () => {
    const up = await stack.ok(["up", "--yes", "--non-interactive"]);
    expect(up.output).toContain(
      "manageNewThing is not a flag this release knows; sent to the service as manage-new-thing",
    );
    const { teamId, access } = await stack.outputs();
    const flags = await wireFlags(teamId);
    expect(flags).toMatchObject({ "manage-new-thing": true, "manage-workspaces": true, "manage-projects": false });
    // Read back through the plugin: the unknown flag in otherFlags, the known ones by name.
    expect(access).toMatchObject({ manageWorkspaces: true, otherFlags: { manageNewThing: true } });
    await stack.expectNoChanges();
  });

  it("turned off in the program, it is turned off on the server", async () => {
    stack.writeYaml(program(false));
    await stack.ok(["up", "--yes", "--non-interactive", "--skip-preview"]);
    const { teamId } = await stack.outputs();
    const flags = await wireFlags(teamId);
    expect(flags["manage-new-thing"]).toBeUndefined();
    expect(flags["manage-workspaces"]).toBe(true);
    await stack.expectNoChanges();
    await stack.ok(["destroy", "--yes", "--non-interactive", "--skip-preview"]);
    expect((await api(server, `/teams/${teamId}`)).status).toBe(404);
  });
});
