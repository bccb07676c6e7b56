/** Provider of `NoCodeModule` (spec 2.7, 2.8, 4.12 to 4.14). The service has no delete: delete disables. */
import type * as pulumi from "@pulumi/pulumi";
import { isId } from "../../api/common";
import { noCodeModuleEnableRequestSchema } from "../../api/no-code";
import type { NoCodeModule as ApiNoCodeModule, VariableOptions } from "../../client";
import { defaultOrganization } from "../provider-settings";
import { getClient } from "./client";
import { dedupeFailures, failuresFromIssues } from "./check-failures";
import { diffFields, sameJsonUnordered, type FieldRule } from "./compare";
import { explainingMissingFeatures } from "./user-errors";
import { organizationFailures, organizationInput } from "./inputs";
import { unlessGone, type MissingRecord } from "./gone";
import { withoutUnknowns } from "./unknowns";
import type { CheckFailure, CheckResult, ProviderImpl, Props } from "./types";
import type { NoCodeModuleArgs } from "../no-code-module";

/** Inputs as the engine hands them over. */
type NoCodeModuleInputs = pulumi.Unwrap<NoCodeModuleArgs>;

/** Outputs as stored in state. */
type NoCodeModuleOutputs = {
  organization: string | null;
  registryModuleId: string | null;
  versionPin: string;
  enabled: boolean;
  variableOptions: VariableOptions[];
  selfLink: string | null;
};

const RENAMES = {
  "relationships.variable-options": "variableOptions",
  "relationships.registry-module": "registryModuleId",
};

interface OptionSet {
  variableName: string;
  variableType: string;
  options: unknown[];
}

function optionSets(v: unknown): OptionSet[] {
  return Array.isArray(v)
    ? v.map((o: Props) => ({
        variableName: String(o.variableName),
        variableType: String(o.variableType),
        options: Array.isArray(o.options) ? o.options : [],
      }))
    : [];
}

/**
 * The desired option sets match the service's, by variable name, with the allowed
 * values in any order. Sets the program does not list are left out of the comparison:
 * the service offers no way to remove one, so they are not this resource's to judge.
 */
function sameOptionSets(desired: unknown, actual: unknown): boolean {
  const have = optionSets(actual);
  return optionSets(desired).every((d) => {
    const a = have.find((h) => h.variableName === d.variableName);
    return a !== undefined && a.variableType === d.variableType && sameJsonUnordered(a.options, d.options);
  });
}

const FIELDS: FieldRule[] = [
  { name: "organization", replaces: true },
  { name: "registryModuleId" },
  { name: "versionPin" },
  { name: "enabled", same: (a, b) => Boolean(a) === Boolean(b) },
  { name: "variableOptions", same: sameOptionSets },
];

function outputsOf(
  m: ApiNoCodeModule,
  organization: string | null | undefined,
  fallbackOptions?: VariableOptions[],
): NoCodeModuleOutputs {
  return {
    organization: m.organization ?? organization ?? null,
    registryModuleId: m.registryModuleId,
    versionPin: m.versionPin,
    enabled: m.enabled,
    variableOptions: m.variableOptions
      ? [...m.variableOptions].sort((x, y) => x.variableName.localeCompare(y.variableName))
      : (fallbackOptions ?? []),
    selfLink: m.links.self ?? null,
  };
}

function checkNoCodeModule(
  news: NoCodeModuleInputs & Props,
  olds: Props = {},
): CheckResult<NoCodeModuleInputs & Props> {
  const inputs = { ...news };
  const failures: CheckFailure[] = [];
  if (inputs.organization === undefined || inputs.organization === "") {
    // No organization given, so this is the recorded or the ambient one: a string or undefined.
    const org = organizationInput(olds, news, defaultOrganization);
    if (typeof org === "string" && org) inputs.organization = org;
    else
      failures.push({
        property: "organization",
        reason: "organization is required: set it, or the stack config workspaces:organization",
      });
  }
  failures.push(...organizationFailures(news.organization));
  if (inputs.enabled === undefined) inputs.enabled = true;
  const known = withoutUnknowns(inputs);
  if (news.registryModuleId === undefined)
    failures.push({ property: "registryModuleId", reason: "registryModuleId is required" });
  else if (known.registryModuleId !== undefined && !isId("registryModule", known.registryModuleId)) {
    failures.push({ property: "registryModuleId", reason: "registryModuleId must be a registry module id (mod-...)" });
  }
  const body = {
    data: {
      type: "no-code-modules",
      attributes: { "version-pin": known.versionPin, enabled: known.enabled },
      relationships: {
        "registry-module": { data: { type: "registry-module", id: known.registryModuleId ?? "mod-unknown" } },
        ...(known.variableOptions !== undefined
          ? {
              "variable-options": {
                data: Array.isArray(known.variableOptions)
                  ? known.variableOptions.map((o: Props) => ({
                      type: "variable-options",
                      attributes: {
                        "variable-name": o?.variableName,
                        "variable-type": o?.variableType,
                        options: o?.options,
                      },
                    }))
                  : known.variableOptions,
              },
            }
          : {}),
      },
    },
  };
  const parsed = noCodeModuleEnableRequestSchema.safeParse(body);
  if (!parsed.success) failures.push(...failuresFromIssues(parsed.error.issues, RENAMES));
  if (Array.isArray(known.variableOptions)) {
    const seen = new Set<string>();
    known.variableOptions.forEach((o: Props, i: number) => {
      const n = o?.variableName;
      if (typeof n === "string" && seen.has(n)) {
        failures.push({
          property: `variableOptions[${i}].variableName`,
          reason: `variableOptions[${i}].variableName: ${n} has two option sets`,
        });
      }
      if (typeof n === "string") seen.add(n);
    });
  }
  return { inputs, failures: dedupeFailures(failures) };
}

/** The update body's option sets: existing set ids are reused by variable name so sets are replaced, not duplicated. */
function optionsUpdate(desired: unknown, existing: { id: string; variableName: string }[]) {
  return optionSets(desired).map((s) => {
    const match = existing.find((e) => e.variableName === s.variableName);
    return match ? { id: match.id, ...s } : s;
  });
}

function moduleRecord(id: string, props: Props): MissingRecord {
  return { label: `no-code module ${id}`, organization: props.organization, kind: "no-code module" };
}

export const noCodeModuleProvider: ProviderImpl<NoCodeModuleInputs & Props, NoCodeModuleOutputs> =
  explainingMissingFeatures(
    {
      async check(olds, news) {
        return checkNoCodeModule(news, olds);
      },

      async diff(_id, olds, news) {
        const { changed, replaces } = diffFields(olds, news, FIELDS);
        return { changes: changed.length > 0, replaces };
      },

      async create(inputs) {
        const client = getClient();
        const organization = String(inputs.organization);
        const created = await client.noCode.enable(organization, {
          registryModuleId: inputs.registryModuleId,
          versionPin: inputs.versionPin,
          enabled: inputs.enabled !== false,
          variableOptions: inputs.variableOptions !== undefined ? optionSets(inputs.variableOptions) : undefined,
        });
        const m = await client.noCode.read(created.id, { includeVariableOptions: true });
        return { id: m.id, outs: outputsOf(m, organization) };
      },

      async read(id, props) {
        const client = getClient();
        return unlessGone(
          client,
          moduleRecord(id, props),
          "refresh",
          async () => {
            const m = await client.noCode.read(id, { includeVariableOptions: true });
            return { id: m.id, props: outputsOf(m, props.organization) };
          },
          () => ({}),
        );
      },

      async update(id, olds, news) {
        const client = getClient();
        const { changed } = diffFields(olds, news, FIELDS);
        const set = new Set(changed);
        await client.noCode.update(id, {
          versionPin: set.has("versionPin") ? news.versionPin : undefined,
          enabled: set.has("enabled") ? news.enabled !== false : undefined,
          registryModuleId: set.has("registryModuleId") ? news.registryModuleId : undefined,
          variableOptions: set.has("variableOptions")
            ? optionsUpdate(news.variableOptions, olds.variableOptions ?? [])
            : undefined,
        });
        const m = await client.noCode.read(id, { includeVariableOptions: true });
        return { outs: outputsOf(m, olds.organization) };
      },

      /** No delete endpoint exists: the module is disabled instead, which stops new workspaces from using it. */
      async delete(id, props) {
        const client = getClient();
        await unlessGone(
          client,
          moduleRecord(id, props),
          "delete",
          () => client.noCode.update(id, { enabled: false }),
          () => undefined,
        );
      },
    },
    "no-code module",
  );
