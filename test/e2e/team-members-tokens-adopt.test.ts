/**
 * People, team lists and tokens made out of band, through the real engine and the real
 * server under its default rate limit, counting the server's writes: two memberships (one
 * active, one still invited), an authoritative team list holding both kinds of member and
 * a service user, an additive one, a described and a legacy team token and the
 * organization's token. A program declaring them as they are (`adopt: true`, the lists
 * equal to the teams') takes everything over without one write, a preview then changes
 * nothing and writes nothing, and no token is minted again: each keeps its id, and the
 * secret made out of band still authenticates.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import { writesSince } from "./engine-steps";
import { serverEnv, startTestServer, TestStack } from "./harness";
import {
  accept,
  changeTeamMembers,
  createOrganizationToken,
  createTeam,
  createTeamToken,
  invite,
  statusWith,
  teamMembersOnServer,
  teamTokensOnServer,
  type Invited,
} from "./server-helpers";

const program = `
import * as pulumi from "@pulumi/pulumi";
import { OrganizationMembership, OrganizationToken, TeamMembers, TeamToken } from "pulumi-workspaces";

const config = new pulumi.Config();
const [platform, readers, ann] = ["platform", "readers", "ann"].map((k) => config.require(k));

const annMember = new OrganizationMembership("ann", { email: "ann@example.com", adopt: true });
const ben = new OrganizationMembership("ben", { email: "ben@example.com", adopt: true });
new TeamMembers("platform-members", {
  teamId: platform,
  mode: "authoritative",
  usernames: [ann],
  organizationMembershipIds: [ben.id],
});
new TeamMembers("reader-members", { teamId: readers, organizationMembershipIds: [ben.id] });
const deploys = new TeamToken("deploys", { teamId: platform, description: "deploys", adopt: true });
const legacy = new TeamToken("readers-token", { teamId: readers, adopt: true });
const org = new OrganizationToken("org-token", { adopt: true });

export const ids = { ann: annMember.id, ben: ben.id, deploys: deploys.id, legacy: legacy.id, org: org.id };
export const status = { ann: annMember.status, ben: ben.status };
`;

describe("adopting an organization's members, team lists and tokens", () => {
  let server: RunningServer;
  let stack: TestStack;
  const team = { platform: "", readers: "" };
  let ann: Invited, ben: Invited;
  const tokens: Record<"deploys" | "legacy" | "org", { id: string; token: string }> = {
    deploys: { id: "", token: "" },
    legacy: { id: "", token: "" },
    org: { id: "", token: "" },
  };

  beforeAll(async () => {
    server = await startTestServer();
    for (const k of Object.keys(team) as Array<keyof typeof team>) team[k] = await createTeam(server, k);
    ann = await invite(server, "ann@example.com");
    await accept(server, ann);
    ben = await invite(server, "ben@example.com");
    await changeTeamMembers(server, team.platform, "POST", "users", [ann.username]);
    await changeTeamMembers(server, team.platform, "POST", "organization-memberships", [ben.id]);
    await changeTeamMembers(server, team.readers, "POST", "organization-memberships", [ben.id]);
    tokens.deploys = await createTeamToken(server, team.platform, "deploys");
    tokens.legacy = await createTeamToken(server, team.readers);
    tokens.org = await createOrganizationToken(server);
    stack = await TestStack.create({
      project: "adopt-members-tokens",
      files: { "index.ts": program },
      env: serverEnv(server),
      config: { ...team, ann: ann.username },
    });
  });

  afterAll(async () => {
    stack?.dispose();
    await server?.close();
  });

  it("pulumi up adopts every membership, list and token and sends no write; a preview then changes nothing", async () => {
    const platformBefore = await teamMembersOnServer(server, team.platform);
    // The service user of the deploys token is on the team and undeclared: authoritative adoption keeps it.
    expect(platformBefore.serviceUsers.length).toBeGreaterThan(0);
    const before = server.stats().byRoute;
    const r = await stack.up();
    expect(r.code, r.output.slice(-4000)).toBe(0);
    expect(writesSince(server, before)).toEqual([]);

    const o = (await stack.outputs()) as { ids: Record<string, string>; status: Record<string, string> };
    expect(o.ids).toEqual({
      ann: ann.id,
      ben: ben.id,
      deploys: tokens.deploys.id,
      legacy: expect.stringMatching(/^(team-|at-)/),
      org: expect.any(String),
    });
    expect(o.status).toEqual({ ann: "active", ben: "invited" });
    const tokenOutputs = (type: string) =>
      stack.resources(`dynamic/workspaces:${type}`).map((res) => res.outputs ?? {});
    expect(
      tokenOutputs("TeamToken")
        .map((t) => t.tokenId)
        .sort(),
    ).toEqual([tokens.deploys.id, tokens.legacy.id].sort());
    expect(tokenOutputs("OrganizationToken").map((t) => t.tokenId)).toEqual([tokens.org.id]);
    // Adoption never regenerates a token: no secret in the state, the old secrets still work.
    for (const t of [...tokenOutputs("TeamToken"), ...tokenOutputs("OrganizationToken")])
      expect(t.token ?? null).toBeNull();
    const state = stack.stateText();
    for (const t of Object.values(tokens)) {
      expect(state.includes(t.token)).toBe(false);
      expect(await statusWith(server, t.token, `/organizations/${server.organization}`)).toBe(200);
    }
    expect((await teamTokensOnServer(server)).map((t) => t.id).sort()).toEqual(
      [tokens.deploys.id, tokens.legacy.id].sort(),
    );
    expect(await teamMembersOnServer(server, team.platform)).toEqual(platformBefore);

    const again = server.stats().byRoute;
    await stack.expectNoChanges();
    expect(writesSince(server, again)).toEqual([]);
  });
});
