/**
 * Writes the TypeScript program (and its README) for an organization snapshot.
 *
 * Every resource carries `adopt: true`, so the first `pulumi up` takes the existing
 * records over. Only settings that differ from the service's defaults are written: an
 * input left out is not managed, so nothing the program does not state can differ.
 * Records that are part of the program are referred to by reference (`web.id`), others
 * by their literal id. Output is stable: the same organization gives the same text.
 */
import type { NoCodeModule, Variable } from "../client";
import { Identifiers, byCodePoint, configKey } from "./names";
import type { OrganizationSnapshot } from "./read";
import { newestEngineVersion, noCodeSettingsOf, settingsOf, sortedTags } from "./written-settings";

/** Code to write as is (a reference or a call) instead of a literal. */
class Code {
  constructor(readonly text: string) {}
}

/** A literal id with a comment naming the record and the stack that owns it. */
class NotedId extends Code {
  constructor(
    readonly id: string,
    note: string,
  ) {
    super(`${JSON.stringify(id)} /* ${note.replace(/\*\//g, "* /")} */`);
  }
}

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A TypeScript expression for a JSON-like value; `Code` is written as is. */
function literal(value: unknown, indent = ""): string {
  if (value instanceof Code) return value.text;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    const items = value.map((v) => literal(v, indent + "  "));
    const flat = `[${items.join(", ")}]`;
    if (flat.length <= 80 && !flat.includes("\n")) return flat;
    return `[\n${items.map((i) => `${indent}  ${i},`).join("\n")}\n${indent}]`;
  }
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return "{}";
    const items = entries.map(([k, v]) =>
      v instanceof Code && v.text === k ? k : `${IDENT.test(k) ? k : JSON.stringify(k)}: ${literal(v, indent + "  ")}`,
    );
    const flat = `{ ${items.join(", ")} }`;
    if (flat.length <= 80 && !flat.includes("\n")) return flat;
    return `{\n${items.map((i) => `${indent}  ${i},`).join("\n")}\n${indent}}`;
  }
  return JSON.stringify(value ?? null);
}

/** `new Kind("name", {...});` bound to `ident` (exported), or a bare statement. */
function statement(kind: string, name: string, args: Record<string, unknown>, ident?: string): string {
  const call = `new ${kind}(${JSON.stringify(name)}, ${literal(args)})`;
  return ident ? `export const ${ident} = ${call};` : `${call};`;
}

/** A sensitive value the service never shows: the program reads it from a secret stack config key. */
export interface SecretKey {
  /** Stack config key, `<workspace>-<variable>` (made unique). */
  key: string;
  /** Name of the workspace the variable belongs to. */
  workspace: string;
  /** The variable's key. */
  variable: string;
}

/**
 * A setting of a workspace made from a no-code module that `NoCodeWorkspace` cannot
 * declare (local execution mode, SSH key, trigger patterns, ...). It stays on the service
 * as it is, unmanaged; the generated README lists each one.
 */
export interface NotCarried {
  /** Workspace name. */
  workspace: string;
  /** The `Workspace` input that would state it, e.g. `sshKeyId`. */
  setting: string;
  /** Its value on the service. */
  value: unknown;
}

/** What {@link renderProgram} writes for an organization snapshot. */
export interface Generated {
  /** `index.ts`. */
  program: string;
  /** `README.md`: what was generated, the secret config keys to set before `pulumi up`, and the settings not carried. */
  readme: string;
  /** The secret stack config keys the program requires, one per sensitive no-code variable. */
  secrets: SecretKey[];
  /** Settings of module-made workspaces that the program does not state, because `NoCodeWorkspace` has no input for them. */
  notCarried: NotCarried[];
  /** How many of each the program declares. */
  counts: { workspaces: number; noCodeModules: number; noCodeWorkspaces: number; consumers: number };
  /**
   * The same resources as `pulumi import` takes them from a file (`pulumi import -f`): the
   * provider plugin's type token, the program's resource name and the record's id. For
   * programs in another language than TypeScript, instead of `adopt: true`.
   */
  imports: ImportEntry[];
}

/** One resource of a bulk import file (`pulumi import -f`). */
export interface ImportEntry {
  /** The provider plugin's type token, `workspaces:index:<Resource>`. */
  type: string;
  /** The resource name, as the generated program names it. */
  name: string;
  /** The record's id, as the resource's read takes it. */
  id: string;
}

function variableArgs(v: Variable, secret: () => Code): Record<string, unknown> {
  return {
    key: v.key,
    value: v.sensitive ? secret() : (v.value ?? ""),
    category: v.category === "env" ? "env" : "engine",
    ...(v.hcl ? { hcl: true } : {}),
    ...(v.sensitive ? { sensitive: true } : {}),
    ...(v.description ? { description: v.description } : {}),
  };
}

function moduleArgs(m: NoCodeModule, registryModuleId: string): Record<string, unknown> {
  const options = [...(m.variableOptions ?? [])]
    .sort((a, b) => byCodePoint(a.variableName, b.variableName))
    .map((o) => ({ variableName: o.variableName, variableType: o.variableType, options: o.options }));
  return {
    organization: new Code("organization"),
    registryModuleId,
    versionPin: m.versionPin,
    ...(m.enabled ? {} : { enabled: false }),
    ...(options.length ? { variableOptions: options } : {}),
    adopt: true,
  };
}

const sortKey = (v: unknown) =>
  v instanceof NotedId ? `1${v.id}` : v instanceof Code ? `0${v.text}` : `1${String(v)}`;

/** Where a record declared in another stack of a split program lives, for the comment beside its literal id. */
export type Elsewhere = (id: string) => { name: string; stack: string } | undefined;

/** One program file's declarations, as {@link ProgramWriter.declarations} writes them. */
export interface Declarations {
  /** The statements, grouped under comments. */
  body: string[];
  /** The classes of this package the statements use, sorted. */
  used: string[];
  /** The secret stack config keys the statements require. */
  secrets: SecretKey[];
  /** Settings of module-made workspaces the statements do not state. */
  notCarried: NotCarried[];
  /** How many of each the statements declare. */
  counts: Generated["counts"];
  /** The same resources as a bulk import file lists them. */
  imports: ImportEntry[];
}

/**
 * Writes declarations for one program file or several (the stacks of a split program).
 * Identifiers, resource names and secret config keys are handed out across all of them, so
 * that a workspace gets the same names whichever file declares it.
 */
export class ProgramWriter {
  private readonly ids = new Identifiers();
  private readonly names = new Set<string>();
  private readonly secretKeys = new Set<string>();
  private readonly defaultEngine: string | undefined;

  /** @param snapshot everything read; the default engine version is the organization's, whatever each file declares */
  constructor(snapshot: OrganizationSnapshot) {
    this.defaultEngine = newestEngineVersion(snapshot.workspaces.map((r) => r.workspace));
  }

  private resourceName(wanted: string): string {
    let name = wanted;
    for (let n = 2; this.names.has(name); n++) name = `${wanted}-${n}`;
    this.names.add(name);
    return name;
  }

  /**
   * The statements declaring `workspaces` and `modules`. A record among them is referred to
   * by reference (`web.id`); one that `elsewhere` places in another stack by its literal id,
   * with a comment naming it and that stack; any other by its literal id.
   */
  declarations(
    workspaces: OrganizationSnapshot["workspaces"],
    modules: OrganizationSnapshot["modules"],
    elsewhere: Elsewhere = () => undefined,
  ): Declarations {
    const plain = workspaces.filter((r) => !r.noCodeModuleId);
    const fromModules = workspaces.filter((r) => r.noCodeModuleId);
    const defaultEngine = this.defaultEngine;

    // Identifiers first, so that any record can refer to any other.
    const identOf = new Map<string, string>();
    for (const r of workspaces) identOf.set(r.workspace.id, this.ids.take(r.workspace.name, "ws"));
    const moduleIdent = new Map<string, string>();
    for (const m of modules) moduleIdent.set(m.module.id, this.ids.take(`${m.registryModule.name}-module`, "module"));
    const literalId = (id: string): unknown => {
      const other = elsewhere(id);
      if (!other) return id;
      return new NotedId(id, `${other.name}, stack ${other.stack}`);
    };
    const ref = (id: string) => (identOf.has(id) ? new Code(`${identOf.get(id)}.id`) : literalId(id));

    const secrets: SecretKey[] = [];
    const notCarried: NotCarried[] = [];
    const body: string[] = [];
    const imports: ImportEntry[] = [];
    const declare = (kind: string, name: string, id: string, args: Record<string, unknown>, ident?: string) => {
      body.push(statement(kind, name, args, ident));
      imports.push({ type: `workspaces:index:${kind}`, name, id });
    };

    if (plain.length) body.push("// Workspaces");
    for (const r of plain) {
      const ws = r.workspace;
      const args: Record<string, unknown> = {
        name: ws.name,
        organization: new Code("organization"),
        ...(ws.projectId ? { project: ws.projectId } : {}),
        ...settingsOf(ws, defaultEngine),
        ...(Object.keys(r.tags).length ? { tags: sortedTags(r.tags) } : {}),
        ...(ws.tagNames.length ? { tagNames: [...ws.tagNames].sort() } : {}),
        ...(ws.sshKeyId ? { sshKeyId: ws.sshKeyId } : {}),
        adopt: true,
      };
      declare("Workspace", this.resourceName(ws.name), ws.id, args, identOf.get(ws.id));
    }

    if (modules.length) {
      if (body.length) body.push("");
      body.push("// No-code modules");
      for (const m of modules) {
        const name = this.resourceName(`${m.registryModule.name}-${m.registryModule.provider}`);
        declare(
          "NoCodeModule",
          name,
          m.module.id,
          moduleArgs(m.module, m.registryModule.id),
          moduleIdent.get(m.module.id),
        );
      }
    }

    if (fromModules.length) {
      if (body.length) body.push("");
      body.push("// Workspaces made from no-code modules");
      for (const r of fromModules) {
        const ws = r.workspace;
        const moduleId = r.noCodeModuleId!;
        const variables = [...(r.variables ?? [])].sort((a, b) => byCodePoint(a.key, b.key));
        const { carried, left } = noCodeSettingsOf(ws, defaultEngine);
        for (const [setting, value] of left) notCarried.push({ workspace: ws.name, setting, value });
        const args: Record<string, unknown> = {
          noCodeModuleId: moduleIdent.has(moduleId) ? new Code(`${moduleIdent.get(moduleId)}.id`) : literalId(moduleId),
          organization: new Code("organization"),
          name: ws.name,
          ...(ws.projectId ? { project: ws.projectId } : {}),
          ...carried,
          ...(variables.length
            ? {
                variables: variables.map((v) =>
                  variableArgs(v, () => {
                    let key = configKey(ws.name, v.key);
                    for (let n = 2; this.secretKeys.has(key); n++) key = `${configKey(ws.name, v.key)}-${n}`;
                    this.secretKeys.add(key);
                    secrets.push({ key, workspace: ws.name, variable: v.key });
                    return new Code(`config.requireSecret(${JSON.stringify(key)})`);
                  }),
                ),
              }
            : {}),
          ...(typeof ws.attributes["source-module-version"] === "string"
            ? { moduleVersion: ws.attributes["source-module-version"] }
            : {}),
          adopt: true,
        };
        declare("NoCodeWorkspace", this.resourceName(ws.name), ws.id, args, identOf.get(ws.id));
        // Tags of a module-made workspace are not inputs of NoCodeWorkspace.
        const tags = Object.keys(r.tags).length ? { tags: sortedTags(r.tags) } : {};
        const tagNames = ws.tagNames.length ? { tagNames: [...ws.tagNames].sort() } : {};
        if (Object.keys(tags).length || Object.keys(tagNames).length) {
          declare("WorkspaceTags", this.resourceName(`${ws.name}-tags`), `${ws.id}/tags`, {
            workspaceId: new Code(`${identOf.get(ws.id)}.id`),
            ...tags,
            ...tagNames,
          });
        }
      }
    }

    const withConsumers = workspaces.filter((r) => !r.workspace.globalRemoteState && r.consumerIds.length > 0);
    if (withConsumers.length) {
      if (body.length) body.push("");
      body.push("// Remote state consumers: who may read each workspace's state");
      for (const r of withConsumers) {
        declare(
          "RemoteStateConsumers",
          this.resourceName(`${r.workspace.name}-consumers`),
          `${r.workspace.id}/remote-state-consumers`,
          {
            workspaceId: new Code(`${identOf.get(r.workspace.id)}.id`),
            // In the order they read: references by name, then literal ids.
            consumerIds: r.consumerIds.map(ref).sort((a, b) => byCodePoint(sortKey(a), sortKey(b))),
          },
        );
      }
    }

    const used = [
      ...(plain.length ? ["Workspace"] : []),
      ...(modules.length ? ["NoCodeModule"] : []),
      ...(fromModules.length ? ["NoCodeWorkspace"] : []),
      ...(withConsumers.length ? ["RemoteStateConsumers"] : []),
      ...(body.some((l) => l.startsWith("new WorkspaceTags(")) ? ["WorkspaceTags"] : []),
    ].sort();
    const counts = {
      workspaces: plain.length,
      noCodeModules: modules.length,
      noCodeWorkspaces: fromModules.length,
      consumers: withConsumers.length,
    };
    return { body, used, secrets, notCarried, counts, imports };
  }
}

/**
 * The lines that open a program file: what it declares, the imports its statements use, the
 * stack config it reads secrets from, and the organization.
 */
export function fileHeader(organization: string, scope: string, d: Declarations): string[] {
  return [
    "/**",
    ` * The workspaces of organization ${JSON.stringify(organization)}${scope}, as read from the service by`,
    " * `pulumi-workspaces generate`. Every resource has `adopt: true`: the first `pulumi up` takes",
    " * the existing records over and changes nothing that this program states as it is.",
    " * Settings at the service's default are left out, and an input left out is not managed.",
    " */",
    ...(d.secrets.length ? ['import * as pulumi from "@pulumi/pulumi";'] : []),
    ...(d.used.length ? [`import { ${d.used.join(", ")} } from "pulumi-workspaces";`] : []),
    "",
    ...(d.secrets.length
      ? [
          "// Sensitive variable values, which the service never shows: see README.md.",
          "const config = new pulumi.Config();",
        ]
      : []),
    `const organization = ${JSON.stringify(organization)};`,
    "",
  ];
}

/**
 * The program (and README) that adopts everything in `snapshot`: a `Workspace` per plain
 * workspace, a `NoCodeModule` per module, a `NoCodeWorkspace` (and `WorkspaceTags` for its
 * tags) per workspace made from a module, a `RemoteStateConsumers` per consumer set. Pure:
 * reads nothing, and the same snapshot gives the same text.
 */
export function renderProgram(snapshot: OrganizationSnapshot): Generated {
  const d = new ProgramWriter(snapshot).declarations(snapshot.workspaces, snapshot.modules);
  // A program always declares workspaces: the list says so even when it is empty.
  if (!d.used.includes("Workspace")) d.used = ["Workspace", ...d.used].sort();
  if (!d.body.length || d.body[0] !== "// Workspaces") d.body.unshift("// Workspaces", ...(d.body.length ? [""] : []));
  const scope = snapshot.projectId ? ` (project ${snapshot.projectId})` : "";
  const program = [...fileHeader(snapshot.organization, scope, d), ...d.body, ""].join("\n");
  const { secrets, notCarried, counts, imports } = d;
  return {
    program,
    readme: renderReadme(snapshot, counts, secrets, notCarried),
    secrets,
    notCarried,
    counts,
    imports,
  };
}

function renderReadme(
  snapshot: OrganizationSnapshot,
  counts: Generated["counts"],
  secrets: SecretKey[],
  notCarried: NotCarried[],
): string {
  const lines = [
    `# Organization ${snapshot.organization}${snapshot.projectId ? `, project ${snapshot.projectId}` : ""}`,
    "",
    "Generated by `pulumi-workspaces generate`. `index.ts` declares what the service holds:",
    "",
    `- ${counts.workspaces} workspaces (settings that differ from the defaults, key-value and flat tags, SSH key, project)`,
    `- ${counts.noCodeModules} no-code modules with their variable options`,
    `- ${counts.noCodeWorkspaces} workspaces made from no-code modules, with their variables`,
    `- ${counts.consumers} sets of remote state consumers`,
    "",
    "Every resource has `adopt: true`: the first `pulumi up` takes the existing records over",
    "instead of creating them, and sends no change for what the program states as it is.",
    "",
    "## Before the first `pulumi up`",
    "",
    "1. Give the providers the service's address and a token (never written into the program):",
    "   `pulumi config set workspaces:address https://...` and",
    "   `pulumi config set --secret workspaces:token ...`, or `WORKSPACES_ADDRESS` and `WORKSPACES_TOKEN`.",
  ];
  if (secrets.length) {
    lines.push(
      "2. Set the sensitive variable values, which the service never shows, as secret stack",
      "   config (the program requires each key; adoption takes the value as the workspace's,",
      "   so use the value the workspace has):",
      "",
      "   | config key | workspace | variable |",
      "   |---|---|---|",
      ...secrets.map((s) => `   | \`${s.key}\` | ${s.workspace} | ${s.variable} |`),
      "",
      "   ```sh",
      ...secrets.map((s) => `   pulumi config set --secret ${s.key} '<value of ${s.variable}>'`),
      "   ```",
      "",
    );
  }
  lines.push(
    `${secrets.length ? "3" : "2"}. \`pulumi preview\` lists, for each resource, the record it adopts and the properties it`,
    "   would change (none right after generation).",
    `${secrets.length ? "4" : "3"}. \`pulumi up\` adopts them. From then on the stack owns them: edit \`index.ts\` to change them.`,
    "",
    "To hand a workspace back later without deleting it, set `retainOnDelete: true` in its",
    "resource options and run `pulumi up`, then remove it from the program.",
    "",
  );
  lines.push(...notCarriedSection(notCarried, "`index.ts`"));
  return lines.join("\n");
}

/** The README section listing the settings of module-made workspaces that `where` does not state (none: no lines). */
export function notCarriedSection(notCarried: NotCarried[], where: string): string[] {
  if (!notCarried.length) return [];
  return [
    "## Settings not carried",
    "",
    "`NoCodeWorkspace` declares a module-made workspace's name, project, description, execution",
    "mode (`remote` or `agent`, with its agent pool), auto-apply, source name and address,",
    "variables and module version; its tags go into a `WorkspaceTags` beside it. These",
    `workspaces also have settings that it has no input for, so ${where} does not state`,
    "them. They stay on the service as they are: adoption does not change them (an input",
    "left out is not managed), but this program cannot change them either, and a workspace",
    "that the stack makes again from its module (a replacement) would not have them.",
    "",
    "| workspace | setting | value on the service |",
    "|---|---|---|",
    ...notCarried.map(
      (n) => `| ${n.workspace} | \`${n.setting}\` | \`${JSON.stringify(n.value).replace(/\|/g, "\\|")}\` |`,
    ),
    "",
  ];
}
