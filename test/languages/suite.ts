/**
 * The assertions of the languages suite, the same for every language: the stack of
 * stack.json goes through up, a no-change preview and a refresh without drift, an edit of
 * each kind, drift of variables made over HTTP (refresh shows it, up restores it),
 * clearing settings with `""` and `vcsRepo: {}`, `pulumi import` of a workspace and of a
 * variable made over HTTP, and destroy, which leaves what the stack did not create; after
 * each step, what the server holds is read over plain HTTP, and the checkpoint
 * (`pulumi stack export`) is searched for the token and for the sensitive variables'
 * values, which every program gives as plain literals.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import { api, startTestServer } from "../e2e/harness";
import {
  consumerIds,
  createProject,
  createRegistryModule,
  createVcsToken,
  createWorkspace,
  expectStatus,
  tagBindings,
  workspaceByName,
  workspaceVars,
} from "../e2e/server-helpers";
import { LanguageStack, type Language, type StepResult } from "./drivers";
import { description, sensitiveLiterals, valuesAt, type Expected, type Refs, type Step, type Variable } from "./stack";

/** Where `needle` occurs in a JSON document, as paths (`resources[net].inputs.variables[1].value`). */
export function occurrences(doc: unknown, needle: string, at = ""): string[] {
  if (typeof doc === "string") return doc.includes(needle) ? [at] : [];
  if (Array.isArray(doc)) {
    return doc.flatMap((x, i) => {
      const name = typeof x?.urn === "string" ? x.urn.split("::").pop() : i;
      return occurrences(x, needle, `${at}[${name}]`);
    });
  }
  if (doc && typeof doc === "object") {
    return Object.entries(doc).flatMap(([k, x]) => occurrences(x, needle, at ? `${at}.${k}` : k));
  }
  return [];
}

/** A variable made over HTTP on a workspace; returns its id. */
async function createVariable(server: RunningServer, workspaceId: string, v: Variable): Promise<string> {
  const body = await expectStatus(
    api<any>(server, `/workspaces/${workspaceId}/vars`, {
      method: "POST",
      body: { data: { type: "vars", attributes: v } },
    }),
    [201],
    `create variable ${v.key}`,
  );
  return body.data.id;
}

const sorted = (v: unknown) => (Array.isArray(v) ? [...v].sort() : v);
const describeResult = (r: StepResult) => r.output;

export function languageSuite(language: Language): void {
  describe(`the stack of stack.json in ${language}`, () => {
    let server: RunningServer;
    let stack: LanguageStack;
    let refs: Refs;
    let ids: Record<string, string> = {};
    const at = (step: Step) => valuesAt(step, refs);

    beforeAll(async () => {
      // Self-managed: data retention policies are a self-managed server's feature.
      server = await startTestServer({ runSpeed: 50, selfManaged: true });
      const s = description.server;
      const existing = await api<any>(server, `/organizations/${server.organization}/workspaces`, {
        method: "POST",
        body: { data: { type: "workspaces", attributes: s.existing } },
      });
      expect(existing.status, JSON.stringify(existing.body)).toBe(201);
      const sharedId = await createWorkspace(server, s.shared.name);
      await createVariable(server, sharedId, s.shared.theirs);
      refs = {
        oauthTokenId: await createVcsToken(server),
        moduleId: await createRegistryModule(server, s.module.name, s.module.provider, s.module.versions),
        projectId: await createProject(server, s.project),
        existingId: existing.body.data.id,
        sharedId,
        // The import id's documented form, ws-<id>/var-<id>.
        sharedVariableId: `${sharedId}/${await createVariable(server, sharedId, s.shared.imported)}`,
      };
      stack = await LanguageStack.create(language, server);
    });
    afterAll(async () => {
      stack?.dispose();
      await server?.close();
    });

    /** A workspace's variable ids by key. */
    async function workspaceVarIds(workspaceId: string): Promise<Record<string, string>> {
      const body = await expectStatus(api<any>(server, `/workspaces/${workspaceId}/vars`), [200], "workspace vars");
      return Object.fromEntries(body.data.map((v: any) => [v.attributes.key, v.id]));
    }

    /** The server holds what stack.json expects after `step`. */
    async function expectServer(step: Step): Promise<void> {
      const want = description.expect[step] as Expected;
      for (const [name, w] of Object.entries(want.workspaces)) {
        const ws = await workspaceByName(server, name);
        for (const [k, v] of Object.entries(w.attributes ?? {})) {
          const got = ws.attributes[k] ?? null;
          // Soft: a failure names every attribute that differs, not only the first.
          if (v !== null && typeof v === "object" && !Array.isArray(v))
            expect.soft(got, `${name} ${k}`).toMatchObject(v);
          else expect.soft(sorted(got), `${name} ${k}`).toEqual(sorted(v));
        }
        if (w.tags) expect(await tagBindings(server, ws.id), `${name} tags`).toEqual(w.tags);
        if (w.consumers) {
          const want = await Promise.all(w.consumers.map(async (c) => (await workspaceByName(server, c)).id));
          expect(await consumerIds(server, ws.id), `${name} consumers`).toEqual(want.sort());
        }
        if (w.retentionDays !== undefined) {
          const policy = await api<any>(server, `/workspaces/${ws.id}/relationships/data-retention-policy`);
          expect(policy.status, JSON.stringify(policy.body)).toBe(200);
          expect(policy.body.data.attributes["delete-older-than-n-days"], `${name} retention`).toBe(w.retentionDays);
        }
        if (w.variables) {
          const vars = await workspaceVars(server, ws.id);
          for (const [k, v] of Object.entries(w.variables)) expect(vars[k], `${name} variable ${k}`).toMatchObject(v);
        }
      }
      for (const [name, set] of Object.entries(want.variableSets ?? {})) {
        const found = await variableSet(name);
        expect(found, `variable set ${name}`).toBeDefined();
        expect(found!.attributes, `variable set ${name}`).toMatchObject(set.attributes ?? {});
        for (const [k, v] of Object.entries(set.variables))
          expect(found!.variables[k], `variable set ${name} variable ${k}`).toMatchObject(v);
        expect(found!.workspaces, `variable set ${name} workspaces`).toEqual([...set.workspaces].sort());
        expect(found!.projects, `variable set ${name} projects`).toEqual([...set.projects].sort());
      }
      if (want.versionPin) {
        const mod = await api<any>(server, `/no-code-modules/${ids.module}`);
        expect(mod.body.data.attributes["version-pin"], "no-code module version pin").toBe(want.versionPin);
      }
    }

    /** The organization's variable set of that name: its attributes, its variables by key, and the names of where it applies. */
    async function variableSet(name: string) {
      const sets = await expectStatus(
        api<any>(server, `/organizations/${server.organization}/varsets`),
        [200],
        "list variable sets",
      );
      const set = sets.data.find((x: any) => x.attributes.name === name);
      if (!set) return undefined;
      const vars = await expectStatus(api<any>(server, `/varsets/${set.id}/relationships/vars`), [200], "set vars");
      const names = (type: string) =>
        Promise.all(
          set.relationships[type].data.map(async (r: { id: string }) => {
            const body = await expectStatus(api<any>(server, `/${type}/${r.id}`), [200], `${type} ${r.id}`);
            return body.data.attributes.name as string;
          }),
        );
      return {
        id: set.id as string,
        attributes: set.attributes,
        variables: Object.fromEntries(vars.data.map((v: any) => [v.attributes.key, v.attributes])),
        workspaces: (await names("workspaces")).sort(),
        projects: (await names("projects")).sort(),
      };
    }

    /** Neither the token nor a sensitive literal is anywhere in the checkpoint in plain text. */
    async function expectNoPlainSecret(step: Step): Promise<void> {
      const { text } = await stack.exported();
      const doc = JSON.parse(text);
      expect(occurrences(doc, server.token), "the token in the checkpoint").toEqual([]);
      for (const literal of sensitiveLiterals(at(step))) {
        expect(occurrences(doc, literal), "the sensitive variable's value in the checkpoint").toEqual([]);
      }
    }

    async function expectNoChange(step: Step): Promise<void> {
      const p = await stack.preview(at(step));
      expect(p.ok, describeResult(p)).toBe(true);
      const changed = p.steps.filter((s) => s.op !== "same").map((s) => `${s.op} ${s.urn.split("::").pop()}`);
      expect(changed, describeResult(p)).toEqual([]);
      expect(Object.keys(p.changes), describeResult(p)).toEqual(["same"]);
    }

    it("up creates every resource and calls both lookups", async () => {
      const r = await stack.up(at("first"));
      expect(r.ok, describeResult(r)).toBe(true);
      ids = { ...r.outputs.ids, module: r.outputs.moduleId };
      expect(Object.keys(ids).sort()).toEqual(["app", "module", "net", "reader"]);
      expect(r.outputs.found).toEqual([description.server.existing.name]);
      expect(r.outputs.foundId).toBe(refs.existingId);
      await expectServer("first");
      expect(r.outputs.variableSetId).toBe((await variableSet(at("first").variableSet.name))?.id);
    });

    it("the SDK asks for the plugin of its own version, the one installed in PULUMI_HOME", async () => {
      expect(await stack.providersUsed()).toEqual(stack.expectedProviders());
    });

    it("the checkpoint holds neither the token nor the sensitive literal in plain text", async () => {
      await expectNoPlainSecret("first");
    });

    it("previews no change, and refreshes without drift", async () => {
      await expectNoChange("first");
      const r = await stack.refresh(at("first"));
      expect(r.ok, describeResult(r)).toBe(true);
      expect(Object.keys(r.changes), describeResult(r)).toEqual(["same"]);
    });

    it("carries out an edit of each kind: settings, tags, consumers, an upgrade, retention, the lock, variables", async () => {
      const p = await stack.preview(at("edit"));
      expect(p.ok, describeResult(p)).toBe(true);
      // A replacement is one step in the CLI's plan and three in the event stream.
      const ops: Record<string, string> = {};
      for (const s of p.steps) {
        const name = s.urn.split("::").pop()!;
        if (!ops[name] || s.op === "replace") ops[name] = s.op;
      }
      // A resource left as it is has a `same` step, or none in the CLI's plan (YAML).
      const planned = Object.fromEntries(Object.keys(description.edits).map((k) => [k, ops[k] ?? "same"]));
      expect(planned, describeResult(p)).toEqual(description.edits);

      const r = await stack.up(at("edit"));
      expect(r.ok, describeResult(r)).toBe(true);
      // In place: the same workspaces, and the no-code workspace upgraded rather than replaced.
      expect(r.outputs.ids).toEqual({ app: ids.app, reader: ids.reader, net: ids.net });
      expect(r.outputs.lastUpgrade?.status).toBe("applied");
      await expectServer("edit");
      await expectNoChange("edit");
    });

    it("after the upgrade and the new sensitive value, the checkpoint still holds no token or sensitive literal", async () => {
      await expectNoPlainSecret("edit");
    });

    it("shows a variable's value changed over HTTP in refresh, and up restores it", async () => {
      const drift = description.drift;
      const ws = await workspaceByName(server, drift.workspace);
      const before = await workspaceVarIds(ws.id);
      for (const [key, value] of Object.entries(drift.values)) {
        await expectStatus(
          api(server, `/workspaces/${ws.id}/vars/${before[key]}`, {
            method: "PATCH",
            body: { data: { type: "vars", id: before[key], attributes: { value } } },
          }),
          [200],
          `drift ${key}`,
        );
      }
      const refreshed = await stack.refreshDrift(at("edit"));
      expect(refreshed.ok, describeResult(refreshed)).toBe(true);
      expect(refreshed.changes.update, describeResult(refreshed)).toBe(drift.resources.length);
      const r = await stack.up(at("edit"));
      expect(r.ok, describeResult(r)).toBe(true);
      expect(r.changes.update, describeResult(r)).toBe(drift.resources.length);
      // Restored in place: the same variables, not new ones.
      expect(await workspaceVarIds(ws.id)).toEqual(before);
      await expectServer("edit");
    });

    it('clears settings with "" and the VCS connection with vcsRepo: {}, then previews no change', async () => {
      const r = await stack.up(at("clear"));
      expect(r.ok, describeResult(r)).toBe(true);
      await expectServer("clear");
      await expectNoChange("clear");
    });

    it("takes over a workspace and a variable made over HTTP with pulumi import, with no change to preview once declared", async () => {
      const r = await stack.import(at("import"));
      expect(r.ok, describeResult(r)).toBe(true);
      const { resources } = await stack.exported();
      const imported = Object.fromEntries(
        at("import").imports.map((i) => [i.resource, resources.find((x) => x.urn.endsWith(`::${i.resource}`))?.id]),
      );
      expect(imported).toEqual(Object.fromEntries(at("import").imports.map((i) => [i.resource, i.id])));
      await expectNoChange("import");
    });

    it("destroys every resource of the stack, the imported one included", async () => {
      const r = await stack.destroy(at("import"));
      expect(r.ok, describeResult(r)).toBe(true);
      const names = [...Object.values(at("import").workspaces).map((w) => w.name), at("import").noCodeWorkspace.name];
      for (const name of names) {
        const res = await api(server, `/organizations/${server.organization}/workspaces/${name}`);
        expect(res.status, name).toBe(404);
      }
      const { resources } = await stack.exported();
      expect(resources.filter((x) => x.custom && !x.type.startsWith("pulumi:"))).toEqual([]);
    });

    it("destroy leaves the variable it did not create, and removes the imported one, the set and its applications", async () => {
      const shared = description.server.shared;
      const vars = await workspaceVars(server, refs.sharedId);
      expect(Object.keys(vars)).toEqual([shared.theirs.key]);
      expect(vars[shared.theirs.key]).toMatchObject({ value: shared.theirs.value });
      expect(await variableSet(at("import").variableSet.name)).toBeUndefined();
      const applied = await expectStatus(
        api<any>(server, `/projects/${refs.projectId}/varsets`),
        [200],
        "project sets",
      );
      expect(applied.data).toEqual([]);
    });
  });
}
