/**
 * The generator, and who is in the organization and its teams and the tokens its automation
 * runs with, against the real server: each membership (invited or active) adopted by email;
 * each team's people as an additive TeamMembers referring to the generated memberships, the
 * service users behind tokens never listed; the team and organization tokens adopted, never
 * regenerated, each with the expiry it has and never with a secret; an expired token named,
 * not declared; stack `organization` of a split program owning them; a program of one project
 * declaring none; the reads it takes; and that every program type-checks.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type WorkspacesClient } from "../../src/client";
import { generate, ORGANIZATION_STACK, type GenerateResult, type SplitResult } from "../../src/generate";
import { IMPORT_IDS } from "../../src/plugin/import-ids";
import { fakeClient } from "../client/fake-service";
import { startOtfLike } from "../client/otf-like";
import type { RunningServer } from "../../src/server";
import { generateBoth, seededServer, statementOf as declaredBy, typeErrors } from "./check";
import type { Seeded } from "./seed";
import { EMAILS, seedMembers, type SeededMembers } from "./seed-members";

let server: RunningServer;
let seeded: Seeded;
let members: SeededMembers;
let client: WorkspacesClient;
let dir: string;
let result: GenerateResult;
let reads: Record<string, number>;
let split: SplitResult;

beforeAll(async () => {
  ({ server, seeded, client } = await seededServer(6, 0));
  members = await seedMembers(server, client);
  ({ dir, result, reads, split } = await generateBoth(server, client, "pw-generate-members-"));
}, 90_000);

afterAll(async () => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  await server?.close();
});

/** The statement that declares the resource named `name`, on one line. */
const statementOf = (program: string, kind: string, name: string) =>
  declaredBy(program, kind, name)
    .replace(/\s+/g, " ")
    .replace(/, ([}\]])/g, " $1");
const names = (program: string, kind: string) =>
  [...program.matchAll(new RegExp(`new ${kind}\\("([^"]+)"`, "g"))].map((m) => m[1]).sort();
/** The identifier the program binds a membership to. */
const ident = (email: string) => `${email.replace(/[^A-Za-z0-9]+(\w)/g, (_, c: string) => c.toUpperCase())}Membership`;

describe("generate with memberships, team members and tokens", () => {
  it("declares each membership, invited or active, with adopt: true by email", () => {
    for (const email of EMAILS) {
      expect(statementOf(result.program, "OrganizationMembership", email)).toBe(
        `new OrganizationMembership(${JSON.stringify(email)}, { email: ${JSON.stringify(email)}, organization, adopt: true });`,
      );
      expect(result.program).toContain(`export const ${ident(email)} = new OrganizationMembership(`);
    }
    expect(result.program).toContain("// Organization memberships: each person, invited or active, adopted by email");
  });

  it("declares each team's people as an additive list, by reference to the generated memberships, never a service user", async () => {
    // The service lists the legacy token's service user among the developers' users.
    const onService = await client.teamMembers.list(members.teams.get("developers")!);
    expect(onService.filter((m) => m.serviceAccount)).toHaveLength(1);
    expect(statementOf(result.program, "TeamMembers", "developers-members")).toBe(
      `new TeamMembers("developers-members", { teamId: developersTeam.id, organizationMembershipIds: [${ident(EMAILS[0])}.id] });`,
    );
    // Bob joined by username, Carol (still invited) by her membership: both by membership here.
    expect(statementOf(result.program, "TeamMembers", "operators-members")).toBe(
      `new TeamMembers("operators-members", { teamId: operatorsTeam.id, organizationMembershipIds: [${ident(EMAILS[1])}.id, ${ident(EMAILS[2])}.id] });`,
    );
    // The legacy token's service user is among the developers' users on the service, and in no list here.
    expect(result.program).not.toMatch(/usernames:/);
    expect(result.program).not.toMatch(/mode:/);
    // The lists come after the memberships they refer to.
    expect(result.program.indexOf("new TeamMembers(")).toBeGreaterThan(
      result.program.lastIndexOf("new OrganizationMembership("),
    );
  });

  it("declares each token to adopt with the expiry it has, says how to get a secret, and names the expired one", () => {
    const expiry = (key: string) => JSON.stringify(members.expiries.get(key));
    expect(names(result.program, "TeamToken")).toEqual([
      "developers-ci-token",
      "developers-token",
      "operators-deploy-token",
    ]);
    expect(statementOf(result.program, "TeamToken", "developers-token")).toBe(
      `new TeamToken("developers-token", { teamId: developersTeam.id, expiresAt: ${expiry("developers-legacy")}, adopt: true });`,
    );
    expect(statementOf(result.program, "TeamToken", "developers-ci-token")).toBe(
      `new TeamToken("developers-ci-token", { teamId: developersTeam.id, description: "ci", expiresAt: ${expiry("developers-ci")}, adopt: true });`,
    );
    // A token made without an expiry has the service's default one: declared as it is.
    expect(statementOf(result.program, "TeamToken", "operators-deploy-token")).toBe(
      `new TeamToken("operators-deploy-token", { teamId: operatorsTeam.id, description: "deploy", expiresAt: ${expiry("operators-deploy")}, adopt: true });`,
    );
    expect(statementOf(result.program, "OrganizationToken", "organization-token")).toBe(
      `new OrganizationToken("organization-token", { organization, expiresAt: ${expiry("organization")}, adopt: true });`,
    );
    expect(statementOf(result.program, "OrganizationToken", "audit-trail-token")).toBe(
      `new OrganizationToken("audit-trail-token", { organization, tokenType: "audit-trails", expiresAt: ${expiry("audit-trails")}, adopt: true });`,
    );
    expect(result.program).toContain(
      "// The service never shows a token's secret again, so an adopted token has no `token` output",
    );
    expect(result.program).toMatch(
      new RegExp(
        `// Not declared: the token of team operators described "short-lived" \\(${members.expiredToken}\\) expired on \\S+ and no longer authenticates\\.`,
      ),
    );
    const imports = fs.readFileSync(result.importPath!, "utf8");
    for (const text of [result.program, result.readme, imports]) {
      for (const secret of members.secrets) expect(text).not.toContain(secret);
      expect(text).not.toContain(server.token);
    }
  });

  it("counts each kind, in the README too", () => {
    expect(result.counts).toMatchObject({ teamMembers: expect.any(Number), teamTokens: 3, organizationTokens: 2 });
    expect(result.counts.organizationMemberships).toBeGreaterThanOrEqual(EMAILS.length);
    expect(result.readme).toContain(
      `- ${result.counts.organizationMemberships} organization memberships (invited and active people, adopted by email) and ${result.counts.teamMembers} teams' lists of people`,
    );
    expect(result.readme).toContain("- 3 team tokens and 2 organization tokens, adopted without their secrets");
  });

  it("lists each record in the bulk import file by an id of a form the import-id table documents", () => {
    const { resources } = JSON.parse(fs.readFileSync(result.importPath!, "utf8")) as {
      resources: { type: string; name: string; id: string }[];
    };
    const idOf = (kind: string, name: string) =>
      resources.find((r) => r.type === `workspaces:index:${kind}` && r.name === name)?.id;
    for (const email of EMAILS) expect(idOf("OrganizationMembership", email)).toBe(members.memberships.get(email));
    expect(idOf("TeamMembers", "developers-members")).toBe(members.teams.get("developers"));
    expect(idOf("TeamToken", "developers-token")).toBe(members.teams.get("developers"));
    expect(idOf("TeamToken", "developers-ci-token")).toBe(members.teamTokens.get("developers-ci"));
    expect(idOf("OrganizationToken", "organization-token")).toBe(server.organization);
    expect(idOf("OrganizationToken", "audit-trail-token")).toBe(`${server.organization}/audit-trails`);
    const forms: [string, RegExp][] = [
      ["OrganizationMembership", /^ou-/],
      ["TeamMembers", /^team-/],
      ["TeamToken", /^at-/],
      ["TeamToken", /^team-/],
      ["OrganizationToken", /^<org/],
      ["OrganizationToken", /audit-trails$/],
    ];
    for (const [kind, form] of forms)
      expect(
        IMPORT_IDS[kind]?.forms.some((f) => form.test(f.form)),
        `${kind} ${String(form)}`,
      ).toBe(true);
  });

  it("reads the memberships and the team tokens in one list each, each team's people in one read, and writes nothing", () => {
    expect(Object.keys(reads).filter((r) => !r.startsWith("GET "))).toEqual([]);
    expect(reads["GET /api/v2/organizations/:organization_name/organization-memberships"]).toBe(1);
    expect(reads["GET /api/v2/organizations/:organization_name/team-tokens"]).toBe(1);
    // The owners team, developers and operators: one read each brings its users and memberships.
    expect(reads["GET /api/v2/teams/:id"]).toBe(members.teams.size);
    expect(reads["GET /api/v2/organizations/:organization_name/authentication-token"]).toBe(2);
  });

  it("type-checks against this package (as built in dist/)", () => {
    expect(typeErrors([result.programPath])).toEqual([]);
  }, 60_000);

  it("for one project, declares none of them and reads none", async () => {
    const before = server.stats().byRoute["GET /api/v2/organizations/:organization_name/organization-memberships"] ?? 0;
    const r = await generate({ client, projectId: seeded.projects[1], out: path.join(dir, "project", "index.ts") });
    expect(server.stats().byRoute["GET /api/v2/organizations/:organization_name/organization-memberships"] ?? 0).toBe(
      before,
    );
    expect(r.program).not.toMatch(/new (OrganizationMembership|TeamMembers|TeamToken|OrganizationToken)\(/);
    expect(r.counts).toMatchObject({
      organizationMemberships: 0,
      teamMembers: 0,
      teamTokens: 0,
      organizationTokens: 0,
    });
  }, 60_000);
});

describe("generate --split-by project with memberships and tokens", () => {
  const file = (name: string) => fs.readFileSync(path.join(split.dir, name), "utf8");

  it("gives stack organization the memberships, the teams' lists and the tokens, by reference within it", () => {
    const organization = file(split.stacks.find((s) => s.name === ORGANIZATION_STACK)!.file);
    expect(names(organization, "OrganizationMembership")).toEqual(names(result.program, "OrganizationMembership"));
    expect(statementOf(organization, "TeamMembers", "developers-members")).toContain(`[${ident(EMAILS[0])}.id]`);
    expect(names(organization, "TeamToken")).toHaveLength(3);
    for (const s of split.stacks.filter((s) => s.projectId))
      expect(file(s.file)).not.toMatch(/new (OrganizationMembership|TeamMembers|TeamToken|OrganizationToken)\(/);
    expect(split.counts).toMatchObject(result.counts);
    for (const f of split.written) for (const secret of members.secrets) expect(file(f)).not.toContain(secret);
  });

  it("type-checks, every stack file", () => {
    expect(typeErrors(split.stacks.map((s) => path.join(split.dir, s.file)))).toEqual([]);
  }, 60_000);
});

describe("generate on a server without memberships or tokens (as OTF answers)", () => {
  it("declares none of them, and still writes the rest", async () => {
    const otf = await startOtfLike();
    try {
      const otfClient = fakeClient(otf.service, { rateLimit: false });
      await otfClient.workspaces.create("acme", { name: "web" });
      const r = await generate({ client: otfClient, organization: "acme", out: path.join(dir, "otf", "index.ts") });
      expect(r.program).toContain('new Workspace("web"');
      expect(r.program).not.toMatch(/new (OrganizationMembership|TeamMembers|TeamToken|OrganizationToken)\(/);
      expect(r.counts).toMatchObject({
        organizationMemberships: 0,
        teamMembers: 0,
        teamTokens: 0,
        organizationTokens: 0,
      });
    } finally {
      await otf.close();
    }
  });
});
