/**
 * Who is in a team and the tokens CI runs with, through the real engine, from the TypeScript
 * door, against the local server (its database on disk, its request log kept):
 *
 * - two `OrganizationMembership`s (one accepted by the person with their own user token on
 *   the local accept route, `active` after a refresh; one left `invited`), a `TeamMembers`
 *   additive list and an authoritative one (another team) with `ignoreUsernames`, a
 *   described `TeamToken` with `expiresInDays`, an `OrganizationToken`, and both lookups:
 *   up, a no-change preview, an edit (a member added, `rotation` changed: a replacement
 *   with its reason in the preview), a `rotateBeforeDays` reaching the expiry (a planned
 *   replacement with its reason), drift made over HTTP (a member removed, a member added to
 *   the authoritative team, the token deleted) that refresh shows and up restores, never
 *   removing the ignored user or a service user, `pulumi import` of each kind by its
 *   documented id (no write) and a destroy that leaves what the stack did not make;
 * - the tokens made by the resources act with their team's or organization's rights and
 *   not past them, and a rotated one is refused;
 * - each secret is in the checkpoint only encrypted and nowhere else: not in any output of
 *   the CLI, the server's later answers, its database file or its log.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import { expectSecretNowhere, forgetPluginResources, importEach, writesSince } from "./engine-steps";
import { api, serverEnv, startTestServer, TestStack, type PulumiResult } from "./harness";
import {
  accept,
  changeTeamMembers,
  createOrganizationToken,
  createTeam,
  createTeamToken,
  createWorkspace,
  expectStatus,
  invite,
  statusWith,
  teamMembersOnServer,
  teamTokensOnServer,
  type Invited,
} from "./server-helpers";

interface Shape {
  /** Alice (active by then) joins the additive list by username. */
  aliceInDevs: boolean;
  rotation: string;
  rotateBeforeDays: number;
}

const FIRST: Shape = { aliceInDevs: false, rotation: "2026-11", rotateBeforeDays: 0 };
const EDITED: Shape = { ...FIRST, aliceInDevs: true, rotation: "2026-12" };
const DUE: Shape = { ...EDITED, rotateBeforeDays: 31 };

const program = (o: Shape) => `
import * as pulumi from "@pulumi/pulumi";
import {
  OrganizationMembership,
  OrganizationToken,
  TeamMembers,
  TeamToken,
  getOrganizationMembers,
  getTeamMembers,
} from "pulumi-workspaces";

const config = new pulumi.Config();
const [devs, ops, bot] = ["devs", "ops", "bot"].map((k) => config.require(k));

const alice = new OrganizationMembership("alice", { email: "alice@example.com" });
const bob = new OrganizationMembership("bob", { email: "bob@example.com" });
const devMembers = new TeamMembers("dev-members", {
  teamId: devs,
  organizationMembershipIds: [bob.id],
  ${o.aliceInDevs ? 'usernames: [config.require("alice")],' : ""}
});
const opsMembers = new TeamMembers("ops-members", {
  teamId: ops,
  mode: "authoritative",
  organizationMembershipIds: [alice.id],
  ignoreUsernames: [bot],
});
const token = new TeamToken("ops-token", {
  teamId: ops,
  description: "ci deploys",
  expiresInDays: 30,
  rotation: ${JSON.stringify(o.rotation)},
});
const orgToken = new OrganizationToken("org-token", { expiresInDays: 30, rotateBeforeDays: ${o.rotateBeforeDays} });

export const ids = { alice: alice.id, bob: bob.id, token: token.id, orgToken: orgToken.id };
export const status = { alice: alice.status, bob: bob.status };
export const people = { alice: alice.username, aliceUser: alice.userId, bobUser: bob.userId };
export const teamNames = { devs: devMembers.teamName, ops: opsMembers.teamName };
export const expiry = { team: token.expiredAt, org: orgToken.expiredAt };
export const secrets = { team: token.token, org: orgToken.token };
// Read once the lists are written.
export const organizationMembers = pulumi
  .all([devMembers.id, opsMembers.id])
  .apply(() => getOrganizationMembers({ emails: ["alice@example.com", "bob@example.com"] }));
export const opsLooked = opsMembers.id.apply(() => getTeamMembers({ teamId: ops }));
`;

interface Outputs {
  ids: { alice: string; bob: string; token: string; orgToken: string };
  status: { alice: string; bob: string };
  people: { alice: string; aliceUser: string; bobUser: string };
  teamNames: { devs: string; ops: string };
  expiry: { team: string; org: string };
  secrets: { team: string; org: string };
  organizationMembers: any;
  opsLooked: any;
}

const DAY = 86_400_000;

describe("organization memberships, team members and tokens through the engine (TypeScript)", () => {
  let server: RunningServer;
  let stack: TestStack;
  let dbDir: string;
  let log = "";
  const team = { devs: "", ops: "", qa: "" };
  const ws = { granted: "", hidden: "" };
  /** People made out of band: bot (ignored on ops), dana (on devs before the stack), carol (added to ops by hand). */
  let bot: Invited, dana: Invited, carol: Invited;
  /** The legacy token of ops made out of band: its service user must stay on the team. */
  let opsLegacy: { id: string; token: string };
  /** Every secret the resources answered, looked for everywhere at the end. */
  const secrets = new Set<string>();
  /** Every CLI run's output and every answer of the server read here. */
  const printed: string[] = [];

  beforeAll(async () => {
    dbDir = fs.mkdtempSync(path.join(os.tmpdir(), "pw-members-db-"));
    server = await startTestServer({
      db: path.join(dbDir, "server.db"),
      logLevel: "trace",
      logDestination: { write: (line) => (log += line) },
    });
    for (const k of Object.keys(team) as Array<keyof typeof team>) team[k] = await createTeam(server, k);
    for (const k of Object.keys(ws) as Array<keyof typeof ws>) ws[k] = await createWorkspace(server, `members-${k}`);
    // ops may read one workspace: what its token may do, and no more.
    await expectStatus(
      api(server, "/team-workspaces", {
        method: "POST",
        body: {
          data: {
            type: "team-workspaces",
            attributes: { access: "read" },
            relationships: {
              team: { data: { type: "teams", id: team.ops } },
              workspace: { data: { type: "workspaces", id: ws.granted } },
            },
          },
        },
      }),
      [201],
      "grant ops read",
    );
    bot = await invite(server, "bot@example.com");
    await accept(server, bot);
    carol = await invite(server, "carol@example.com");
    await accept(server, carol);
    dana = await invite(server, "dana@example.com");
    await changeTeamMembers(server, team.ops, "POST", "users", [bot.username]);
    await changeTeamMembers(server, team.devs, "POST", "organization-memberships", [dana.id]);
    opsLegacy = await createTeamToken(server, team.ops);
    stack = await TestStack.create({
      project: "members-tokens-e2e",
      files: { "index.ts": program(FIRST) },
      env: serverEnv(server),
      config: { devs: team.devs, ops: team.ops, bot: bot.username, alice: "-" },
    });
  });
  afterAll(async () => {
    stack?.dispose();
    await server?.close();
    if (dbDir) fs.rmSync(dbDir, { recursive: true, force: true });
  });

  const run = async (r: Promise<PulumiResult>): Promise<PulumiResult> => {
    const done = await r;
    printed.push(done.output);
    expect(done.code, done.output.slice(-4000)).toBe(0);
    return done;
  };
  const outputs = async (): Promise<Outputs> => {
    const o = (await stack.outputs()) as Outputs;
    for (const s of Object.values(o.secrets ?? {})) if (s) secrets.add(s);
    return o;
  };
  /** A raw answer of the server, kept to be searched for the secrets. */
  const answer = async (p: string) => {
    const r = await api<any>(server, p);
    printed.push(JSON.stringify(r.body ?? ""));
    return r;
  };
  const noChange = async () => {
    stack.env.PULUMI_NODEJS_TRANSPILE_ONLY = "true";
    const p = await stack.expectNoChanges().finally(() => delete stack.env.PULUMI_NODEJS_TRANSPILE_ONLY);
    printed.push(p.raw.output);
  };
  const changes = (steps: Array<{ op: string; urn: string }>) =>
    steps
      .filter((s) => s.op !== "same")
      .map((s) => `${s.op} ${s.urn.split("::").pop()}`)
      .sort();
  /**
   * What a preview plans (`op name`; the steps of a replacement as one `replace`) and the
   * reasons it gives for a new token, one line each (the engine's warnings and infos).
   */
  const planned = async (env: Record<string, string> = {}) => {
    Object.assign(stack.env, env);
    const p = await stack.previewJson().finally(() => {
      for (const k of Object.keys(env)) delete stack.env[k];
    });
    printed.push(p.raw.output);
    expect(p.code, p.raw.output.slice(-4000)).toBe(0);
    const diagnostics = (JSON.parse(p.raw.stdout).diagnostics ?? []) as Array<{ message: string; severity: string }>;
    return {
      changes: [...new Set(changes(p.steps.map((s) => ({ ...s, op: /replace/.test(s.op) ? "replace" : s.op }))))],
      reasons: diagnostics
        .filter((d) => /warning|info/.test(d.severity) && /new token/.test(d.message))
        .map((d) => d.message.trim())
        .sort(),
    };
  };
  /** The token acts with ops' rights: reads the workspace ops may read, writes nothing, sees nothing else. */
  const expectOpsRights = async (token: string) => {
    expect(await statusWith(server, token, `/workspaces/${ws.granted}`)).toBe(200);
    expect(
      await statusWith(server, token, `/workspaces/${ws.granted}`, "PATCH", {
        data: { type: "workspaces", attributes: { description: "written by a read token" } },
      }),
    ).toBeOneOf([403, 404]);
    expect(await statusWith(server, token, `/workspaces/${ws.hidden}`)).toBe(404);
  };
  /** Neither team keeps a service user less than before, nor loses the ignored user. */
  const expectOpsKept = (before: string[], after: { usernames: string[]; serviceUsers: string[] }) => {
    expect(after.usernames).toContain(bot.username);
    for (const u of before) expect(after.serviceUsers, u).toContain(u);
  };

  it("up invites both people, writes both lists and mints both tokens; the lookups read them; then no change", async () => {
    const opsBefore = await teamMembersOnServer(server, team.ops);
    expect(opsBefore.serviceUsers.length, "the legacy token's service user").toBeGreaterThan(0);
    await run(stack.up());
    const o = await outputs();
    expect(o.status).toEqual({ alice: "invited", bob: "invited" });
    expect(o.ids.alice).toMatch(/^ou-/);
    expect(o.ids.token).toMatch(/^at-/);
    expect(o.teamNames).toEqual({ devs: "devs", ops: "ops" });
    expect(o.secrets.team).toMatch(/\S{16,}/);
    expect(o.secrets.org).toMatch(/\S{16,}/);
    // expiresInDays counts from the create.
    expect(Math.abs(Date.parse(o.expiry.team) - (Date.now() + 30 * DAY))).toBeLessThan(DAY);

    const devs = await teamMembersOnServer(server, team.devs);
    expect(devs.membershipIds).toEqual([o.ids.bob, dana.id].sort());
    const ops = await teamMembersOnServer(server, team.ops);
    // Authoritative: alice (invited), the ignored bot and every service user stay; nobody else.
    expect(ops.membershipIds).toContain(o.ids.alice);
    expect(ops.usernames).toEqual([bot.username]);
    expectOpsKept(opsBefore.serviceUsers, ops);

    expect(o.organizationMembers.members.map((m: any) => [m.email, m.status, m.id]).sort()).toEqual([
      ["alice@example.com", "invited", o.ids.alice],
      ["bob@example.com", "invited", o.ids.bob],
    ]);
    expect(o.opsLooked).toMatchObject({ teamId: team.ops, teamName: "ops" });
    expect(o.opsLooked.organizationMembershipIds).toContain(o.ids.alice);
    expect(o.opsLooked.usernames).toContain(bot.username);
    expect(o.opsLooked.members.filter((m: any) => m.serviceAccount).length).toBeGreaterThan(0);

    await expectOpsRights(o.secrets.team);
    expect(await statusWith(server, o.secrets.org, `/organizations/${server.organization}/workspaces`)).toBe(200);
    await noChange();
    await stack.expectEncryptedOnly([o.secrets.team, o.secrets.org]);
  });

  it("alice accepts with her own token: a refresh shows her active; an edit adds her to devs and a new rotation replaces the token, saying why", async () => {
    const before = await outputs();
    await accept(server, { id: before.ids.alice, userId: before.people.aliceUser, username: "alice" });
    await run(stack.refresh());
    // A refresh updates the resources' state (the stack's outputs wait for the next up).
    const refreshed = stack.resources("dynamic/workspaces:OrganizationMembership");
    expect(Object.fromEntries(refreshed.map((r) => [r.id, r.outputs?.status]))).toEqual({
      [before.ids.alice]: "active",
      [before.ids.bob]: "invited",
    });
    await noChange();

    const username = String(refreshed.find((r) => r.id === before.ids.alice)?.outputs?.username);
    await stack.ok(["config", "set", "alice", username]);
    stack.writeFiles({ "index.ts": program(EDITED) });
    expect(await planned()).toEqual({
      changes: ["replace ops-token", "update dev-members"],
      reasons: [expect.stringMatching(new RegExp(`${before.ids.token}.*rotation requested`))],
    });

    await run(stack.up());
    const after = await outputs();
    expect(after.status).toEqual({ alice: "active", bob: "invited" });
    expect(after.ids.token).not.toBe(before.ids.token);
    expect(after.secrets.team).not.toBe(before.secrets.team);
    // Only the program's token was rotated.
    expect(after.ids.orgToken).toBe(before.ids.orgToken);
    expect(after.secrets.org).toBe(before.secrets.org);
    expect((await teamTokensOnServer(server, team.ops)).map((t) => t.id).sort()).toEqual(
      [after.ids.token, opsLegacy.id].sort(),
    );
    expect(await statusWith(server, before.secrets.team, `/workspaces/${ws.granted}`)).toBe(401);
    await expectOpsRights(after.secrets.team);
    const devs = await teamMembersOnServer(server, team.devs);
    expect(devs.usernames).toContain(username);
    expect(after.people.alice).toBe(username);
    expect(devs.membershipIds).toEqual(expect.arrayContaining([after.ids.bob, dana.id]));
    // Nothing regenerates a token but a declared rotation or its expiry.
    await noChange();
  });

  it("the expiry plans a replacement, saying why: within rotateBeforeDays, and once the clock passes it", async () => {
    const { ids, expiry } = await outputs();
    stack.writeFiles({ "index.ts": program(DUE) });
    expect(await planned()).toEqual({
      changes: ["replace org-token"],
      reasons: [
        expect.stringMatching(
          new RegExp(`${ids.orgToken}.* expires on ${expiry.org.slice(0, 10)}, within rotateBeforeDays \\(31\\)`),
        ),
      ],
    });
    stack.writeFiles({ "index.ts": program(EDITED) });
    await noChange();
    // The providers' test clock, a day past both expiries: each token is planned for rotation.
    const later = new Date(Date.parse(expiry.team) + DAY).toISOString();
    expect(await planned({ WORKSPACES_TEST_NOW: later })).toEqual({
      changes: ["replace ops-token", "replace org-token"],
      // Sorted: "organization token …" before "team token …".
      reasons: [
        expect.stringMatching(new RegExp(`${ids.orgToken}.* expired on ${expiry.org.slice(0, 10)}`)),
        expect.stringMatching(new RegExp(`${ids.token}.* expired on ${expiry.team.slice(0, 10)}`)),
      ],
    });
    await noChange();
  });

  it("drift: a member removed, a member added to the authoritative team and the token deleted over HTTP; refresh shows them, up restores them", async () => {
    const before = await outputs();
    await changeTeamMembers(server, team.devs, "DELETE", "organization-memberships", [before.ids.bob]);
    await changeTeamMembers(server, team.ops, "POST", "users", [carol.username]);
    await expectStatus(
      api(server, `/authentication-tokens/${before.ids.token}`, { method: "DELETE" }),
      [204],
      "delete the token",
    );
    const opsBefore = await teamMembersOnServer(server, team.ops);
    expect(opsBefore.usernames).toContain(carol.username);

    await run(stack.refresh());
    // The deleted token is gone from the state; both lists show what changed.
    expect(stack.resources("dynamic/workspaces:TeamToken")).toEqual([]);
    const preview = await stack.previewJson();
    printed.push(preview.raw.output);
    // Soft: the steps after it (the up, the import, the destroy) still run and report when it fails.
    expect.soft(changes(preview.steps)).toEqual(["create ops-token", "update dev-members", "update ops-members"]);

    await run(stack.up());
    const after = await outputs();
    expect(after.ids.token).not.toBe(before.ids.token);
    await expectOpsRights(after.secrets.team);
    expect((await teamMembersOnServer(server, team.devs)).membershipIds).toEqual(
      expect.arrayContaining([after.ids.bob, dana.id]),
    );
    const ops = await teamMembersOnServer(server, team.ops);
    expect.soft(ops.usernames).not.toContain(carol.username);
    expectOpsKept(opsBefore.serviceUsers, ops);
    // The legacy token made out of band still works: its service user was not removed.
    await expectOpsRights(opsLegacy.token);
    await noChange();
  });

  it("pulumi import takes over each kind by its documented id without one write", async () => {
    const erin = await invite(server, "erin@example.com");
    await changeTeamMembers(server, team.qa, "POST", "organization-memberships", [erin.id]);
    await changeTeamMembers(server, team.qa, "POST", "users", [carol.username]);
    const described = await createTeamToken(server, team.qa, "qa nightly");
    const legacy = await createTeamToken(server, team.qa);
    const audit = await createOrganizationToken(server, "audit-trails");
    const imports: Array<[string, string, string]> = [
      ["OrganizationMembership", "imp-erin", erin.id],
      ["OrganizationMembership", "imp-carol", `${server.organization}/carol@example.com`],
      ["TeamMembers", "imp-qa", team.qa],
      ["TeamToken", "imp-described", described.id],
      ["TeamToken", "imp-legacy", team.qa],
      ["OrganizationToken", "imp-audit", `${server.organization}/audit-trails`],
    ];
    const writes = server.stats().byRoute;
    const imported = await importEach(stack, imports);
    printed.push(imported.output);
    expect(writesSince(server, writes)).toEqual([]);
    const outputsOf = (name: string) => stack.resources().find((r) => r.urn.endsWith(`::${name}`))?.outputs;
    expect(outputsOf("imp-erin")).toMatchObject({
      email: "erin@example.com",
      organization: server.organization,
      status: "invited",
      userId: erin.userId,
    });
    expect(outputsOf("imp-carol")).toMatchObject({ email: "carol@example.com", status: "active" });
    const qa = outputsOf("imp-qa")!;
    expect(qa).toMatchObject({ teamId: team.qa, teamName: "qa" });
    // Each person once, under either list (the import names people by membership where the service shows one).
    expect(qa.organizationMembershipIds).toContain(erin.id);
    expect(
      [...(qa.usernames as string[]), ...(qa.organizationMembershipIds as string[])].filter((p) =>
        [carol.id, carol.username].includes(p),
      ),
    ).toHaveLength(1);
    expect(outputsOf("imp-described")).toMatchObject({ teamId: team.qa, description: "qa nightly" });
    expect(outputsOf("imp-legacy")).toMatchObject({ teamId: team.qa, tokenId: legacy.id });
    expect(outputsOf("imp-audit")).toMatchObject({
      organization: server.organization,
      tokenType: "audit-trails",
      tokenId: audit.id,
    });
    // An imported token has no secret: the service never shows one again.
    for (const name of ["imp-described", "imp-legacy", "imp-audit"]) expect(outputsOf(name)?.token ?? null).toBeNull();
    const state = stack.stateText();
    for (const s of [described.token, legacy.token, audit.token]) expect(state.includes(s)).toBe(false);

    // The program declares none of them: they leave the stack again and stay on the server.
    await forgetPluginResources(stack);
    await noChange();
    expect(await statusWith(server, described.token, `/teams/${team.qa}`)).toBe(200);
    expect(await statusWith(server, legacy.token, `/teams/${team.qa}`)).toBe(200);
  });

  it("destroy removes the invites (the pending one too), its members and its tokens, and leaves the rest; no secret anywhere", async () => {
    const o = await outputs();
    await run(stack.destroy());
    for (const id of [o.ids.alice, o.ids.bob])
      expect((await answer(`/organization-memberships/${id}`)).status).toBe(404);
    expect((await answer(`/authentication-tokens/${o.ids.token}`)).status).toBe(404);
    expect((await answer(`/organizations/${server.organization}/authentication-token`)).status).toBe(404);
    for (const s of [o.secrets.team, o.secrets.org])
      expect(await statusWith(server, s, `/organizations/${server.organization}`)).toBe(401);
    // The additive list removes only what it added; what the stack did not make stays.
    const devs = await teamMembersOnServer(server, team.devs);
    expect(devs.membershipIds).toEqual([dana.id]);
    const ops = await teamMembersOnServer(server, team.ops);
    expect(ops.usernames).toContain(bot.username);
    await expectOpsRights(opsLegacy.token);
    expect((await teamTokensOnServer(server, team.qa)).length).toBe(2);

    // The server's later answers: every token listing and read.
    await answer(`/organizations/${server.organization}/team-tokens`);
    await answer(`/teams/${team.ops}/authentication-token`);
    await answer(`/organizations/${server.organization}/authentication-token?token_type=audit-trails`);
    expect(secrets.size).toBeGreaterThanOrEqual(4);
    for (const secret of secrets) expectSecretNowhere(secret, { printed, log, dbDir, stack });
  });
});
