/**
 * The workspace field table and what is derived from it agree: the wire schemas, the
 * client's mapping both ways, the resource's declared outputs and groups, the
 * provider's diff rules, and the reading of outputs written by the previous release.
 */
import { describe, expect, it } from "vitest";
import {
  workspaceAttributesSchema,
  workspaceDocumentSchema,
  workspaceSettingsRequestSchema,
  type WorkspaceResource,
} from "../../src/api";
import {
  WORKSPACE_FIELDS,
  WORKSPACE_SETTING_WIRE,
  workspaceFieldEntries,
  type FieldDef,
} from "../../src/api/workspace-fields";
import { toWorkspace, workspaceRequestBody } from "../../src/client";
import { WORKSPACE_OUTPUTS } from "../../src/resources/workspace";
import {
  WORKSPACE_FIELDS as DIFF_RULES,
  workspaceOutputs,
  workspaceReport,
} from "../../src/resources/providers/workspace";
import { WORKSPACE_REPORT_GROUPS, currentShape } from "../../src/resources/workspace-fields";

const lines = workspaceFieldEntries as [string, FieldDef][];

/** A value of a line that is not its `absent` default, in the client's spelling. */
function sample(name: string, f: FieldDef): unknown {
  const special: Record<string, unknown> = {
    executionMode: "agent",
    autoDestroyAt: "2030-01-02T03:04:05.000Z",
    autoDestroyActivityDuration: "14d",
    agentPoolId: "apool-sample",
    name: "sample-name",
  };
  if (name in special) return special[name];
  if (typeof f.absent === "boolean") return !f.absent;
  const schema = f.write === "read" ? f.read : (f.write ?? f.read);
  if (schema && schema.safeParse(true).success && !schema.safeParse("x").success) return true;
  if (Array.isArray(f.absent)) return ["b-prefix", "a-prefix"];
  return `value-of-${name}`;
}

/** A workspace resource carrying `attributes` and `relationships` (the rest minimal). */
function resource(attributes: Record<string, unknown>, relationships: Record<string, unknown> = {}): WorkspaceResource {
  return {
    id: "ws-sample",
    type: "workspaces",
    attributes: {
      name: "w",
      "execution-mode": "remote",
      locked: false,
      "created-at": "2026-01-01T00:00:00.000Z",
      ...attributes,
    },
    relationships,
  } as WorkspaceResource;
}

describe("workspace field table", () => {
  it("every plain setting round-trips program -> wire -> program", () => {
    expect(WORKSPACE_SETTING_WIRE.length).toBeGreaterThan(15);
    for (const [client, wire] of WORKSPACE_SETTING_WIRE) {
      const line = lines.find(([k, f]) => (f.client ?? k) === client)!;
      const value = sample(line[0], line[1]);
      const body = workspaceRequestBody({ [client]: value }) as { data: { attributes: Record<string, unknown> } };
      expect(body.data.attributes, client).toEqual({ [wire]: value });
      // The request schema accepts what the client sends.
      expect(workspaceSettingsRequestSchema.safeParse(body.data.attributes).success, client).toBe(true);
      const f = line[1];
      const back = f.rel
        ? toWorkspace(resource({}, { [f.rel]: { data: { id: value, type: "x" } } }))
        : toWorkspace(resource({ [wire]: value }));
      expect((back as unknown as Record<string, unknown>)[client], client).toEqual(value);
    }
  });

  it("the client reports every line the service sends, with its default when the attribute is absent or null", () => {
    const everyNull = Object.fromEntries(lines.filter(([, f]) => f.wire && f.read).map(([, f]) => [f.wire!, null]));
    for (const attributes of [{}, everyNull]) {
      const parsed = workspaceDocumentSchema.parse({ data: { id: "ws-sample", type: "workspaces", attributes } });
      const ws = toWorkspace(parsed.data) as unknown as Record<string, unknown>;
      for (const [name, f] of lines) {
        if (!f.wire && !f.rel) continue;
        const client = f.client ?? name;
        expect(ws, client).toHaveProperty(client);
        if (f.absent !== undefined) expect(ws[client], client).toEqual(f.absent);
      }
    }
  });

  it("the attribute schema has one key per line read from an attribute, plus the spec's spelling of each", () => {
    const keys = Object.keys(workspaceAttributesSchema.shape).sort();
    const expected = lines.filter(([, f]) => f.wire && f.read).map(([, f]) => f.wire!);
    const aliases = lines.filter(([, f]) => f.alias).map(([, f]) => f.alias!);
    expect(aliases).toEqual(["engine-version"]);
    expect(keys).toEqual([...expected, ...aliases].sort());
  });

  it("reads the vendor spelling first, the spec's when only that is sent", () => {
    expect(toWorkspace(resource({ "terraform-version": "1.6.0" })).engineVersion).toBe("1.6.0");
    expect(toWorkspace(resource({ "engine-version": "1.5.0" })).engineVersion).toBe("1.5.0");
    expect(toWorkspace(resource({ "terraform-version": "1.6.0", "engine-version": "1.5.0" })).engineVersion).toBe(
      "1.6.0",
    );
    expect(toWorkspace(resource({ "terraform-version": null, "engine-version": "1.5.0" })).engineVersion).toBe("1.5.0");
  });

  it("every input has a diff rule, and the provider diffs exactly the inputs", () => {
    const inputs = lines.filter(([, f]) => f.role !== "computed");
    for (const [name, f] of inputs) expect(f.diff, name).toBeDefined();
    expect(DIFF_RULES.map((r) => r.name)).toEqual(inputs.map(([name]) => name));
    expect(DIFF_RULES.filter((r) => r.replaces).map((r) => r.name)).toEqual(["organization"]);
  });

  it("declared outputs are the top-level lines, the provider fills exactly those, and the lookup's groups hold the rest", () => {
    const top = lines.filter(([, f]) => f.group === "top").map(([name]) => name);
    expect([...WORKSPACE_OUTPUTS]).toEqual(top);
    expect(WORKSPACE_OUTPUTS.length).toBeLessThanOrEqual(32);
    expect([...WORKSPACE_REPORT_GROUPS]).toEqual(["permissions", "metrics", "status"]);
    const full = resource(
      Object.fromEntries(
        lines.filter(([, f]) => f.wire && f.read).map(([name, f]) => [f.wire!, f.shape ? undefined : sample(name, f)]),
      ),
      Object.fromEntries(
        lines
          .filter(([, f]) => f.rel)
          .map(([name]) => [lines.find(([k]) => k === name)![1].rel!, { data: { id: `id-${name}`, type: "x" } }]),
      ),
    );
    const ws = toWorkspace(full);
    const outs = workspaceOutputs(ws, { tags: { a: "1" }, effectiveTags: { a: "1", b: "2" }, forceDelete: false });
    expect(Object.keys(outs).sort()).toEqual([...WORKSPACE_OUTPUTS].sort());
    const report = workspaceReport(ws);
    expect(Object.keys(report).sort()).toEqual(["metrics", "permissions", "status"]);
    for (const group of ["metrics", "status"] as const) {
      const members = lines
        .filter(([, f]) => f.group === group)
        .map(([name]) => name)
        .sort();
      expect(Object.keys(report[group]).sort(), group).toEqual(members);
    }
    expect((report.status as Record<string, unknown>).currentRunId).toBe("id-currentRunId");
    expect((report.metrics as Record<string, unknown>).runFailures).toBe("value-of-runFailures");
  });

  it("a group leaves out what the service does not report", () => {
    const report = workspaceReport(toWorkspace(resource({})));
    expect(report.metrics).toEqual({ resourceCount: 0 });
    expect(Object.values(report.status)).not.toContain(null);
    expect(report.permissions).toEqual({});
  });

  it("outputs written by earlier releases (0.3.0's groups, the flat shape before 0.2.0) read as this release's shape", () => {
    const ws = toWorkspace(
      resource(
        { "resource-count": 3, "locked-reason": "why", "run-failures": 1, permissions: { "can-update": true } },
        { "current-run": { data: { id: "run-1", type: "runs" } } },
      ),
    );
    const now = workspaceOutputs(ws, {
      tags: { a: "1" },
      effectiveTags: { a: "1" },
      forceDelete: true,
      organization: "org",
    });
    const report = workspaceReport(ws);
    expect(report.metrics).toMatchObject({ resourceCount: 3, runFailures: 1 });
    // 0.2.0 to 0.3.x: the three groups beside the top-level outputs.
    const grouped: Record<string, unknown> = { ...now, ...report };
    expect(currentShape(grouped)).toEqual(now);
    // Before 0.2.0: every value at the top level, null for what the service did not report.
    const flat: Record<string, unknown> = {
      ...now,
      ...report.metrics,
      ...report.status,
      permissions: report.permissions,
    };
    for (const [name, f] of lines) if (f.group === "metrics" || f.group === "status") flat[name] ??= null;
    expect(Object.keys(flat).length).toBeGreaterThan(55);
    expect(currentShape(flat)).toEqual(now);
    expect(currentShape(now)).toBe(now);
  });

  it("keys are unique: no two lines share a wire name or a client name", () => {
    const wires = lines.filter(([, f]) => f.wire).map(([, f]) => f.wire);
    expect(new Set(wires).size).toBe(wires.length);
    const clients = lines.map(([k, f]) => f.client ?? k);
    expect(new Set(clients).size).toBe(clients.length);
    expect(Object.keys(WORKSPACE_FIELDS).length).toBe(lines.length);
  });
});
