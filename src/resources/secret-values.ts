/**
 * What is secret, said once for both doors: the TypeScript classes make these values
 * secret before they reach the engine, the provider plugin marks them secret in every
 * answer (checked inputs, outputs, the inputs a read gives back), and the plugin's schema
 * (scripts/plugin/schema.js) marks the same properties `secret`. A value listed here is
 * stored in the state only encrypted, whether the program gave it as a secret or as a
 * plain literal.
 *
 * Plain data (and the URL rule of src/api/credentials.ts, which the local server shares),
 * so that the schema derivation can read it as it is.
 */
import { carriesCredentials } from "../api/credentials";

export { carriesCredentials };

/** Items of a list input whose `value` is secret when the item's `when` flag is true. */
export interface SecretItems {
  /** The list input (`variables`). */
  readonly list: string;
  /** The item's key holding the value (`value`). */
  readonly value: string;
  /** The item's boolean key that makes the value secret (`sensitive`). */
  readonly when: string;
}

/** A top-level input whose value is secret when the resource's `when` flag is true. */
interface SecretField {
  /** The input holding the value (`value`). */
  readonly value: string;
  /** The boolean input that makes it secret (`sensitive`). */
  readonly when: string;
}

/** The secret values of one resource. */
export interface ResourceSecrets {
  /** Outputs stored only as secrets, whatever they hold. */
  readonly outputs: readonly string[];
  /** List inputs whose items carry a value that is secret when the item says so. */
  readonly items: readonly SecretItems[];
  /**
   * Inputs that are secret when the resource's flag says so. Only then: a value that is
   * not sensitive stays readable in previews and diffs, so the schema does not mark these
   * `secret` (an SDK would then hide every value); both doors mark them per resource.
   */
  readonly fields?: readonly SecretField[];
  /**
   * Inputs holding a URL that are secret when it carries credentials (see
   * {@link carriesCredentials}): only then, so that a plain address stays readable.
   */
  readonly credentialed?: readonly string[];
}

/** The provider's configuration keys (`workspaces:<key>`) that are secret. */
export const SECRET_CONFIG: readonly string[] = ["token"];

/** The secret values of each resource, by resource type name; a resource not named has none. */
export const SECRET_VALUES: Readonly<Record<string, ResourceSecrets>> = {
  NoCodeWorkspace: {
    outputs: ["sensitiveValues"],
    items: [{ list: "variables", value: "value", when: "sensitive" }],
  },
  WorkspaceVariable: {
    outputs: ["sensitiveValue"],
    items: [],
    fields: [{ value: "value", when: "sensitive" }],
  },
  WorkspaceVariables: {
    outputs: ["sensitiveValues"],
    items: [{ list: "variables", value: "value", when: "sensitive" }],
  },
  VariableSet: {
    outputs: ["sensitiveValues"],
    items: [{ list: "variables", value: "value", when: "sensitive" }],
  },
  NotificationConfiguration: {
    // Write-only on the service: what the stack keeps is the program's last value.
    outputs: ["token"],
    items: [],
    credentialed: ["url"],
  },
  AgentToken: {
    // Answered once, by the create: what the stack keeps is the only copy.
    outputs: ["token"],
    items: [],
  },
  TeamToken: { outputs: ["token"], items: [] },
  OrganizationToken: { outputs: ["token"], items: [] },
  PolicySetParameter: {
    outputs: ["sensitiveValue"],
    items: [],
    fields: [{ value: "value", when: "sensitive" }],
  },
};

const NONE: ResourceSecrets = { outputs: [], items: [] };

/** The secret values of a resource type (by name). */
export function secretsOf(kind: string): ResourceSecrets {
  return SECRET_VALUES[kind] ?? NONE;
}

/** A path into a property bag: keys and list indexes. */
export type SecretPath = readonly (string | number)[];

/**
 * Where `props` (inputs or outputs of a resource of `kind`) hold a secret value: each
 * secret output that is present, each secret field whose flag is true, each URL that
 * carries credentials, and the value of each list item whose flag is true.
 */
export function secretPaths(kind: string, props: Record<string, unknown> | undefined): SecretPath[] {
  const secrets = secretsOf(kind);
  const paths: SecretPath[] = [];
  for (const name of secrets.outputs) if (props?.[name] !== undefined) paths.push([name]);
  for (const field of secrets.fields ?? []) if (isSecretItem(props, field)) paths.push([field.value]);
  for (const name of secrets.credentialed ?? []) if (carriesCredentials(props?.[name])) paths.push([name]);
  for (const rule of secrets.items) {
    const list = props?.[rule.list];
    if (!Array.isArray(list)) continue;
    list.forEach((item: unknown, i) => {
      if (isSecretItem(item, rule)) paths.push([rule.list, i, rule.value]);
    });
  }
  return paths;
}

/** Whether a list item's value is secret under `rule` (its flag is true and it has a value). */
export function isSecretItem(item: unknown, rule: Pick<SecretItems, "value" | "when">): boolean {
  if (item === null || typeof item !== "object") return false;
  const fields = item as Record<string, unknown>;
  return fields[rule.when] === true && fields[rule.value] !== undefined;
}
