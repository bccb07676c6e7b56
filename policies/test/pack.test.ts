import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { PolicyConfigJSONSchema } from "@pulumi/policy/schema";
import { validateResourceOfType, type ResourceValidationPolicy } from "@pulumi/policy";
import { pluginTypeTokens, typeTokens } from "pulumi-workspaces/tokens";
import { describe, expect, it } from "vitest";
import {
  NoCodeModule,
  NoCodeWorkspace,
  RemoteStateConsumers,
  VariableSet,
  VariableSetApplication,
  Workspace,
  WorkspaceTags,
  WorkspaceVariable,
  WorkspaceVariables,
  policies,
} from "../rules";
import { DOORS, through, tokenOf } from "./harness";

const LEVELS = ["advisory", "mandatory", "remediate", "disabled"];

/** Errors of `value` against the JSON-schema subset the pack's config schemas use. */
function schemaErrors(schema: PolicyConfigJSONSchema, value: unknown, path: string): string[] {
  const type = Array.isArray(value) ? "array" : value === null ? "null" : typeof value;
  if (schema.type === "integer") {
    if (!Number.isInteger(value)) return [`${path}: expected integer, got ${JSON.stringify(value)}`];
    return schema.minimum !== undefined && (value as number) < schema.minimum ? [`${path}: below minimum`] : [];
  }
  if (schema.type !== undefined && schema.type !== type)
    return [`${path}: expected ${String(schema.type)}, got ${type}`];
  const errors: string[] = [];
  if (schema.enum !== undefined && !schema.enum.includes(value as never))
    errors.push(`${path}: ${JSON.stringify(value)} not in enum`);
  if (typeof value === "string" && schema.minLength !== undefined && value.length < schema.minLength)
    errors.push(`${path}: too short`);
  if (Array.isArray(value)) {
    if (schema.uniqueItems && new Set(value).size !== value.length) errors.push(`${path}: duplicate items`);
    if (schema.items !== undefined && typeof schema.items === "object" && !Array.isArray(schema.items)) {
      value.forEach((v, i) => errors.push(...schemaErrors(schema.items as PolicyConfigJSONSchema, v, `${path}[${i}]`)));
    }
  }
  if (type === "object" && typeof schema.additionalProperties === "object") {
    for (const [k, v] of Object.entries(value as object)) {
      errors.push(...schemaErrors(schema.additionalProperties, v, `${path}.${k}`));
    }
  }
  return errors;
}

describe("the pack's rules", () => {
  it("have unique names the analyzer accepts, a description, a level and a config schema", () => {
    const names = policies.map((p) => p.name);
    expect(new Set(names).size).toBe(names.length);
    for (const p of policies) {
      expect(p.name).toMatch(/^[a-z0-9-]+$/);
      expect(p.name).not.toBe("all");
      expect(p.description.length).toBeGreaterThan(20);
      expect(LEVELS).toContain(p.enforcementLevel);
      expect(p.configSchema).toBeDefined();
      // The analyzer refuses a schema that declares enforcementLevel itself.
      expect(Object.keys(p.configSchema!.properties)).not.toContain("enforcementLevel");
    }
  });

  it("enforce the spec's own rules and secrets kept secret, advise on conventions and remediate only where they can", () => {
    const byLevel = (level: string) =>
      policies
        .filter((p) => p.enforcementLevel === level)
        .map((p) => p.name)
        .sort();
    expect(byLevel("mandatory")).toEqual([
      "policy-set-parameter-allowed",
      "remote-state-consumers-valid",
      "variable-secret-key-sensitive",
      "workspace-execution-mode-valid",
      "workspace-name-pattern",
      "workspace-name-unique",
      "workspace-single-owner",
    ]);
    expect(byLevel("remediate")).toEqual(["workspace-flat-tag-lowercase"]);
    for (const p of policies) {
      if (p.enforcementLevel === "remediate") expect("remediateResource" in p && p.remediateResource).toBeTruthy();
    }
  });

  it("carry defaults that satisfy their own schemas", () => {
    for (const p of policies) {
      for (const [key, prop] of Object.entries(p.configSchema!.properties)) {
        if (prop.default === undefined) continue;
        expect(schemaErrors(prop, prop.default, `${p.name}.${key}`)).toEqual([]);
      }
    }
  });

  it("accept the sample config file", () => {
    const config = JSON.parse(readFileSync(join(__dirname, "..", "config.example.json"), "utf8")) as Record<
      string,
      unknown
    >;
    const byName = new Map(policies.map((p) => [p.name, p]));
    const errors: string[] = [];
    for (const [name, value] of Object.entries(config)) {
      const p = byName.get(name);
      if (p === undefined) {
        errors.push(`${name}: no such policy`);
        continue;
      }
      if (typeof value === "string") {
        if (!LEVELS.includes(value)) errors.push(`${name}: bad level ${value}`);
        continue;
      }
      for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
        if (key === "enforcementLevel") {
          if (!LEVELS.includes(v as string)) errors.push(`${name}: bad level ${String(v)}`);
          continue;
        }
        const prop = p.configSchema!.properties[key];
        if (prop === undefined) errors.push(`${name}.${key}: not in the schema`);
        else errors.push(...schemaErrors(prop, v, `${name}.${key}`));
      }
    }
    expect(errors).toEqual([]);
    expect(Object.keys(config).length).toBeGreaterThanOrEqual(8);
  });

  it("match resources by the package's type tokens, of both doors", () => {
    expect(Workspace.tokens).toEqual(["pulumi-nodejs:dynamic/workspaces:Workspace", "workspaces:index:Workspace"]);
    const kinds = [
      Workspace,
      WorkspaceTags,
      RemoteStateConsumers,
      NoCodeModule,
      NoCodeWorkspace,
      WorkspaceVariable,
      WorkspaceVariables,
      VariableSet,
      VariableSetApplication,
    ];
    expect(kinds.map((k) => k.tokens)).toEqual(kinds.map((k) => [typeTokens[k.name], pluginTypeTokens[k.name]]));
    // The plugin's tokens are those of the schema it serves.
    const schema = JSON.parse(readFileSync(join(__dirname, "..", "..", "src", "plugin", "schema.json"), "utf8")) as {
      resources: Record<string, unknown>;
    };
    for (const k of kinds) expect(Object.keys(schema.resources)).toContain(k.tokens[1]);
    expect(() => new (Workspace as unknown as new () => unknown)()).toThrow(/create resources with pulumi-workspaces/);
  });

  it.each(DOORS)("leave resources of other packages and other kinds alone (%s door)", async (door) => {
    const others = [
      { tokens: ["aws:s3/bucket:Bucket", "pulumi-nodejs:dynamic/other:Workspace"] },
      { tokens: ["workspaces:other:Workspace", "pulumi:providers:workspaces"] },
      { tokens: [typeTokens.WorkspaceLock, pluginTypeTokens.WorkspaceLock] },
    ] as const;
    const { validate, remediate } = through(door);
    for (const kind of others) {
      for (const p of policies) {
        const props = { name: "not a name", tagNames: ["Upper"], operations: true, forceDelete: true };
        const out = await validate(p, kind, props);
        expect(out, `${p.name} on ${tokenOf(kind, door)}`).toEqual({
          violations: [],
          notApplicable: expect.any(String),
        });
        if ("remediateResource" in p) expect(await remediate(p, kind, props)).toBeUndefined();
      }
    }
  });

  it.each(DOORS)(
    "give markers that validateResourceOfType, isType and asType match through both doors (%s door)",
    async (door) => {
      // A rule of an organisation's own, written as policies/README.md shows.
      const own: ResourceValidationPolicy = {
        name: "workspace-description-required",
        description: "Every Workspace has a description.",
        validateResource: validateResourceOfType(Workspace, (workspace, args, reportViolation) => {
          if (args.isType(Workspace) && args.asType(Workspace) !== undefined && !workspace.description)
            reportViolation(`Workspace "${args.name}": description is not set.`);
        }),
      };
      const { validate } = through(door);
      expect((await validate(own, Workspace, { name: "app" }, { name: "app" })).violations).toEqual([
        'Workspace "app": description is not set.',
      ]);
      expect((await validate(own, Workspace, { name: "app", description: "d" })).violations).toEqual([]);
      expect((await validate(own, WorkspaceTags, { workspaceId: "ws-1" })).notApplicable).toBe(
        "Policy only applies to 'Workspace' resources",
      );
    },
  );
});
