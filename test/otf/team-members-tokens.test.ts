/**
 * Who is in a team and the tokens CI runs with, on OTF: OTF serves a team's members by
 * username (`/teams/:id/relationships/users`), the team's single (legacy) token and the
 * organization's token. Through the engine: `TeamMembers`, a `TeamToken` without a
 * description and an `OrganizationToken`: up, a preview with no change, a member removed
 * over HTTP that refresh shows and up restores, and a destroy that removes the members and
 * revokes both tokens, the secrets only encrypted in the checkpoint.
 *
 * What OTF lacks fails with one message per resource naming the feature, and nothing is
 * made: invitations (OTF's route is a stand-in that answers a made-up membership without
 * the email and keeps nothing: `does not offer organization memberships`), a team's several
 * described tokens (`multiple team tokens`) and members by organization membership.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestStack, type PulumiResult } from "../e2e/harness";
import {
  createOrganization,
  expectOneMessageEach,
  otfApi,
  otfEnv,
  otfServer,
  runOrganization,
  type OtfServer,
} from "./otf";

const org = runOrganization("members");
let otf: OtfServer;
let teamId: string;
/** Users OTF's site administrator made (`POST /otfapi/admin/users`: OTF's own API, not the service's). */
const users = ["otf-ann", "otf-ben", "otf-cid"].map((u) => `${u}-${Math.random().toString(36).slice(2, 8)}`);

async function expectStatus<T>(p: Promise<{ status: number; body: T }>, ok: number[], what: string): Promise<T> {
  const r = await p;
  if (!ok.includes(r.status)) throw new Error(`${what}: HTTP ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** Usernames on the team as OTF answers them, sorted. */
async function teamUsernames(): Promise<string[]> {
  const body = await expectStatus(otfApi<any>(otf, `/teams/${teamId}?include=users`), [200], "read the team");
  return (body.included ?? [])
    .filter((r: any) => r.type === "users")
    .map((u: any) => u.attributes.username as string)
    .sort();
}

beforeAll(async () => {
  otf = otfServer();
  await createOrganization(otf, org);
  const team = await expectStatus(
    otfApi<any>(otf, `/organizations/${org}/teams`, {
      method: "POST",
      body: { data: { type: "teams", attributes: { name: "deployers", visibility: "organization" } } },
    }),
    [201],
    "create team",
  );
  teamId = team.data.id;
  for (const username of users) {
    const res = await fetch(`${otf.url}/otfapi/admin/users`, {
      method: "POST",
      headers: { authorization: `Bearer ${otf.token}`, "content-type": "application/json" },
      body: JSON.stringify({ username }),
    });
    if (res.status !== 201) throw new Error(`create user ${username}: HTTP ${res.status} ${await res.text()}`);
  }
});

describe("team members, the team's token and the organization's token on OTF, through the engine", () => {
  let stack: TestStack;
  const printed: PulumiResult[] = [];
  const program = () => `
import { OrganizationToken, TeamMembers, TeamToken } from "pulumi-workspaces";
const teamId = ${JSON.stringify(teamId)};
const members = new TeamMembers("members", { teamId, usernames: ${JSON.stringify(users.slice(0, 2))} });
const token = new TeamToken("team-token", { teamId });
const orgToken = new OrganizationToken("org-token", {});
export const secrets = { team: token.token, org: orgToken.token };
export const teamName = members.teamName;
`;

  beforeAll(async () => {
    stack = await TestStack.create({
      project: "otf-members-tokens",
      files: { "index.ts": program() },
      env: otfEnv(otf, org),
    });
  });
  afterAll(() => stack?.dispose());

  const run = async (r: Promise<PulumiResult>) => {
    const done = await r;
    printed.push(done);
    expect(done.code, done.output.slice(-4000)).toBe(0);
    return done;
  };

  it("up adds the members and mints both tokens; then no change", async () => {
    await run(stack.up());
    expect(await teamUsernames()).toEqual(expect.arrayContaining(users.slice(0, 2)));
    expect(await teamUsernames()).not.toContain(users[2]);
    const { secrets, teamName } = await stack.outputs();
    expect(teamName).toBe("deployers");
    expect(secrets.team).toMatch(/\S{16,}/);
    expect(secrets.org).toMatch(/\S{16,}/);
    expect((await otfApi(otf, `/teams/${teamId}/authentication-token`)).status).toBe(200);
    expect((await otfApi(otf, `/organizations/${org}/authentication-token`)).status).toBe(200);
    await stack.expectEncryptedOnly([secrets.team, secrets.org]);
    await stack.expectNoChanges();
  });

  it("a member removed over HTTP shows in refresh, and up puts them back", async () => {
    await expectStatus(
      otfApi(otf, `/teams/${teamId}/relationships/users`, {
        method: "DELETE",
        body: { data: [{ type: "users", id: users[1] }] },
      }),
      [204],
      "remove a member",
    );
    await run(stack.refresh());
    const preview = await stack.previewJson();
    expect(preview.steps.filter((s) => s.op !== "same").map((s) => `${s.op} ${s.urn.split("::").pop()}`)).toEqual([
      "update members",
    ]);
    await run(stack.up());
    expect(await teamUsernames()).toEqual(expect.arrayContaining(users.slice(0, 2)));
    await stack.expectNoChanges();
  });

  it("destroy removes the members and revokes both tokens; no secret in any output", async () => {
    const { secrets } = await stack.outputs();
    await run(stack.destroy());
    const left = await teamUsernames();
    for (const u of users.slice(0, 2)) expect(left).not.toContain(u);
    expect((await otfApi(otf, `/teams/${teamId}/authentication-token`)).status).toBe(404);
    expect((await otfApi(otf, `/organizations/${org}/authentication-token`)).status).toBe(404);
    for (const r of printed) for (const s of [secrets.team, secrets.org]) expect(r.output).not.toContain(s);
  });
});

describe("what OTF lacks of memberships and tokens, through the engine", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await TestStack.create({
      project: "otf-members-lacking",
      files: {
        "index.ts": `
import { OrganizationMembership, TeamMembers, TeamToken } from "pulumi-workspaces";
new OrganizationMembership("invite", { email: "never-invited@example.com" });
new TeamToken("described", { teamId: ${JSON.stringify(teamId)}, description: "ci" });
new TeamMembers("by-membership", { teamId: ${JSON.stringify(teamId)}, organizationMembershipIds: ["ou-abcdefghijklmnop"] });
`,
      },
      env: otfEnv(otf, org),
    });
  });
  afterAll(() => stack?.dispose());

  it("each resource fails with one message naming the feature, and nothing is made", async () => {
    const tokenBefore = (await otfApi(otf, `/teams/${teamId}/authentication-token`)).status;
    const r = await stack.upWithEvents(["--continue-on-error"]);
    expect(r.code, r.output).not.toBe(0);
    expectOneMessageEach(r, [
      ["invite", /does not offer organization memberships/],
      ["described", /does not offer multiple team tokens/],
      ["by-membership", /does not offer team members by organization membership/],
    ]);
    for (const type of ["OrganizationMembership", "TeamToken", "TeamMembers"])
      expect(stack.resources(`dynamic/workspaces:${type}`), type).toEqual([]);
    // No token was made behind the program's back, and the team's members are as they were.
    expect((await otfApi(otf, `/teams/${teamId}/authentication-token`)).status).toBe(tokenBefore);
    expect(await teamUsernames()).toEqual(expect.not.arrayContaining(users));
  });
});
