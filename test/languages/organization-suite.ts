/**
 * The assertions on the organization stack (organization.json), the same for every language:
 * a project, a team, its access to a workspace and to the project, a run trigger and a
 * notification configuration go through up, a no-change preview, an edit of each, drift made
 * over HTTP (refresh shows it, up restores it; the run trigger deleted and made again),
 * `pulumi import` of a record of each kind made over HTTP by its documented id, and destroy,
 * which leaves the workspaces and the notification configuration the stack did not create.
 * Where runs execute, in the same steps: an agent pool that is not organization-scoped, the
 * workspaces it allows, an agent token (rotated by the edit), and WorkspaceSettings both on the
 * stack's own workspace (the one-`up` program of docs/agent-pools.md: the pool, the workspace,
 * the list and the settings with no order given) and on a workspace made over HTTP, which it
 * changes only where it declares a value, clears where it declares an empty list, and puts
 * back at destroy. The service's own policies, in the same steps: a policy from inline code
 * (its code edited, and uploaded over HTTP as drift), a set of it and a global set uploaded from
 * a folder, a plain and a sensitive parameter of the second, the workspaces the first applies to
 * and those the second leaves out; the import step takes over a policy, a set, a parameter
 * and the set's four lists. The five lookups (getTeam, getEffectiveAccess,
 * getWorkspaceOutputs, getAgentPool, getPolicySet) read records made over HTTP, so that their
 * results are known. The checkpoint never holds the token, a notification token (plain
 * literals in every program), an agent token (exported by the program), the sensitive
 * output's value or the sensitive parameter's value in plain text; the server never answers
 * the sensitive parameter's value.
 */
import { createHash } from "node:crypto";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import { startTestServer } from "../e2e/harness";
import { createWorkspace, expectStatus, uploadState } from "../e2e/server-helpers";
import { LanguageStack, type Language, type StackKind, type StepResult } from "./drivers";
import {
  agentPool,
  agentPoolsByName,
  api,
  makeAgentRecords,
  plainTokenOutputs,
  workspaceName,
  workspaceSettings,
} from "./organization-agents";
import {
  driftPolicies,
  makePolicyRecords,
  parameterAnswers,
  parameterValueProblems,
  policiesHeld,
  policyNames,
} from "./organization-policies";
import {
  accept,
  makeMemberRecords,
  membersHeld,
  membershipsOf,
  organizationTokenId,
  removeMember,
  statusWith,
} from "./organization-members";
import {
  organization,
  organizationAt,
  ownApiTokens,
  ownTokens,
  organizationSecrets,
  organizationYaml,
  type OrganizationRefs,
  type OrganizationStep,
  type OrganizationValues,
} from "./organization";
import { occurrences } from "./suite";

const KIND: StackKind<OrganizationValues> = {
  project: organization.project,
  stack: organization.stack,
  program: "organization",
  yaml: organizationYaml,
};

const describeResult = (r: StepResult) => r.output;

/** `v` with the keys of its objects in camel case: Python exports an SDK's output objects by their Python names (`team_id`). */
function camelKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(camelKeys);
  if (v && typeof v === "object")
    return Object.fromEntries(
      Object.entries(v).map(([k, x]) => [k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()), camelKeys(x)]),
    );
  return v;
}
const urnName = (urn: string) => urn.split("::").pop()!;

export function organizationSuite(language: Language): void {
  describe(`the stack of organization.json in ${language}`, () => {
    let server: RunningServer;
    let stack: LanguageStack<OrganizationValues>;
    let refs: OrganizationRefs;
    let ids: Record<string, string> = {};
    /** The agent, team and organization tokens' secrets the programs exported so far: none may be in the checkpoint in plain text. */
    const agentTokens: string[] = [];
    const at = (step: OrganizationStep) => organizationAt(step, refs);
    const org = () => server.organization;

    /** A JSON:API write that must succeed; its body. */
    const write = (method: string, path: string, body: unknown, what: string) =>
      expectStatus(api<any>(server, path, { method, body }), [200, 201, 204], what);

    beforeAll(async () => {
      // Its notification names a destination off this machine, enabled: stored without delivering.
      server = await startTestServer({ storeRemoteNotifications: true });
      const s = organization.server;
      const workspaces = Object.fromEntries(
        await Promise.all(
          Object.entries(s.workspaces).map(async ([k, name]) => [k, await createWorkspace(server, name)]),
        ),
      ) as Record<keyof typeof s.workspaces, string>;
      await uploadState(server, workspaces.upstreamId, {
        version: 4,
        serial: 1,
        lineage: "languages",
        outputs: Object.fromEntries(
          Object.entries(s.outputs).map(([k, o]) => [k, { value: o.value, type: "string", sensitive: o.sensitive }]),
        ),
        resources: [],
      });
      const t = s.theirs;
      const project = await write(
        "POST",
        `/organizations/${org()}/projects`,
        { data: { type: "projects", attributes: t.project } },
        "their project",
      );
      const team = await write(
        "POST",
        `/organizations/${org()}/teams`,
        { data: { type: "teams", attributes: t.team } },
        "their team",
      );
      /** Their team's access to a workspace or a project. */
      const grant = (target: "workspace" | "project", id: string, access: string) =>
        write(
          "POST",
          `/team-${target}s`,
          {
            data: {
              type: `team-${target}s`,
              attributes: { access },
              relationships: {
                team: { data: { type: "teams", id: team.data.id } },
                [target]: { data: { type: `${target}s`, id } },
              },
            },
          },
          `their ${target} access`,
        );
      const workspaceAccess = await grant("workspace", workspaces.upstreamId, t.workspaceAccess);
      const projectAccess = await grant("project", project.data.id, t.projectAccess);
      const trigger = await write(
        "POST",
        `/workspaces/${workspaces.downstreamId}/run-triggers`,
        {
          data: {
            type: "run-triggers",
            relationships: { sourceable: { data: { type: "workspaces", id: workspaces.upstreamId } } },
          },
        },
        "their run trigger",
      );
      const notification = async (attributes: object) =>
        write(
          "POST",
          `/workspaces/${workspaces.appId}/notification-configurations`,
          { data: { type: "notification-configurations", attributes } },
          "a notification configuration",
        );
      const theirNotification = await notification(t.notification);
      await notification(s.kept);
      const byName = Object.fromEntries(
        Object.entries(s.workspaces).map(([k, n]) => [n, workspaces[k as keyof typeof s.workspaces]]),
      );
      const agents = await makeAgentRecords(
        server,
        byName,
        { [t.project.name]: project.data.id },
        workspaces.settingsId,
      );
      const policies = await makePolicyRecords(server, byName, { [t.project.name]: project.data.id });
      const members = await makeMemberRecords(server, team.data.id);
      refs = {
        ...workspaces,
        theirProjectId: project.data.id,
        theirTeamId: team.data.id,
        theirWorkspaceAccessId: workspaceAccess.data.id,
        theirProjectAccessId: projectAccess.data.id,
        theirRunTriggerId: trigger.data.id,
        theirNotificationId: theirNotification.data.id,
        ...agents,
        ...policies,
        ...members,
        policiesFolder: path.join(__dirname, "policies"),
      };
      stack = await LanguageStack.create(language, server, KIND);
    });
    afterAll(async () => {
      stack?.dispose();
      await server?.close();
    });

    /** The records of the organization of a kind (`projects`, `teams`), by name. */
    async function byName(kind: "projects" | "teams"): Promise<Record<string, any>> {
      const body = await expectStatus(
        api<any>(server, `/organizations/${org()}/${kind}?page%5Bsize%5D=100`),
        [200],
        `list ${kind}`,
      );
      return Object.fromEntries(body.data.map((x: any) => [x.attributes.name, x]));
    }

    /** The access records (`team-workspaces`, `team-projects`) on one workspace or project. */
    async function grants(kind: "team-workspaces" | "team-projects", targetId: string): Promise<any[]> {
      const filter = kind === "team-workspaces" ? "workspace" : "project";
      const body = await expectStatus(
        api<any>(server, `/${kind}?filter%5B${filter}%5D%5Bid%5D=${targetId}`),
        [200],
        `list ${kind}`,
      );
      return body.data;
    }

    /** The run triggers into a workspace. */
    async function inbound(workspaceId: string): Promise<any[]> {
      const body = await expectStatus(
        api<any>(server, `/workspaces/${workspaceId}/run-triggers?filter%5Brun-trigger%5D%5Btype%5D=inbound`),
        [200],
        "inbound run triggers",
      );
      return body.data;
    }

    async function notifications(workspaceId: string): Promise<Record<string, any>> {
      const body = await expectStatus(
        api<any>(server, `/workspaces/${workspaceId}/notification-configurations`),
        [200],
        "notification configurations",
      );
      return Object.fromEntries(body.data.map((x: any) => [x.attributes.name, x]));
    }

    /** The program's own records, as the server holds them. */
    async function own() {
      const v = at("first");
      const [[, p]] = Object.entries(v.projects);
      const [[, t]] = Object.entries(v.teams);
      const [[, n]] = Object.entries(v.notifications);
      const project = (await byName("projects"))[p.name];
      const team = (await byName("teams"))[t.name];
      const forTeam = (x: any) => x.relationships.team.data.id === team?.id;
      return {
        project,
        team,
        workspaceAccess: team && (await grants("team-workspaces", refs.appId)).find(forTeam),
        projectAccess: team && project && (await grants("team-projects", project.id)).find(forTeam),
        triggers: await inbound(refs.appId),
        notification: (await notifications(refs.appId))[n.name],
        agentPool: ids.runners ? await agentPool(server, ids.runners) : undefined,
      };
    }

    /** The names of policies or workspaces by their ids. */
    const namesOf = (kind: "policies" | "workspaces", list: string[]) =>
      Promise.all(
        list.map(async (id) =>
          kind === "workspaces"
            ? workspaceName(server, id)
            : (await expectStatus(api<any>(server, `/policies/${id}`), [200], id)).data.attributes.name,
        ),
      );

    /** The server holds what organization.json expects after `step`. */
    async function expectServer(step: "first" | "edit"): Promise<void> {
      const want = organization.expect[step];
      expect.soft(await policiesHeld(server, ids, namesOf, want.policies), "policies").toEqual(want.policies);
      expect
        .soft(await membersHeld(server, ids, ids.developers, want.members), "members and team tokens")
        .toEqual(want.members);
      expect(await organizationTokenId(server, "audit-trails"), "the audit-trail token").toBe(ids.audit);
      const got = await own();
      expect.soft(got.project?.attributes, "project").toMatchObject(want.project);
      expect.soft(got.team?.attributes, "team").toMatchObject(want.team);
      expect.soft(got.workspaceAccess?.attributes, "workspace access").toMatchObject(want.workspaceAccess);
      expect.soft(got.projectAccess?.attributes, "project access").toMatchObject(want.projectAccess);
      const names = Object.fromEntries(
        Object.entries(organization.server.workspaces).map(([k, n]) => [refs[k as keyof OrganizationRefs], n]),
      );
      expect
        .soft(
          got.triggers.map((x) => names[x.relationships.sourceable.data.id]),
          "the app's run triggers, by source",
        )
        .toEqual([want.runTriggerSource]);
      // The service's record keeps the stack's origin in the URL's fragment, which no delivery sends.
      const notification = got.notification && {
        ...got.notification.attributes,
        url: got.notification.attributes.url?.split("#")[0],
      };
      expect.soft(notification, "notification configuration").toMatchObject(want.notification);
      expect(got.notification?.attributes.token ?? null, "the notification's token is never read back").toBeNull();

      expect.soft(got.agentPool?.record.attributes, "agent pool").toMatchObject(want.agentPool.attributes);
      expect.soft(got.agentPool?.allowed, "the workspaces the pool allows").toEqual(want.agentPool.allowed);
      expect
        .soft(
          await workspaceSettings(server, ids["agent-app"], want.agentWorkspace, ids.runners),
          "the stack's workspace",
        )
        .toEqual(want.agentWorkspace);
      expect
        .soft(
          await workspaceSettings(server, refs.settingsId, want.settings, ids.runners),
          "the workspace owned elsewhere",
        )
        .toEqual(want.settings);
      // Only the program's token, its description as declared (the service's record may say more after it).
      expect(
        got.agentPool?.tokens.map((t) => t.id),
        "the pool's tokens",
      ).toEqual([ids["runners-token"]]);
      for (const [t, description] of (got.agentPool?.tokens ?? []).map((x, i) => [x, want.tokens[i]] as const))
        expect(t.description.startsWith(description), t.description).toBe(true);
    }

    /** Each token's secret as the last step exported it, by resource name. */
    const lastSecret: Record<string, string> = {};
    /**
     * Keeps the agent, team and organization tokens' secrets a step exported, none empty: a
     * new value for each token the step made (`made`; every one when absent), the same value
     * as before for every other.
     */
    function keepTokens(step: OrganizationStep, outputs: Record<string, any>, made?: string[]): void {
      const exported = outputs.agentTokens ?? {};
      expect(Object.keys(exported).sort(), "the agent tokens exported").toEqual(ownTokens(at(step)).sort());
      const api = outputs.apiTokens ?? {};
      expect(Object.keys(api).sort(), "the team and organization tokens exported").toEqual(
        ownApiTokens(at(step)).sort(),
      );
      for (const [name, value] of Object.entries<string>({ ...exported, ...api })) {
        expect(typeof value === "string" && value.length > 0, `${name}: a token's secret`).toBe(true);
        if (made && !made.includes(name)) {
          expect(value === lastSecret[name], `${name}: the same secret, the token kept`).toBe(true);
          continue;
        }
        expect(agentTokens.includes(value), `${name}: a new secret, once`).toBe(false);
        agentTokens.push(value);
        lastSecret[name] = value;
      }
    }

    /** Neither the token nor a secret of the program is anywhere in the checkpoint in plain text. */
    async function expectNoPlainSecret(step: OrganizationStep): Promise<void> {
      const doc = JSON.parse((await stack.exported()).text);
      expect(occurrences(doc, server.token), "the token in the checkpoint").toEqual([]);
      for (const literal of organizationSecrets(at(step)))
        expect(occurrences(doc, literal), `${literal} in the checkpoint`).toEqual([]);
      for (const [i, secret] of agentTokens.entries())
        expect(occurrences(doc, secret), `agent token ${i + 1} in the checkpoint`).toEqual([]);
      // Each token the stack made is there, encrypted.
      const { resources } = await stack.exported();
      const own = [...ownTokens(at(step)), ...ownApiTokens(at(step))];
      const kept = resources.filter((r) => own.some((k) => r.urn.endsWith(`::${k}`)));
      expect(kept.map((r) => r.outputs?.token === undefined)).toEqual(own.map(() => false));
      expect(plainTokenOutputs(resources)).toEqual([]);
      // A sensitive parameter's value encrypted, a plain one's readable (sensitive: false is honoured).
      expect(parameterValueProblems(resources)).toEqual([]);
      expect(resources.filter((r) => r.type === "workspaces:index:PolicySetParameter").length).toBe(
        Object.keys(at(step).parameters).length,
      );
    }

    async function expectNoChange(step: OrganizationStep): Promise<void> {
      const p = await stack.preview(at(step));
      expect(p.ok, describeResult(p)).toBe(true);
      const changed = p.steps.filter((s) => s.op !== "same").map((s) => `${s.op} ${urnName(s.urn)}`);
      expect(changed, describeResult(p)).toEqual([]);
    }

    it("up creates a resource of each kind, and each lookup reads what was made over HTTP", async () => {
      const r = await stack.up(at("first"));
      expect(r.ok, describeResult(r)).toBe(true);
      ids = r.outputs.ids;
      expect(Object.keys(ids).sort()).toEqual(Object.keys(organization.edits).sort());
      await expectServer("first");
      const got = await own();
      expect(ids.platform).toBe(got.project.id);
      expect(ids.developers).toBe(got.team.id);
      expect(ids["developers-app"]).toBe(got.workspaceAccess.id);
      expect(ids.alerts).toBe(got.notification.id);
      expect(ids.runners).toBe(got.agentPool?.record.id);
      keepTokens("first", r.outputs);

      // getOrganizationMembers and getTeamMembers read the member and the team made over HTTP.
      const theirs = organization.server.theirs;
      expect(camelKeys(r.outputs.members), JSON.stringify(r.outputs.members)).toMatchObject([
        { id: refs.theirMembershipId, email: theirs.member.email, status: "invited", teamIds: [refs.theirTeamId] },
      ]);
      expect(camelKeys(r.outputs.teamMembers)).toEqual({
        teamName: theirs.team.name,
        organizationMembershipIds: [refs.theirMembershipId],
      });
      // The tokens expire when declared, and work with their rights and not past them.
      const days = (iso: string) => (Date.parse(iso) - Date.now()) / 86_400_000;
      const teamToken = await api<any>(server, `/authentication-tokens/${ids["developers-ci"]}`);
      expect(days(teamToken.body.data.attributes["expired-at"])).toBeCloseTo(30, 0);
      const { "developers-ci": ci, audit } = r.outputs.apiTokens;
      expect(await statusWith(server, ci, `/organizations/${org()}/workspaces`), "the team token reads").toBe(200);
      const made = await api(server, `/organizations/${org()}/projects`, {
        token: ci,
        method: "POST",
        body: { data: { type: "projects", attributes: { name: "lang-not-allowed" } } },
      });
      expect([403, 404], "the team token makes no project").toContain(made.status);
      expect(await statusWith(server, audit, `/organizations/${org()}/workspaces`), "the audit token").not.toBe(200);

      expect(r.outputs.teamId).toBe(refs.theirTeamId);
      expect(r.outputs.teamVisibility).toBe(organization.server.theirs.team.visibility);
      const access = (camelKeys(r.outputs.accessTeams) as any[]).find((x) => x.teamId === refs.theirTeamId);
      expect(access, JSON.stringify(r.outputs.accessTeams)).toMatchObject({
        teamName: organization.server.theirs.team.name,
        access: organization.server.theirs.workspaceAccess,
        sources: [
          { kind: "workspace", id: refs.theirWorkspaceAccessId, access: organization.server.theirs.workspaceAccess },
        ],
      });
      const outputs = organization.server.outputs;
      expect(r.outputs.upstreamOutputs).toEqual(
        Object.fromEntries(Object.entries(outputs).map(([k, o]) => [k, o.value])),
      );
      expect(r.outputs.upstreamSensitive).toEqual(
        Object.keys(outputs)
          .filter((k) => outputs[k].sensitive)
          .sort(),
      );
      expect(r.outputs.poolId).toBe(refs.theirPoolId);
      expect(r.outputs.poolScoped).toBe(organization.server.theirs.agentPool["organization-scoped"]);
      expect(r.outputs.poolAllowed).toEqual([refs.downstreamId]);

      const v = at("first");
      expect(ids["require-tags"]).toMatch(/^pol-/);
      expect(ids.guardrails).toMatch(/^polset-/);
      const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
      expect(r.outputs.policyDigests).toEqual(
        Object.fromEntries(Object.entries(v.policies).map(([k, p]) => [k, sha256(p.code)])),
      );
      expect(r.outputs.folderDigests.everywhere).toMatch(/^[0-9a-f]{64}$/);
      expect(camelKeys(r.outputs.policySet)).toEqual({
        id: refs.theirPolicySetId,
        kind: "sentinel",
        global: false,
        policyIds: [],
        workspaceIds: [refs.downstreamId],
        projectIds: [refs.theirProjectId],
        workspaceExclusionIds: [refs.upstreamId],
        projectExclusionIds: [refs.theirExcludedProjectId],
      });
    });

    it("the SDK asks for the plugin of its own version, the one installed in PULUMI_HOME", async () => {
      expect(await stack.providersUsed()).toEqual(stack.expectedProviders());
    });

    it("the checkpoint holds neither the token, the notification token, an agent token, the sensitive output nor the sensitive parameter in plain text", async () => {
      await expectNoPlainSecret("first");
      const answers = await parameterAnswers(server, ids);
      for (const p of Object.values(at("first").parameters))
        expect(answers.includes(p.value), `${p.key} in the server's answers`).toBe(!p.sensitive);
    });

    it("previews no change", async () => {
      await expectNoChange("first");
    });

    it("edits each resource: in place, and the run trigger and the rotated agent and team tokens by replacement", async () => {
      // The person invited as grace accepts: the membership is active, and the edit puts them in the team.
      await accept(server, ids.grace);
      const p = await stack.preview(at("edit"));
      expect(p.ok, describeResult(p)).toBe(true);
      expect(p.output, "the preview says why the team token is replaced").toMatch(/rotation requested/);
      const r = await stack.up(at("edit"));
      expect(r.ok, describeResult(r)).toBe(true);
      // What a preview would plan, read from what the update did: the same records for an
      // update, a new one for a replacement.
      const ops = Object.values(organization.edits);
      for (const op of ["update", "replace"])
        expect(r.changes[op] ?? 0, `${op}: ${describeResult(r)}`).toBe(ops.filter((x) => x === op).length);
      for (const [k, op] of Object.entries(organization.edits)) {
        if (op === "replace") expect(r.outputs.ids[k], k).not.toBe(ids[k]);
        else expect(r.outputs.ids[k], k).toBe(ids[k]);
      }
      ids = r.outputs.ids;
      keepTokens(
        "edit",
        r.outputs,
        Object.keys(organization.edits).filter((k) => organization.edits[k] === "replace"),
      );
      await expectServer("edit");
      await expectNoPlainSecret("edit");
    });

    it("shows changes made over HTTP in refresh, and up restores them", async () => {
      const d = organization.drift;
      const got = await own();
      const patch = (type: string, path: string, id: string, attributes: object) =>
        write("PATCH", `/${path}/${id}`, { data: { type, id, attributes } }, `drift ${type}`);
      await patch("projects", "projects", got.project.id, d.project);
      await patch("teams", "teams", got.team.id, d.team);
      await patch("team-workspaces", "team-workspaces", got.workspaceAccess.id, d.workspaceAccess);
      await patch("team-projects", "team-projects", got.projectAccess.id, d.projectAccess);
      await patch("notification-configurations", "notification-configurations", got.notification.id, d.notification);
      await write("DELETE", `/run-triggers/${got.triggers[0].id}`, undefined, "drift: delete the run trigger");
      await patch("agent-pools", "agent-pools", ids.runners, d.agentPool);
      await patch("workspaces", "workspaces", refs.settingsId, d.settings);
      await write(
        "DELETE",
        `/authentication-tokens/${ids["runners-token"]}`,
        undefined,
        "drift: delete the agent token",
      );
      await driftPolicies(server, ids, refs);
      await removeMember(server, ids.developers, ids[d.members.removed]);
      await write(
        "DELETE",
        `/authentication-tokens/${ids["developers-ci"]}`,
        undefined,
        "drift: delete the team token",
      );

      const refreshed = await stack.refreshDrift(at("edit"));
      expect(refreshed.ok, describeResult(refreshed)).toBe(true);
      expect(refreshed.changes.update ?? 0, describeResult(refreshed)).toBe(d.updated.length);
      expect(refreshed.changes.delete ?? 0, describeResult(refreshed)).toBe(d.deleted.length);
      const r = await stack.up(at("edit"));
      expect(r.ok, describeResult(r)).toBe(true);
      expect(r.changes.update ?? 0, describeResult(r)).toBe(d.updated.length);
      expect(r.changes.create ?? 0, describeResult(r)).toBe(d.deleted.length);
      // Restored in place: the same records, and the deleted trigger and token made again.
      for (const k of d.updated) expect(r.outputs.ids[k], k).toBe(ids[k]);
      ids = r.outputs.ids;
      keepTokens("edit", r.outputs, d.deleted);
      await expectServer("edit");
      await expectNoPlainSecret("edit");
    });

    it("takes over a record of each kind made over HTTP with pulumi import, with no change to preview once declared", async () => {
      const v = at("import");
      const r = await stack.import(v);
      expect(r.ok, describeResult(r)).toBe(true);
      expect(r.changes.import ?? 0, describeResult(r)).toBe(v.imports.length);
      const { resources } = await stack.exported();
      const imported = Object.fromEntries(
        v.imports.map((i) => [i.resource, resources.find((x) => x.urn.endsWith(`::${i.resource}`))?.id]),
      );
      // The id in the state: the import's, or the record's own where the import names it otherwise.
      expect(imported).toEqual(Object.fromEntries(v.imports.map((i) => [i.resource, i.stateId ?? i.id])));
      // `pulumi import` writes the state alone; a Go or Python up with the import option has
      // already failed if the declared inputs differed from the record's (the engine diffs them).
      if (language === "yaml") await expectNoChange("import");
    });

    it("destroy removes every record of the stack, the imported ones included, and leaves what it did not create", async () => {
      const v = at("import");
      const r = await stack.destroy(v);
      expect(r.ok, describeResult(r)).toBe(true);
      const { resources } = await stack.exported();
      expect(resources.filter((x) => x.custom && !x.type.startsWith("pulumi:"))).toEqual([]);

      const projects = await byName("projects");
      for (const p of Object.values(v.projects)) expect(projects[p.name], p.name).toBeUndefined();
      const teams = await byName("teams");
      for (const t of Object.values(v.teams)) expect(teams[t.name], t.name).toBeUndefined();
      expect(await grants("team-workspaces", refs.appId)).toEqual([]);
      expect(await grants("team-workspaces", refs.upstreamId)).toEqual([]);
      expect(await inbound(refs.appId)).toEqual([]);
      expect(await inbound(refs.downstreamId)).toEqual([]);
      expect(Object.keys(await notifications(refs.appId))).toEqual([organization.server.kept.name]);
      for (const name of Object.values(organization.server.workspaces)) {
        const res = await api(server, `/organizations/${org()}/workspaces/${name}`);
        expect(res.status, name).toBe(200);
      }
      const pools = await agentPoolsByName(server);
      for (const p of Object.values(v.agentPools)) expect(pools[p.name], p.name).toBeUndefined();
      // Every policy and set the stack made or took over is gone: none was made otherwise.
      expect(await policyNames(server, "policies")).toEqual([]);
      expect(await policyNames(server, "policy-sets")).toEqual([]);
      // No membership, and no organization token, of the stack or taken over by it is left.
      const emails = Object.values(v.memberships).map((m) => m.email);
      expect(Object.keys(await membershipsOf(server, emails))).toEqual([]);
      for (const t of Object.values(v.organizationTokens))
        expect(await organizationTokenId(server, t.tokenType ?? "organization"), t.tokenType).toBeUndefined();
      // The workspace owned elsewhere, as it was before the stack: what the settings changed is put back.
      const want = organization.destroyed;
      expect(await workspaceSettings(server, refs.settingsId, want, undefined)).toEqual(want);
    });
  });
}
