import { beforeEach, describe, expect, it } from "vitest";
import {
  AgentToken,
  OrganizationToken,
  Team,
  TeamMembers,
  TeamToken,
  ownersTeamNotAuthoritative,
  teamTokenDescribed,
  tokenExpiry,
} from "../rules";
import { DOORS, LAYOUTS, through, unknown, validateStack } from "./harness";

const DAY = 24 * 60 * 60 * 1000;
const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString();

const EXPIRY_FIX =
  "Fix: set expiresInDays to 90 or fewer (or expiresAt at most 90 days ahead); the preview plans the token's rotation once it expires, or rotateBeforeDays before.";

describe.each(DOORS)("door: %s", (door) => {
  const { validate } = through(door);

  /** Each token kind with the inputs that name its team or organization. */
  const kinds = [
    ["TeamToken", TeamToken, { teamId: "team-1", description: "ci" }],
    ["OrganizationToken", OrganizationToken, { organization: "acme" }],
  ] as const;

  describe.each(kinds)("token-expiry on a %s", (kindName, kind, base) => {
    it("reports a token without an expiry, or with one further than maxDays, naming the way out", async () => {
      const none = await validate(tokenExpiry, kind, base, { name: "ci" });
      expect(none.violations).toEqual([
        `${kindName} "ci": declares no expiry (expiresInDays or expiresAt), so the token stays valid until it is deleted. ${EXPIRY_FIX}`,
      ]);
      // Adopting a token does not exempt it: the declaration says how long it may live.
      const adopted = await validate(tokenExpiry, kind, { ...base, adopt: true }, { name: "ci" });
      expect(adopted.violations).toHaveLength(1);
      const long = await validate(tokenExpiry, kind, { ...base, expiresInDays: 365 }, { name: "ci" });
      expect(long.violations).toEqual([`${kindName} "ci": expiresInDays is 365, more than 90 days. ${EXPIRY_FIX}`]);
      const at = inDays(120);
      const far = await validate(tokenExpiry, kind, { ...base, expiresAt: at }, { name: "ci" });
      expect(far.violations).toEqual([
        `${kindName} "ci": expiresAt ${JSON.stringify(at)} is 120 days ahead, more than 90. ${EXPIRY_FIX}`,
      ]);
      // The limit is the config's.
      const tight = await validate(tokenExpiry, kind, { ...base, expiresInDays: 30 }, { config: { maxDays: 7 } });
      expect(tight.violations).toEqual([expect.stringContaining("expiresInDays is 30, more than 7 days. Fix:")]);
    });

    it("passes an expiry within maxDays, and one the engine does not know yet", async () => {
      for (const props of [
        { ...base, expiresInDays: 90 },
        { ...base, expiresInDays: 7, rotateBeforeDays: 2 },
        { ...base, expiresAt: inDays(89) },
        { ...base, expiresInDays: unknown.string },
        { ...base, expiresAt: unknown.string },
      ]) {
        expect((await validate(tokenExpiry, kind, props)).violations, JSON.stringify(props)).toEqual([]);
      }
      expect(
        (await validate(tokenExpiry, kind, { ...base, expiresInDays: 365 }, { config: { maxDays: 400 } })).violations,
      ).toEqual([]);
    });
  });

  it("token-expiry leaves agent tokens alone (they have no expiry)", async () => {
    expect((await validate(tokenExpiry, AgentToken, { agentPoolId: "apool-1", description: "ci" })).notApplicable).toBe(
      "Policy only applies to TeamToken, OrganizationToken resources",
    );
  });

  describe("team-token-described", () => {
    it("reports a team token without a description (the team's legacy token), and passes a described one", async () => {
      const out = await validate(
        teamTokenDescribed,
        TeamToken,
        { teamId: "team-1", expiresInDays: 30 },
        { name: "ci" },
      );
      expect(out.violations).toEqual([
        `TeamToken "ci": description is not set, so this is the team's single legacy token, which any other create of a legacy token for the team revokes. ` +
          "Fix: set description; a team has several described tokens, and each is revoked only on its own.",
      ]);
      for (const description of ["ci", unknown.string]) {
        expect((await validate(teamTokenDescribed, TeamToken, { teamId: "team-1", description })).violations).toEqual(
          [],
        );
      }
      expect((await validate(teamTokenDescribed, OrganizationToken, { organization: "acme" })).notApplicable).toBe(
        "Policy only applies to TeamToken resources",
      );
    });
  });
});

const OWNERS_FIX =
  'Fix: use mode "additive" (the default), which adds the declared members and removes only those it added, or list the members who must stay in ignoreUsernames.';

describe.each(LAYOUTS)("doors: %s", (layout) => {
  const { stackResource, reset } = through(layout);
  beforeEach(reset);

  describe("owners-team-not-authoritative", () => {
    it("reports an authoritative list of the owners team, known by its teamName, naming the way out", async () => {
      const members = stackResource(TeamMembers, "owners-members", {
        teamId: "team-owners1",
        teamName: "owners",
        mode: "authoritative",
        usernames: ["alice"],
      });
      const out = await validateStack(ownersTeamNotAuthoritative, [members]);
      expect(out.violations).toEqual([
        {
          message:
            'TeamMembers "owners-members": mode "authoritative" manages the whole list of the owners team (its teamName is "owners"), ' +
            `so every member it does not declare is removed, owners included. ${OWNERS_FIX}`,
          urn: members.urn,
        },
      ]);
    });

    it("finds the owners team through the Team of the stack its teamId comes from, in a preview or by id", async () => {
      const owners = stackResource(Team, "owners", { name: "owners", adopt: true });
      // In a preview the team's id is not known: the property dependency names the Team.
      const preview = stackResource(
        TeamMembers,
        "preview",
        { teamId: unknown.string, mode: "authoritative", organizationMembershipIds: ["ou-1"] },
        { teamId: [owners] },
      );
      const deployed = stackResource(
        Team,
        "admins",
        { name: "owners", adopt: true },
        {},
        { outputs: { id: "team-own", name: "owners" } },
      );
      // A literal id of a Team the stack declares.
      const byId = stackResource(TeamMembers, "by-id", { teamId: "team-own", mode: "authoritative", usernames: [] });
      const out = await validateStack(ownersTeamNotAuthoritative, [owners, preview, deployed, byId]);
      expect(out.violations.map((v) => [v.urn, v.message.split(", so ")[0]])).toEqual([
        [
          preview.urn,
          'TeamMembers "preview": mode "authoritative" manages the whole list of the owners team (its teamId is Team "owners"\'s)',
        ],
        [
          byId.urn,
          'TeamMembers "by-id": mode "authoritative" manages the whole list of the owners team (its teamId is Team "admins"\'s)',
        ],
      ]);
    });

    it("passes additive lists, an ignore list, other teams and a team not known yet", async () => {
      const owners = stackResource(Team, "owners", { name: "owners", adopt: true });
      const platform = stackResource(Team, "platform", { name: "platform" });
      const resources = [
        owners,
        platform,
        stackResource(TeamMembers, "default-mode", { teamId: "team-1", teamName: "owners", usernames: ["a"] }),
        stackResource(
          TeamMembers,
          "additive",
          { teamId: unknown.string, mode: "additive", usernames: ["a"] },
          { teamId: [owners] },
        ),
        stackResource(
          TeamMembers,
          "ignoring",
          { teamId: unknown.string, mode: "authoritative", usernames: ["a"], ignoreUsernames: ["root"] },
          { teamId: [owners] },
        ),
        stackResource(TeamMembers, "ignoring-unknown", {
          teamId: "team-1",
          teamName: "owners",
          mode: "authoritative",
          ignoreUsernames: unknown.array,
        }),
        stackResource(
          TeamMembers,
          "platform-members",
          { teamId: unknown.string, mode: "authoritative", usernames: ["a"] },
          { teamId: [platform] },
        ),
        stackResource(TeamMembers, "not-known", { teamId: unknown.string, mode: "authoritative", usernames: ["a"] }),
      ];
      expect((await validateStack(ownersTeamNotAuthoritative, resources)).violations).toEqual([]);
    });

    it("guards the teams the config names, by name or id", async () => {
      const platform = stackResource(Team, "platform", { name: "platform" });
      const byName = stackResource(
        TeamMembers,
        "platform-members",
        { teamId: unknown.string, mode: "authoritative", usernames: ["a"] },
        { teamId: [platform] },
      );
      const byId = stackResource(TeamMembers, "break-glass", {
        teamId: "team-bg",
        mode: "authoritative",
        usernames: ["a"],
      });
      const ownersNow = stackResource(TeamMembers, "owners-members", {
        teamId: "team-1",
        teamName: "owners",
        mode: "authoritative",
      });
      const out = await validateStack(ownersTeamNotAuthoritative, [platform, byName, byId, ownersNow], {
        teams: ["platform", "team-bg"],
      });
      expect(out.violations.map((v) => [v.urn, v.message.split(", so ")[0]])).toEqual([
        [
          byName.urn,
          'TeamMembers "platform-members": mode "authoritative" manages the whole list of team "platform", listed in teams (its teamId is Team "platform"\'s)',
        ],
        [
          byId.urn,
          'TeamMembers "break-glass": mode "authoritative" manages the whole list of team "team-bg", listed in teams (its teamId is "team-bg")',
        ],
      ]);
    });
  });
});
