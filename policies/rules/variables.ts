import type { PolicyConfigSchema, ResourceValidationPolicy } from "@pulumi/policy";
import {
  UNKNOWN,
  allowanceSchema,
  exemptByName,
  VariableSet,
  WorkspaceVariable,
  WorkspaceVariables,
  configOf,
  isOfType,
  pattern,
  show,
  str,
  strings,
  subject,
  validateKnownProps,
  type Props,
} from "./common";

// WorkspaceVariable declares one variable (`key`, `sensitive`); WorkspaceVariables and
// VariableSet a list of them (`variables`), each item spelled the same way.

/**
 * Keys that name a secret: any key holding PASSWORD, PASSWD, PASSPHRASE, SECRET or
 * PRIVATE_KEY, and any key that ends in the word TOKEN, API_KEY or CREDENTIALS
 * (`GITHUB_TOKEN`, but not `TOKEN_TTL`). Keys are matched in upper case.
 */
const SECRET_KEY_PATTERN = "PASSWORD|PASSWD|PASSPHRASE|SECRET|PRIVATE_?KEY|(^|[_.-])(TOKENS?|API_?KEYS?|CREDENTIALS?)$";

const sensitiveKeySchema: PolicyConfigSchema = {
  properties: {
    keyPattern: {
      type: "string",
      default: SECRET_KEY_PATTERN,
      description:
        "Regular expression for the keys of variables that hold a secret, matched against the key in upper case (so `db_password` matches PASSWORD). The default covers passwords, secrets (AWS_SECRET_ACCESS_KEY, a client secret), private keys, and keys ending in TOKEN, API_KEY or CREDENTIALS.",
    },
    exceptKeys: {
      type: "array",
      items: { type: "string", minLength: 1 },
      uniqueItems: true,
      default: [],
      description:
        'Keys that match the pattern but hold no secret, compared exactly, for example ["TOKEN_TTL_SECONDS"].',
    },
  },
};

/** A variable as a rule reads it: its key and sensitive flag, and where the program says them. */
interface DeclaredVariable {
  key: string;
  sensitive: unknown;
  /** `""` for a WorkspaceVariable, `variables[2].` for an item of a list. */
  at: string;
}

/** The variables a resource declares whose key and flag are known (an unknown item or key is left out). */
function declaredVariables(props: Props, single: boolean): DeclaredVariable[] {
  if (single) {
    const key = str(props.key);
    return key === undefined ? [] : [{ key, sensitive: props.sensitive, at: "" }];
  }
  const list = props.variables;
  if (!Array.isArray(list)) return [];
  return list.flatMap((item: unknown, i) => {
    if (item === null || typeof item !== "object") return [];
    const key = str((item as Props).key);
    return key === undefined ? [] : [{ key, sensitive: (item as Props).sensitive, at: `variables[${i}].` }];
  });
}

export const variableSecretKeySensitive: ResourceValidationPolicy = {
  name: "variable-secret-key-sensitive",
  description:
    "A variable whose key looks like a secret (a token, a password, a secret or private key) is sensitive: write-only on the service and a secret in the state.",
  enforcementLevel: "mandatory",
  configSchema: sensitiveKeySchema,
  validateResource: validateKnownProps(
    [WorkspaceVariable, WorkspaceVariables, VariableSet],
    (props, args, reportViolation) => {
      const config = configOf<{ keyPattern: string; exceptKeys: string[] }>(sensitiveKeySchema, args);
      const re = pattern(variableSecretKeySensitive.name, "keyPattern", config.keyPattern);
      const except = new Set(strings(config.exceptKeys) ?? []);
      for (const v of declaredVariables(props, isOfType(args, WorkspaceVariable))) {
        // An unknown flag may still turn out true.
        if (v.sensitive === true || v.sensitive === UNKNOWN) continue;
        if (except.has(v.key) || !re.test(v.key.toUpperCase())) continue;
        reportViolation(
          `${subject(args)}: ${v.at}key ${show(v.key)} names a secret, but ${v.at}sensitive is not true, so its value is readable ` +
            `on the service, in previews and in the state. Fix: set ${v.at}sensitive true (the value then becomes write-only and ` +
            `a secret in the state), or list the key in exceptKeys if it holds no secret.`,
        );
      }
    },
  ),
};

const globalSetSchema = allowanceSchema(
  "allowGlobal",
  false,
  "Allow any variable set to be global (applied to every workspace of the organization).",
  'Names of the variable sets that may be global when allowGlobal is false, for example ["org-defaults"].',
);

export const variableSetGlobal: ResourceValidationPolicy = {
  name: "variable-set-global",
  description:
    "A global variable set reaches every workspace of the organization, present and future; only the sets the organisation allows may be global.",
  enforcementLevel: "advisory",
  configSchema: globalSetSchema,
  validateResource: validateKnownProps([VariableSet], (props, args, reportViolation) => {
    if (props.global !== true) return;
    const config = configOf<{ allowGlobal: boolean; allowedNames: string[] }>(globalSetSchema, args);
    if (config.allowGlobal === true) return;
    const allowed = strings(config.allowedNames) ?? [];
    const name = str(props.name);
    if (exemptByName(allowed, name)) return;
    reportViolation(
      `${subject(args)}: global ${show(true)} applies ${name === undefined ? "the set" : `set ${show(name)}`} to every workspace of the organization, ` +
        `including those made later. Fix: remove global and apply the set where it belongs with VariableSetApplication ` +
        `resources (a project or workspaces)${allowed.length ? `; the sets allowed to be global are ${allowed.map(show).join(", ")}` : ""}.`,
    );
  }),
};
