/**
 * A parent deleted out of band never strands its children: every resource that lives under
 * a workspace, project, team or variable set records its organization, so once the parent
 * is deleted over HTTP (by hand, by another stack) a refresh drops the child and a destroy
 * counts it deleted, under the 404 rule (./not-visible.test.ts). A token that cannot see
 * the parent still gets the error with its two ways out, and state written before the
 * organization was recorded is judged through the stack's configured organization.
 * Against the real local server, through the entry point as the engine calls it.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { dispatch, PROTOCOL } from "../../src/resources/entry";
import { configureFromStack } from "../../src/resources/provider-settings";
import { resetClients } from "../../src/resources/providers/client";
import { api, createProject, startHarness, uniqueName, type Harness } from "./helpers";

type Props = Record<string, any>;

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ selfManaged: true });
});
afterAll(async () => {
  await h?.close();
});
afterEach(() => as(h.server.token));

/** Points the providers at the same server with another token (and organization, unless `null`). */
function as(token: string, organization: string | null = h.org): void {
  const config: Record<string, string> = { "workspaces:address": h.server.url, "workspaces:token": token };
  if (organization !== null) config["workspaces:organization"] = organization;
  configureFromStack({ config: { get: (k: string) => config[k] } });
  resetClients();
}

const call = (kind: string, method: string, ...args: unknown[]) =>
  dispatch(PROTOCOL, kind, method, args) as Promise<any>;

async function create(kind: string, news: Props): Promise<{ id: string; outs: Props }> {
  const checked = await call(kind, "check", {}, news);
  expect(checked.failures).toEqual([]);
  return call(kind, "create", checked.inputs);
}

async function ok(res: Promise<{ status: number; json: any }>): Promise<any> {
  const r = await res;
  if (r.status >= 300) throw new Error(`${r.status} ${JSON.stringify(r.json)}`);
  return r.json;
}

const newWorkspace = async () =>
  (
    await ok(
      api(h, "POST", `/organizations/${h.org}/workspaces`, {
        data: { type: "workspaces", attributes: { name: uniqueName("parent") } },
      }),
    )
  ).data.id as string;
const newTeam = async () =>
  (
    await ok(
      api(h, "POST", `/organizations/${h.org}/teams`, {
        data: { type: "teams", attributes: { name: uniqueName("team"), visibility: "organization" } },
      }),
    )
  ).data.id as string;
const newSet = async () =>
  (
    await ok(
      api(h, "POST", `/organizations/${h.org}/varsets`, {
        data: { type: "varsets", attributes: { name: uniqueName("set"), global: false } },
      }),
    )
  ).data.id as string;

const DELETE_PATH = { workspace: "/workspaces/", project: "/projects/", team: "/teams/", set: "/varsets/" };

/** One child kind, the parent deleted out of band, and what the child is declared with. */
interface Case {
  kind: string;
  parent: keyof typeof DELETE_PATH;
  /** Which organization-wide permission a token needs for the 404 to prove the child gone. */
  sees: "every workspace" | "every project";
  /** Another parent outlives the deleted one and tells the organization to state without one. */
  survivor?: string;
  /**
   * The variable set, readable by every member, no longer lists the deleted target: that
   * proves the application gone to any member's token.
   */
  setProves?: true;
  declare(parents: { workspace: string; other: string; project: string; team: string; set: string }): Props;
}

const CASES: Case[] = [
  {
    kind: "WorkspaceVariable",
    parent: "workspace",
    sees: "every workspace",
    declare: (p) => ({ workspaceId: p.workspace, key: "region", value: "eu", category: "env" }),
  },
  {
    kind: "WorkspaceVariables",
    parent: "workspace",
    sees: "every workspace",
    declare: (p) => ({ workspaceId: p.workspace, variables: [{ key: "a", value: "1", category: "env" }] }),
  },
  {
    kind: "VariableSetApplication",
    parent: "workspace",
    survivor: "the variable set",
    setProves: true,
    sees: "every workspace",
    declare: (p) => ({ variableSetId: p.set, workspaceId: p.workspace }),
  },
  {
    kind: "VariableSetApplication",
    parent: "set",
    survivor: "the project",
    sees: "every workspace",
    declare: (p) => ({ variableSetId: p.set, projectId: p.project }),
  },
  {
    kind: "TeamWorkspaceAccess",
    parent: "workspace",
    survivor: "the team",
    sees: "every workspace",
    declare: (p) => ({ teamId: p.team, workspaceId: p.workspace, access: "read" }),
  },
  {
    kind: "TeamWorkspaceAccess",
    parent: "team",
    survivor: "the workspace",
    sees: "every workspace",
    declare: (p) => ({ teamId: p.team, workspaceId: p.workspace, access: "write" }),
  },
  {
    kind: "TeamProjectAccess",
    parent: "project",
    survivor: "the team",
    sees: "every project",
    declare: (p) => ({ teamId: p.team, projectId: p.project, access: "read" }),
  },
  {
    kind: "NotificationConfiguration",
    parent: "workspace",
    sees: "every workspace",
    declare: (p) => ({
      workspaceId: p.workspace,
      name: "ops",
      destinationType: "generic",
      url: "http://127.0.0.1:9/hook",
      enabled: false,
    }),
  },
  {
    kind: "RunTrigger",
    parent: "workspace",
    survivor: "the source workspace",
    sees: "every workspace",
    declare: (p) => ({ workspaceId: p.workspace, sourceWorkspaceId: p.other }),
  },
  {
    kind: "WorkspaceTags",
    parent: "workspace",
    sees: "every workspace",
    declare: (p) => ({ workspaceId: p.workspace, tagNames: ["web"] }),
  },
  {
    kind: "RemoteStateConsumers",
    parent: "workspace",
    sees: "every workspace",
    declare: (p) => ({ workspaceId: p.workspace, consumerIds: [p.other] }),
  },
  {
    kind: "WorkspaceLock",
    parent: "workspace",
    sees: "every workspace",
    declare: (p) => ({ workspaceId: p.workspace, reason: "freeze" }),
  },
  {
    kind: "DataRetentionPolicy",
    parent: "workspace",
    sees: "every workspace",
    declare: (p) => ({ workspaceId: p.workspace, deleteOlderThanNDays: 30 }),
  },
];

/** Parents, a child declared on them, then its parent deleted over HTTP. */
async function orphan(c: Case): Promise<{ id: string; outs: Props }> {
  const parents = {
    workspace: await newWorkspace(),
    other: await newWorkspace(),
    project: await createProject(h, uniqueName("prj")),
    team: await newTeam(),
    set: await newSet(),
  };
  const child = await create(c.kind, c.declare(parents));
  expect(child.outs.organization).toBe(h.org);
  const parentId = c.parent === "set" ? parents.set : parents[c.parent];
  await ok(api(h, "DELETE", DELETE_PATH[c.parent] + parentId));
  return child;
}

/** A token of a team of the organization that has no access of its own. */
async function memberToken(): Promise<string> {
  const team = await newTeam();
  return (await ok(api(h, "POST", `/teams/${team}/authentication-token`))).data.attributes.token as string;
}

function rejection(p: Promise<unknown>): Promise<Error> {
  return p.then(
    () => {
      throw new Error("expected a rejection");
    },
    (e: Error) => e,
  );
}

const title = (c: Case) => `${c.kind} (${c.parent === "set" ? "variable set" : c.parent} deleted)`;

describe("a child whose parent was deleted out of band", () => {
  for (const c of CASES) {
    it(`${title(c)}: refresh drops it, delete succeeds, and a token that cannot see the parent gets both ways out`, async () => {
      const child = await orphan(c);

      as(await memberToken());
      if (c.setProves) {
        expect((await call(c.kind, "read", child.id, child.outs)).props).toBeUndefined();
        await expect(call(c.kind, "delete", child.id, child.outs)).resolves.toBeUndefined();
      } else
        for (const [action, run] of [
          ["refresh", () => call(c.kind, "read", child.id, child.outs)],
          ["delete", () => call(c.kind, "delete", child.id, child.outs)],
        ] as const) {
          const err = await rejection(run());
          expect(err.message).toMatch(new RegExp(`^cannot ${action} `));
          expect(err.message).toContain(`cannot see ${c.sees} of organization "${h.org}"`);
          expect(err.message).toMatch(/again with a token that can see it/);
          expect(err.message).toContain("pulumi state delete <urn>");
          expect(err.message).not.toMatch(/earlier release|adopted with `get`/);
        }

      as(h.server.token);
      const read = await call(c.kind, "read", child.id, child.outs);
      expect(read.props).toBeUndefined();
      await expect(call(c.kind, "delete", child.id, child.outs)).resolves.toBeUndefined();
    });
  }
});

describe("state written before the organization was recorded", () => {
  const stripped = (outs: Props) => Object.fromEntries(Object.entries(outs).filter(([k]) => k !== "organization"));

  it("a child whose parent still exists records the parent's organization on refresh", async () => {
    const workspace = await newWorkspace();
    const child = await create("WorkspaceVariable", { workspaceId: workspace, key: "k", value: "v", category: "env" });
    const read = await call("WorkspaceVariable", "read", child.id, stripped(child.outs));
    expect(read.props.organization).toBe(h.org);
  });

  it("a child read with `get` (nothing recorded) whose workspace is gone: the message names that cause alone", async () => {
    const child = await orphan(CASES[0]);
    expect((await call(CASES[0].kind, "read", child.id, {})).props).toBeUndefined();
    as(h.server.token, null);
    const prior = process.env.WORKSPACES_ORGANIZATION;
    delete process.env.WORKSPACES_ORGANIZATION;
    try {
      const err = await rejection(call(CASES[0].kind, "read", child.id, {}));
      expect(err.message).toContain("read with `get`");
      expect(err.message).not.toContain("earlier release");
    } finally {
      if (prior !== undefined) process.env.WORKSPACES_ORGANIZATION = prior;
    }
  });

  for (const c of CASES) {
    it(`${title(c)}: judged through the stack's configured organization`, async () => {
      const child = await orphan(c);
      const old = stripped(child.outs);
      expect((await call(c.kind, "read", child.id, old)).props).toBeUndefined();
      await expect(call(c.kind, "delete", child.id, old)).resolves.toBeUndefined();

      // No organization configured either: only a parent that outlives the deleted one tells.
      as(h.server.token, null);
      const prior = process.env.WORKSPACES_ORGANIZATION;
      delete process.env.WORKSPACES_ORGANIZATION;
      try {
        if (c.survivor) {
          expect((await call(c.kind, "read", child.id, old)).props).toBeUndefined();
          await expect(call(c.kind, "delete", child.id, old)).resolves.toBeUndefined();
          return;
        }
        const err = await rejection(call(c.kind, "read", child.id, old));
        expect(err.message).toMatch(/^cannot read /);
        expect(err.message).toContain("written by an earlier release");
        expect(err.message).toContain("workspaces:organization");
        expect(err.message).not.toContain("`get`");
        expect(err.message).toContain("pulumi state delete <urn>");
      } finally {
        if (prior !== undefined) process.env.WORKSPACES_ORGANIZATION = prior;
      }
    });
  }
});
