import { afterAll, beforeAll, expect } from "vitest";
import type { ServerOptions } from "../../src/server/context";
import { expectStatus, start, type Api, type TestServer } from "./helpers";

/** One server for a test file (fast runs by default), handed to `use` once it listens. */
export function serveForSuite(use: (t: TestServer) => void, options: ServerOptions = { runSpeed: 1000 }): void {
  let t: TestServer | undefined;
  beforeAll(async () => {
    t = await start(options);
    use(t);
  });
  afterAll(() => t?.server.close());
}

/** Creates a private registry module with the given versions; returns its `mod-` id. */
export async function publishModule(
  api: Api,
  org: string,
  name: string,
  versions: string[],
  provider = "aws",
): Promise<string> {
  const m = await expectStatus(
    api.post(`/organizations/${org}/registry-modules`, {
      data: { type: "registry-modules", attributes: { name, provider } },
    }),
    201,
  );
  for (const version of versions) await addVersion(api, org, name, version, provider);
  return m.body.data.id as string;
}

export async function addVersion(api: Api, org: string, name: string, version: string, provider = "aws") {
  return expectStatus(
    api.post(`/registry-modules/${org}/${name}/${provider}/versions`, {
      data: { type: "registry-module-versions", attributes: { version } },
    }),
    201,
  );
}

export interface OptionSetInput {
  id?: string;
  name: string;
  type?: string;
  options: unknown[];
}

export function optionItems(sets: OptionSetInput[]) {
  return sets.map((s) => ({
    type: "variable-options",
    ...(s.id ? { id: s.id } : {}),
    attributes: { "variable-name": s.name, "variable-type": s.type ?? "string", options: s.options },
  }));
}

export function enableBody(
  registryModuleId: string,
  attributes: Record<string, unknown> = {},
  sets?: OptionSetInput[],
) {
  return {
    data: {
      type: "no-code-modules",
      attributes,
      relationships: {
        "registry-module": { data: { type: "registry-module", id: registryModuleId } },
        ...(sets ? { "variable-options": { data: optionItems(sets) } } : {}),
      },
    },
  };
}

/** Enables a module for no-code use (enabled unless said otherwise); returns the document's `data`. */
export async function enableModule(
  api: Api,
  org: string,
  registryModuleId: string,
  attributes: Record<string, unknown> = {},
  sets?: OptionSetInput[],
) {
  const r = await expectStatus(
    api.post(
      `/organizations/${org}/no-code-modules`,
      enableBody(registryModuleId, { enabled: true, ...attributes }, sets),
    ),
    200,
  );
  return r.body.data as {
    id: string;
    attributes: Record<string, any>;
    relationships: Record<string, any>;
    links: Record<string, string>;
  };
}

export interface VarInput {
  key: string;
  value?: string;
  category?: string;
  sensitive?: boolean;
  hcl?: boolean;
  description?: string;
}

export function varItems(vars: VarInput[]) {
  return vars.map((v) => ({ type: "vars", attributes: { category: "engine", ...v } }));
}

export function workspaceFromModuleBody(
  name: string,
  vars: VarInput[] = [],
  attributes: Record<string, unknown> = {},
  relationships: Record<string, unknown> = {},
) {
  return {
    data: {
      type: "workspaces",
      attributes: { name, ...attributes },
      relationships: { vars: { data: varItems(vars) }, ...relationships },
    },
  };
}

export async function createFromModule(
  api: Api,
  noCodeId: string,
  name: string,
  vars: VarInput[] = [],
  attributes: Record<string, unknown> = {},
) {
  const r = await expectStatus(
    api.post(`/no-code-modules/${noCodeId}/workspaces`, workspaceFromModuleBody(name, vars, attributes)),
    200,
  );
  return r.body.data as {
    id: string;
    attributes: Record<string, any>;
    relationships: Record<string, any>;
    links: Record<string, string>;
  };
}

export function upgradePath(noCodeId: string, workspaceId: string, runId?: string) {
  return `/no-code-modules/${noCodeId}/workspaces/${workspaceId}/upgrade${runId ? `/${runId}` : ""}`;
}

/** Polls an upgrade until its status is one of `statuses`; returns every status seen on the way. */
export async function pollUpgrade(
  api: Api,
  noCodeId: string,
  workspaceId: string,
  runId: string,
  statuses: string[],
  timeoutMs = 5000,
) {
  const seen: string[] = [];
  const started = Date.now();
  for (;;) {
    const r = await expectStatus(api.get(upgradePath(noCodeId, workspaceId, runId)), 200);
    const status = r.body.data.attributes.status as string;
    if (seen[seen.length - 1] !== status) seen.push(status);
    if (statuses.includes(status)) return { doc: r.body.data, seen };
    expect(Date.now() - started, `upgrade still ${status}; saw ${seen.join(" > ")}`).toBeLessThan(timeoutMs);
    await new Promise((r) => setTimeout(r, 2));
  }
}

/** A pointer of each error of a 422 document. */
export function pointers(body: any): string[] {
  return (body.errors as { source?: { pointer?: string } }[]).map((e) => e.source?.pointer ?? "");
}
