/**
 * Variables and variable sets in a generated program: a variable as a program declares it,
 * and the statements of the variable sets with their applications.
 */
import { originQuery } from "../api/origin";
import type { Variable } from "../client";
import { Code } from "./code";
import { byCodePoint } from "./names";
import type { VariableSetRecord } from "./read";

/**
 * A variable as a program declares it. A description that is an origin this package wrote
 * (a variable or set created without one, docs/interrupted-updates.md) is left out: the
 * copy would turn the recovery of interrupted creates off, and an input left out is not managed.
 */
export function variableArgs(v: Variable, secret: () => Code): Record<string, unknown> {
  return {
    key: v.key,
    value: v.sensitive ? secret() : (v.value ?? ""),
    category: v.category === "env" ? "env" : "engine",
    ...(v.hcl ? { hcl: true } : {}),
    ...(v.sensitive ? { sensitive: true } : {}),
    ...(v.description && !originQuery(v.description) ? { description: v.description } : {}),
  };
}

/** Variables in the order a program lists them: by key, then category. */
export const byKey = (a: Variable, b: Variable) => byCodePoint(a.key, b.key) || byCodePoint(a.category, b.category);

/**
 * A value the program must not carry in plaintext, read from a secret stack config key: a
 * sensitive variable's or policy set parameter's value, a notification configuration's token
 * (the service never shows any of them), or a notification URL that is itself a credential.
 */
export interface SecretKey {
  /**
   * Stack config key: `<workspace>-<variable>`, `varset-<set>-<variable>` for a set's,
   * `polset-<set>-<parameter>` for a policy set parameter's, `<workspace>-<notification>-token`
   * or `-url` for a notification configuration's (made unique).
   */
  key: string;
  /** Name of the workspace the variable or notification configuration belongs to; absent for a variable set's. */
  workspace?: string;
  /** Name of the variable set the variable belongs to; absent for a workspace's. */
  variableSet?: string;
  /** Name of the policy set the parameter belongs to; absent for a variable. */
  policySet?: string;
  /** Name of the notification configuration whose `token` or `url` this is; absent for a variable. */
  notification?: string;
  /** The variable's (or parameter's) key; for a notification configuration, `token` or `url`. */
  variable: string;
  /**
   * Read with `config.getSecret`: left unset, the value is not managed (a notification's
   * token, which the service never says it has). Otherwise the program requires the key.
   */
  optional?: boolean;
}

/** Where a secret belongs, as a README names it: `workspace web`, `variable set creds`, `policy set baseline`, `notification alerts of workspace web`. */
export function secretOwner(s: SecretKey): string {
  if (s.notification !== undefined) return `notification ${s.notification} of workspace ${s.workspace ?? ""}`;
  if (s.policySet !== undefined) return `policy set ${s.policySet}`;
  return s.variableSet !== undefined ? `variable set ${s.variableSet}` : `workspace ${s.workspace ?? ""}`;
}

/** The README's `pulumi config set` placeholder for a secret's value: `<value of KEY>`, `<token of notification NAME>`. */
export function secretPlaceholder(s: SecretKey): string {
  return s.notification !== undefined
    ? `<${s.variable} of notification ${s.notification}>`
    : `<value of ${s.variable}>`;
}

/** What {@link declareVariableSets} needs of the program file it writes into. */
export interface DeclarationContext {
  /** Starts a group of statements under a comment. */
  section(title: string): void;
  /** Writes one resource's statement and its import entry. */
  declare(kind: string, name: string, id: string, args: Record<string, unknown>, ident?: string): void;
  resourceName(wanted: string): string;
  identifier(name: string, prefix: string): string;
  /** The secret config key of a sensitive value, as code that reads it. */
  secret(owner: Omit<SecretKey, "key">, ...parts: string[]): Code;
  /** A workspace or project as the file refers to it: a reference, or its literal id. */
  ref(id: string): unknown;
  workspaceName(id: string): string | undefined;
  projectName(id: string): string | undefined;
}

/**
 * Declares each set (its variables, `global`, `priority`) and one `VariableSetApplication`
 * per project and workspace it applies to; returns how many applications it declared.
 */
export function declareVariableSets(at: DeclarationContext, variableSets: VariableSetRecord[]): number {
  let applications = 0;
  if (variableSets.length) {
    at.section("// Variable sets, with their variables and where each applies");
    for (const { set, variables } of variableSets) {
      const ident = at.identifier(`${set.name}-varset`, "varset");
      at.declare(
        "VariableSet",
        at.resourceName(set.name),
        set.id,
        {
          name: set.name,
          organization: new Code("organization"),
          ...(set.description && !originQuery(set.description) ? { description: set.description } : {}),
          ...(set.global ? { global: true } : {}),
          ...(set.priority ? { priority: true } : {}),
          ...(variables.length
            ? {
                variables: [...variables]
                  .sort(byKey)
                  .map((v) =>
                    variableArgs(v, () =>
                      at.secret({ variableSet: set.name, variable: v.key }, "varset", set.name, v.key),
                    ),
                  ),
              }
            : {}),
          adopt: true,
        },
        ident,
      );
      const targets = [
        ...[...set.projectIds]
          .map((id) => ({ label: at.projectName(id) ?? id, id, target: { projectId: at.ref(id) } }))
          .sort((a, b) => byCodePoint(a.label, b.label)),
        ...set.workspaceIds
          .map((id) => ({ label: at.workspaceName(id) ?? id, id, target: { workspaceId: at.ref(id) } }))
          .sort((a, b) => byCodePoint(a.label, b.label)),
      ];
      for (const { label, id, target } of targets) {
        at.declare("VariableSetApplication", at.resourceName(`${set.name}-${label}`), `${set.id}/${id}`, {
          variableSetId: new Code(`${ident}.id`),
          ...target,
          adopt: true,
        });
        applications++;
      }
    }
  }
  return applications;
}
