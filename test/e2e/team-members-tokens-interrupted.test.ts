/**
 * A CI runner killed in the middle of `pulumi up` of invitations and team tokens (SIGKILL to
 * the CLI's process group once invites and token creates both reached the local server,
 * with its rate limit), then the documented recovery: `pulumi cancel --yes`, one `pulumi
 * up`, `pulumi refresh --clear-pending-creates`. An invite whose answer was lost is taken
 * over by the next create (a second invite of one email is refused by the service), and a
 * token whose secret was lost is recognised by the stack's origin in its description,
 * deleted and made again. Afterwards no email is invited twice, no team holds a token
 * twice, the state holds exactly the server's memberships and tokens, and a preview
 * changes nothing.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import { settledList } from "./engine-steps";
import { api, serverEnv, startTestServer, TestStack } from "./harness";
import { read, upInterrupted } from "./interrupt";
import { createTeam, teamTokensOnServer } from "./server-helpers";

const TEAMS = 3;
const PER_TEAM = 6;
const TOKENS = TEAMS * PER_TEAM;
const PEOPLE = 18;

// Person p waits for token p % TOKENS, so that invites go on while tokens are created.
const program = `
import * as pulumi from "@pulumi/pulumi";
import { OrganizationMembership, TeamToken } from "pulumi-workspaces";
const config = new pulumi.Config();
const tokens: TeamToken[] = [];
for (let t = 0; t < ${TEAMS}; t++)
  for (let k = 0; k < ${PER_TEAM}; k++)
    tokens.push(
      new TeamToken(\`token-\${t}-\${k}\`, { teamId: config.require(\`team\${t}\`), description: \`ci \${t}-\${k}\` }),
    );
for (let p = 0; p < ${PEOPLE}; p++)
  new OrganizationMembership(
    \`person-\${p}\`,
    { email: \`person-\${p}@example.com\` },
    p % 2 === 0 ? { dependsOn: [tokens[p % tokens.length]] } : {},
  );
`;

interface ServerMembership {
  id: string;
  email: string;
}

/** Every membership of the organization, every page. */
async function membershipsOnServer(server: RunningServer): Promise<ServerMembership[]> {
  const out: ServerMembership[] = [];
  for (let page = 1; ; page++) {
    const body = await read(
      server,
      `/organizations/${server.organization}/organization-memberships?page%5Bsize%5D=100&page%5Bnumber%5D=${page}`,
    );
    for (const m of body.data) out.push({ id: m.id, email: m.attributes.email });
    if (!body.meta?.pagination?.["next-page"]) return out;
  }
}

describe(`pulumi up of ${PEOPLE} invites and ${TOKENS} team tokens, killed`, () => {
  let server: RunningServer;
  let stack: TestStack;

  afterAll(async () => {
    stack?.dispose();
    await server?.close();
  });

  it("converges with one more up: no invite twice, no token twice, the state equal to the server", async () => {
    server = await startTestServer();
    const teams: string[] = [];
    for (let t = 0; t < TEAMS; t++) teams.push(await createTeam(server, `crash-team-${t}`));
    stack = await TestStack.create({
      project: "crash-members-tokens",
      files: { "index.ts": program },
      env: serverEnv(server),
      config: Object.fromEntries(teams.map((id, t) => [`team${t}`, id])),
    });
    const posts = (route: RegExp) =>
      Object.entries(server.stats().byRoute)
        .filter(([r]) => route.test(r))
        .reduce((n, [, c]) => n + c, 0);
    const tokenCreates = () => posts(/^POST .*\/teams\/:\w+\/authentication-tokens$/);
    const invites = () => posts(/^POST .*\/organizations\/:\w+\/organization-memberships$/);
    // The people of this organization before the run: the owners' user only, never an email of the program.
    const theirs = (await membershipsOnServer(server)).map((m) => m.id);

    const stopped = await upInterrupted(stack, "SIGKILL", () => tokenCreates() >= TEAMS && invites() >= 3);
    expect(stopped.code, stopped.output).not.toBe(0);

    const ours = async () => (await membershipsOnServer(server)).filter((m) => !theirs.includes(m.id));
    const tokens = () => teamTokensOnServer(server);
    // Creates in flight when the CLI died still land: wait until the server settles.
    const invitedBefore = await settledList(ours, "the organization's memberships");
    const tokensBefore = await settledList(tokens, "the teams' tokens");
    expect(invitedBefore.length).toBeGreaterThan(0);
    expect(invitedBefore.length).toBeLessThan(PEOPLE);
    expect(tokensBefore.length).toBeGreaterThan(0);
    expect(tokensBefore.length).toBeLessThan(TOKENS);
    const inState = (type: string) => stack.resources(`dynamic/workspaces:${type}`).map((r) => r.id);
    // At least one create's answer was lost (on the server, not in the state).
    const lost = [
      ...invitedBefore.filter((m) => !inState("OrganizationMembership").includes(m.id)),
      ...tokensBefore.filter((t) => !inState("TeamToken").includes(t.id)),
    ];
    expect(lost.length).toBeGreaterThan(0);

    const cancel = await stack.pulumi(["cancel", "--yes", "--non-interactive"]);
    if (cancel.code !== 0) expect(cancel.output).toMatch(/not.*(locked|in progress)|no .*update|nothing/i);
    const up = await stack.upWithEvents();
    expect(up.code, up.output.slice(-4000)).toBe(0);
    expect(up.diagnostics.filter((d) => d.severity === "error")).toEqual([]);

    const invitedAfter = await ours();
    expect(invitedAfter.map((m) => m.email).sort()).toEqual(
      Array.from({ length: PEOPLE }, (_, p) => `person-${p}@example.com`).sort(),
    );
    expect(inState("OrganizationMembership").sort()).toEqual(invitedAfter.map((m) => m.id).sort());
    const tokensAfter = await settledList(tokens, "the teams' tokens");
    for (let t = 0; t < TEAMS; t++) {
      const own = tokensAfter.filter((k) => k.teamId === teams[t]);
      // Each declared description once on its team (the stack's origin may follow it).
      expect(own.map((k) => /^ci \d+-\d+/.exec(k.description ?? "")?.[0]).sort(), `team ${t}`).toEqual(
        Array.from({ length: PER_TEAM }, (_, k) => `ci ${t}-${k}`).sort(),
      );
    }
    expect(inState("TeamToken").sort()).toEqual(tokensAfter.map((k) => k.id).sort());
    // A token whose secret was lost is not left behind to work.
    for (const t of tokensBefore.filter((k) => !inState("TeamToken").includes(k.id)))
      expect((await api(server, `/authentication-tokens/${t.id}`)).status, t.id).toBe(404);

    await stack.ok(["refresh", "--clear-pending-creates", "--yes", "--non-interactive", "--skip-preview"]);
    const preview = await stack.previewJson(["--expect-no-changes"]);
    expect(preview.steps.filter((s) => s.op !== "same").map((s) => `${s.op} ${s.urn.split("::").pop()}`)).toEqual([]);
    expect(preview.code, preview.raw.output.slice(-4000)).toBe(0);
    expect(preview.raw.output).not.toMatch(/pending operations/);
  });
});
