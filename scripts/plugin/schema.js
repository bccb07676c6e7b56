#!/usr/bin/env node
// Derives the provider plugin's Pulumi package schema (src/plugin/schema.json) from the
// TypeScript door's own sources, with the TypeScript compiler: each resource's inputs are
// the properties of its `<Resource>Args` interface, its outputs the `pulumi.Output`
// properties of its class, each function's arguments and result its parameter and
// return types; types come from the checker and descriptions from the doc comments that
// TypeScript users read (the workspace field table's line comments where a property is
// mapped from the table). Which inputs replace the resource comes from the providers'
// diff tables (`replaces: true`, and the field table's `diff: "replace"`); what is secret
// from the list both doors use (src/resources/secret-values.ts); how each resource is
// imported from the list of its id forms (src/plugin/import-ids.ts). A value that may be
// absent (`T | null`) is optional, a whole number (`Integer`, src/api/common.ts) an
// integer, a closed set of strings an enum that still takes any string (so a program
// written before it existed keeps working; each value described by the "`value`
// (description)" its type's doc comment gives), a doc comment's "Default X" (a literal)
// the property's `default`, and its `@deprecated` tag the property's `deprecationMessage`.
// Each resource's `## Example Usage` comes from ./examples/<Resource>.md, each function's
// from ./examples/functions/<function>.md: one or more examples, each a `### Title` and a
// TypeScript, a Python, a Go and a YAML block (test/plugin/examples.test.ts and
// `scripts/plugin/sdks --check` compile them).
//
//   node scripts/plugin/schema.js          writes src/plugin/schema.json
//   node scripts/plugin/schema.js --check  fails when the committed file differs
"use strict";
const fs = require("fs");
const path = require("path");
const ts = require("typescript");
const versions = require("../release/versions.js");

const root = path.resolve(__dirname, "../..");
const OUT = path.join(root, "src/plugin/schema.json");
// Where the engine downloads the archives of scripts/plugin/pack.js, the GitHub release of
// package.json's repository: the SDKs carry it with the schema's version (`respectSchemaVersion`),
// so `pulumi up` installs the plugin.
const release = versions.expected(root);

/** The diff table that agent, team and organization tokens share: each takes the lines of the inputs it has. */
const MINTED = "resources/providers/minted-token.ts";
/**
 * The resources: class, args interface and the provider files whose diff tables name replacing
 * inputs (`shared`: tables of several kinds, whose lines name inputs of some of them only).
 */
const RESOURCES = [
  { name: "Workspace", file: "workspace.ts", diffs: [], table: true },
  { name: "WorkspaceTags", file: "workspace-tags.ts", diffs: ["resources/providers/workspace-tags.ts"] },
  {
    name: "RemoteStateConsumers",
    file: "remote-state-consumers.ts",
    diffs: ["resources/providers/remote-state-consumers.ts"],
  },
  { name: "NoCodeModule", file: "no-code-module.ts", diffs: ["resources/providers/no-code-module.ts"] },
  { name: "NoCodeWorkspace", file: "no-code-workspace.ts", diffs: ["resources/providers/no-code-fields.ts"] },
  { name: "WorkspaceLock", file: "workspace-lock.ts", diffs: ["resources/providers/workspace-lock.ts"] },
  {
    name: "DataRetentionPolicy",
    file: "data-retention-policy.ts",
    diffs: ["resources/providers/data-retention-policy.ts"],
  },
  { name: "WorkspaceVariable", file: "workspace-variable.ts", diffs: ["resources/providers/workspace-variable.ts"] },
  { name: "WorkspaceVariables", file: "workspace-variables.ts", diffs: ["resources/providers/workspace-variables.ts"] },
  { name: "VariableSet", file: "variable-set.ts", diffs: ["resources/providers/variable-set.ts"] },
  {
    name: "VariableSetApplication",
    file: "variable-set-application.ts",
    diffs: ["resources/providers/variable-set-application.ts"],
  },
  {
    name: "TeamWorkspaceAccess",
    file: "team-workspace-access.ts",
    diffs: ["resources/providers/team-workspace-access.ts"],
  },
  {
    name: "TeamProjectAccess",
    file: "team-project-access.ts",
    diffs: ["resources/providers/team-project-access.ts"],
  },
  { name: "Project", file: "project.ts", diffs: ["resources/providers/project.ts"] },
  { name: "Team", file: "team.ts", diffs: ["resources/providers/team.ts"] },
  { name: "RunTrigger", file: "run-trigger.ts", diffs: ["resources/providers/run-trigger.ts"] },
  {
    name: "NotificationConfiguration",
    file: "notification-configuration.ts",
    diffs: ["resources/providers/notification-configuration.ts"],
  },
  { name: "AgentPool", file: "agent-pool.ts", diffs: ["resources/providers/agent-pool.ts"] },
  ...["AgentPoolAllowedWorkspaces", "AgentPoolAllowedProjects", "AgentPoolExcludedWorkspaces"].map((name) => ({
    name,
    file: "agent-pool-lists.ts",
    diffs: ["resources/providers/agent-pool-lists.ts"],
  })),
  { name: "AgentToken", file: "agent-token.ts", diffs: ["resources/providers/agent-token.ts"], shared: [MINTED] },
  {
    name: "WorkspaceSettings",
    file: "workspace-settings.ts",
    diffs: ["resources/providers/workspace-settings-rules.ts"],
  },
  { name: "Policy", file: "policy.ts", diffs: ["resources/providers/policy.ts"] },
  { name: "PolicySet", file: "policy-set.ts", diffs: ["resources/providers/policy-set-rules.ts"] },
  {
    name: "PolicySetParameter",
    file: "policy-set-parameter.ts",
    diffs: ["resources/providers/policy-set-parameter.ts"],
  },
  ...["PolicySetWorkspaces", "PolicySetProjects", "PolicySetWorkspaceExclusions", "PolicySetProjectExclusions"].map(
    (name) => ({ name, file: "policy-set-lists.ts", diffs: ["resources/providers/policy-set-lists.ts"] }),
  ),
  {
    name: "OrganizationMembership",
    file: "organization-membership.ts",
    diffs: ["resources/providers/organization-membership.ts"],
  },
  { name: "TeamMembers", file: "team-members.ts", diffs: ["resources/providers/team-members.ts"] },
  { name: "TeamToken", file: "team-token.ts", diffs: ["resources/providers/team-token.ts"], shared: [MINTED] },
  {
    name: "OrganizationToken",
    file: "organization-token.ts",
    diffs: ["resources/providers/organization-token.ts"],
    shared: [MINTED],
  },
];
const FUNCTIONS = [
  "getWorkspaces",
  "getWorkspace",
  "getEffectiveVariables",
  "getWorkspaceOutputs",
  "getEffectiveAccess",
  "getTeam",
  "getAgentPool",
  "getPolicySet",
  "getOrganizationMembers",
  "getTeamMembers",
];
const SECRET_VALUES = "resources/secret-values.ts";
const IMPORT_IDS = "plugin/import-ids.ts";
const TABLE_FILES = ["api/workspace-fields-settings.ts", "api/workspace-fields-reported.ts"];
const EXAMPLES = path.join(__dirname, "examples");
/** The examples of the functions (lookups), one file per function, as those of the resources. */
const FUNCTION_EXAMPLES = path.join(EXAMPLES, "functions");
/** The languages of each example, as the code generators name them: each keeps its own blocks. */
const EXAMPLE_LANGUAGES = ["typescript", "python", "go", "yaml"];

function derive() {
  const src = (f) => path.join(root, "src", f);
  const files = [
    ...RESOURCES.flatMap((r) => [src(`resources/${r.file}`), ...r.diffs.map(src), ...(r.shared ?? []).map(src)]),
    src("resources/lookups.ts"),
    src("resources/tokens.ts"),
  ];
  const program = ts.createProgram(files, {
    strict: true,
    skipLibCheck: true,
    resolveJsonModule: true,
    esModuleInterop: true,
    module: ts.ModuleKind.CommonJS,
    target: ts.ScriptTarget.ES2022,
  });
  const checker = program.getTypeChecker();
  const sourceFile = (f) => program.getSourceFile(src(f));
  const exported = (f, name) => {
    const sym = checker.getExportsOfModule(checker.getSymbolAtLocation(sourceFile(f))).find((s) => s.name === name);
    if (!sym) throw new Error(`${f} exports no ${name}`);
    return sym;
  };
  const docOf = (sym) => ts.displayPartsToString(sym.getDocumentationComment(checker)).trim();

  // The package name and token prefix every door uses (the policy pack matches them), as
  // src/resources/tokens.ts states them.
  const literal = (name) => {
    const t = checker.getTypeOfSymbol(exported("resources/tokens.ts", name));
    if (!t.isStringLiteral()) throw new Error(`resources/tokens.ts: ${name} is not a string literal`);
    return t.value;
  };
  const PKG = literal("PLUGIN_PACKAGE");
  const tokenPrefix = literal("PLUGIN_TOKEN_PREFIX");
  const tok = (name) => `${tokenPrefix}${name}`;

  // Doc comments of the field table's lines, for properties mapped from the table.
  const tableDocs = new Map();
  const tableDeprecations = new Map();
  const deprecationOf = (sym) =>
    sym
      .getJsDocTags(checker)
      .filter((t) => t.name === "deprecated")
      .map((t) => ts.displayPartsToString(t.text).trim())[0];
  for (const f of TABLE_FILES) {
    visit(sourceFile(f), (node) => {
      if (ts.isPropertyAssignment(node) && ts.isIdentifier(node.name) && ts.isCallExpression(node.initializer)) {
        const sym = checker.getSymbolAtLocation(node.name);
        const doc = sym && docOf(sym);
        if (doc) tableDocs.set(node.name.text, doc);
        const deprecated = sym && deprecationOf(sym);
        if (deprecated !== undefined) tableDeprecations.set(node.name.text, deprecated);
      }
    });
  }
  const describe = (sym) => docOf(sym) || tableDocs.get(sym.name) || "";
  const deprecation = (sym) => deprecationOf(sym) ?? tableDeprecations.get(sym.name);

  const types = {};

  const isNullish = (t) => (t.flags & (ts.TypeFlags.Null | ts.TypeFlags.Undefined | ts.TypeFlags.Void)) !== 0;
  const symbolName = (t) => (t.aliasSymbol ?? t.getSymbol())?.name;
  const isWrapper = (t) => {
    const n = t.getSymbol()?.name;
    return n === "Promise" || n === "OutputInstance" || n === "Output";
  };
  /** The `T` of an `OutputInstance<T>`, alone or in an intersection (`pulumi.Output<T>`), else undefined. */
  const outputArgument = (t) => {
    const out = t.isIntersection()
      ? t.types.find((m) => m.getSymbol()?.name === "OutputInstance")
      : t.getSymbol()?.name === "OutputInstance"
        ? t
        : undefined;
    return out ? checker.getTypeArguments(out)[0] : undefined;
  };
  /** The plain value type of `pulumi.Input<T>` / `pulumi.Output<T>` / `T | null | undefined`. */
  function plain(t) {
    const arg = outputArgument(t);
    if (arg) return plain(arg);
    if (!t.isUnion()) return t;
    // `pulumi.Output<string | null>` distributes into `Output<string> | Output<null>`.
    const args = t.types.map(outputArgument);
    if (args.every(Boolean)) {
      const values = args.filter((a) => !isNullish(a));
      return values.length === 1 ? plain(values[0]) : { union: values.map(plain) };
    }
    const kept = t.types.filter(
      (m) => !isNullish(m) && !isWrapper(m) && !(m.isIntersection() && m.types.some(isWrapper)),
    );
    if (kept.length === 1) return plain(kept[0]);
    if (kept.length === t.types.length) return t;
    // `pulumi.Input<T>` spreads a union `T` among its own members; the wrapped `T` keeps its name.
    const wrapped = t.types.filter(isWrapper).map((m) => checker.getTypeArguments(m)[0]);
    return { union: kept.map(plain), alias: wrapped.find((a) => a?.aliasSymbol)?.aliasSymbol };
  }
  /** Whether a value of type `t` may be null or undefined (inside `Output<T | null>` too). */
  function admitsNull(t) {
    if (isNullish(t)) return true;
    const arg = outputArgument(t);
    if (arg) return admitsNull(arg);
    return t.isUnion() && t.types.some(admitsNull);
  }
  /** `Integer` (src/api/common.ts): a number carrying the integer mark. */
  const isInteger = (t) =>
    t.isIntersection() &&
    t.types.some((m) => m.flags & ts.TypeFlags.Number) &&
    t.types.some((m) => checker.getPropertiesOfType(m).some((p) => String(p.escapedName).startsWith("__@integerMark")));
  /** The values of a closed set of strings (a union of string literals), else undefined. */
  const literalValues = (members) =>
    members.length > 1 && members.every((m) => m.flags & ts.TypeFlags.StringLiteral)
      ? members.map((m) => m.value)
      : undefined;

  /**
   * A closed set of strings as an enum type of the schema, referred to as a string that may
   * be one of them: programs that gave a plain string keep working (Go and Python type the
   * property as a string), and the enum's constants name the values.
   */
  function enumSpec(values, named, context, description) {
    const own = named && docOf(named);
    const enumValues = values.map((value) => ({
      name: enumName(value),
      description: valueDescription(own || description, value, named?.name ?? context),
      value,
    }));
    let token = tok(named?.name ?? context);
    while (types[token] && JSON.stringify(types[token].enum) !== JSON.stringify(enumValues)) token = `${token}Info`;
    types[token] ??= { type: "string", description: own || description, enum: enumValues };
    return { type: "string", oneOf: [{ type: "string" }, { type: "string", $ref: `#/types/${token}` }] };
  }

  /**
   * The type alias a property's declaration names (`pulumi.Input<ExecutionMode>`, `T | null`),
   * where the checker no longer tells it (an alias of an indexed access type).
   */
  function declaredAlias(sym) {
    let node = sym.declarations?.[0]?.type;
    const isNull = (n) => ts.isLiteralTypeNode(n) && n.literal.kind === ts.SyntaxKind.NullKeyword;
    for (let i = 0; node && i < 4; i++) {
      if (ts.isUnionTypeNode(node) && node.types.filter((n) => !isNull(n)).length === 1)
        node = node.types.find((n) => !isNull(n));
      else if (ts.isTypeReferenceNode(node) && /^(pulumi\.)?(Input|Output)$/.test(node.typeName.getText()))
        node = node.typeArguments?.[0];
      else break;
    }
    if (!node || !ts.isTypeReferenceNode(node)) return undefined;
    const named = checker.getSymbolAtLocation(node.typeName);
    return named && named.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(named) : named;
  }

  function typeSpec(t, context, output, description, alias) {
    if (t.union) {
      if (t.union.length === 0) throw new Error(`${context}: a type with no value but null or undefined`);
      const values = literalValues(t.union);
      if (values) return enumSpec(values, t.alias ?? alias, context, description);
      const specs = t.union.map((m) => typeSpec(m, context, output));
      const kinds = new Set(specs.map((s) => JSON.stringify(s)));
      if (kinds.size === 1) return specs[0];
      if (specs.every((s) => s.type === "boolean")) return { type: "boolean" };
      if (specs.every((s) => s.type === "string")) return { type: "string" };
      const obj = t.union.find((m) => m.getProperties && checker.getPropertiesOfType(m).length > 0);
      if (obj) return typeSpec(obj, context, output);
      return { $ref: "pulumi.json#/Any" };
    }
    const f = t.flags;
    if (t.isUnion() && !(f & ts.TypeFlags.BooleanLike)) {
      const values = literalValues(t.types.filter((m) => !isNullish(m)));
      if (values) return enumSpec(values, t.aliasSymbol ?? alias, context, description);
    }
    if (isInteger(t)) return { type: "integer" };
    if (f & (ts.TypeFlags.StringLike | ts.TypeFlags.TemplateLiteral)) return { type: "string" };
    if (f & ts.TypeFlags.NumberLike) return { type: "number" };
    if (f & ts.TypeFlags.BooleanLike) return { type: "boolean" };
    if (f & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return { $ref: "pulumi.json#/Any" };
    if (t.isUnion()) {
      const p = plain(t);
      return typeSpec(
        p === t ? { union: t.types.filter((m) => !isNullish(m)) } : p,
        context,
        output,
        description,
        alias,
      );
    }
    if (t.isIntersection()) {
      // `string & {}` (an open string union) is a string.
      if (t.types.some((m) => m.flags & ts.TypeFlags.String)) return { type: "string" };
    }
    if (checker.isArrayType(t)) {
      return { type: "array", items: typeSpec(plain(checker.getTypeArguments(t)[0]), context, output) };
    }
    const index = checker.getIndexInfoOfType(t, ts.IndexKind.String);
    if (index && checker.getPropertiesOfType(t).length === 0) {
      return { type: "object", additionalProperties: typeSpec(plain(index.type), context, output) };
    }
    const props = checker.getPropertiesOfType(t);
    if (props.length === 0) return { $ref: "pulumi.json#/Any" };
    const named = symbolName(t);
    const base = named && !named.startsWith("__") ? named.replace(/(Args|Value|Output)$/, "") : context;
    const spec = objectSpec(props, output, base);
    spec.type = "object";
    const doc = named && !named.startsWith("__") ? (t.aliasSymbol ?? t.getSymbol()) : undefined;
    const own = doc ? docOf(doc) : "";
    if (own || description) spec.description = own || description;
    else undocumented.push(`type ${base}`);
    // One schema type per shape: an output shape that differs from the input of the same name is
    // `<Name>Info` (inputs are derived first).
    // A shape shared by two resources is one type, whichever of them marked a value of it secret first.
    const shape = (v) => JSON.stringify(v, (k, x) => (k === "secret" ? undefined : x));
    let name = base;
    while (types[tok(name)] && shape(types[tok(name)]) !== shape(spec)) name = `${name}Info`;
    types[tok(name)] ??= spec;
    return { $ref: `#/types/${tok(name)}` };
  }

  // Every property, of a resource, a function or a type, is documented: where its source
  // documents it (the field table's line comments for the table's properties).
  const undocumented = [];
  function propertySpec(sym, output, context) {
    const t = checker.getTypeOfSymbol(sym);
    const description = describe(sym);
    const spec = typeSpec(plain(t), context + upper(sym.name), output, description, declaredAlias(sym));
    if (!description) undocumented.push(`${context}.${sym.name}`);
    const value = output ? undefined : claimedDefault(description, spec, `${context}.${sym.name}`);
    const deprecated = deprecation(sym);
    if (deprecated === "") throw new Error(`${context}.${sym.name}: @deprecated says nothing of what to use instead`);
    return {
      ...spec,
      ...(description ? { description } : {}),
      ...(value !== undefined ? { default: value } : {}),
      ...(deprecated ? { deprecationMessage: deprecated } : {}),
    };
  }

  function objectSpec(props, output, context) {
    const properties = {};
    const required = [];
    for (const p of [...props].sort((a, b) => a.name.localeCompare(b.name))) {
      properties[p.name] = propertySpec(p, output, context);
      const optional = (p.flags & ts.SymbolFlags.Optional) !== 0 || admitsNull(checker.getTypeOfSymbol(p));
      if (!optional) required.push(p.name);
    }
    const spec = { properties };
    if (required.length) spec.required = required;
    return spec;
  }

  const secrets = loadPlain(SECRET_VALUES);
  const importIds = loadPlain(IMPORT_IDS).IMPORT_IDS;
  // Every input first, then every output: where an input and an output type (an object or
  // an enum) would take one name, the input keeps the plain name a program writes
  // (`VariableCategory`) and the output, which a program only reads, is `<Name>Info`.
  const resourceInputs = new Map(
    RESOURCES.map((r) => {
      const args = checker.getDeclaredTypeOfSymbol(exported(`resources/${r.file}`, `${r.name}Args`));
      return [r.name, objectSpec(checker.getPropertiesOfType(args), false, r.name)];
    }),
  );
  const functionInputs = new Map(FUNCTIONS.map((name) => [name, functionArgs(name)]));
  function functionArgs(name) {
    const sig = signatureOf(name);
    // Alternative argument shapes (by name or by id) become one object of optional arguments.
    const argType = plain(checker.getTypeOfSymbol(sig.getParameters()[0]));
    const members = argType.union ?? (argType.isUnion() ? argType.types : [argType]);
    const argProps = new Map();
    for (const m of members)
      for (const p of checker.getPropertiesOfType(m)) if (!argProps.has(p.name)) argProps.set(p.name, p);
    const inputs = objectSpec([...argProps.values()], false, `${upper(name)}Args`);
    if (members.length > 1) delete inputs.required;
    return inputs;
  }
  function signatureOf(name) {
    const fn = exported("resources/lookups.ts", name);
    return checker.getSignaturesOfType(checker.getTypeOfSymbol(fn), ts.SignatureKind.Call)[0];
  }

  const resources = {};
  for (const r of RESOURCES) {
    const f = `resources/${r.file}`;
    const cls = exported(f, r.name);
    const inputs = resourceInputs.get(r.name);
    const instance = checker.getDeclaredTypeOfSymbol(cls);
    const outputProps = checker
      .getPropertiesOfType(instance)
      .filter((p) => (p.declarations ?? []).every((d) => !d.getSourceFile().fileName.includes("node_modules")))
      .filter((p) => /^(Output|OutputInstance)$/.test(symbolName(checker.getTypeOfSymbol(p)) ?? ""));
    const outputs = objectSpec(outputProps, true, r.name);
    const tableReplacing = replacingInputs(TABLE_FILES.map(sourceFile), []);
    const replacing = r.table ? tableReplacing : replacingInputs(r.diffs.map(sourceFile), tableReplacing);
    for (const name of replacingInputs((r.shared ?? []).map(sourceFile), tableReplacing))
      if (inputs.properties[name]) replacing.push(name);
    for (const name of replacing) {
      if (!inputs.properties[name]) throw new Error(`${r.name}: replacing input ${name} is not an input`);
      inputs.properties[name].replaceOnChanges = true;
      if (outputs.properties[name]) outputs.properties[name].replaceOnChanges = true;
    }
    const secret = secrets.secretsOf(r.name);
    for (const name of secret.outputs) {
      if (!outputs.properties[name]) throw new Error(`${r.name}: secret output ${name} is not an output`);
      outputs.properties[name].secret = true;
      // An input of the same name (a write-only token) is the value the output keeps.
      if (inputs.properties[name]) inputs.properties[name].secret = true;
    }
    for (const rule of secret.items) {
      const ref = inputs.properties[rule.list]?.items?.$ref;
      const item = ref && types[ref.slice("#/types/".length)];
      if (!item?.properties?.[rule.value])
        throw new Error(`${r.name}: secret ${rule.list}[].${rule.value} is not an input`);
      item.properties[rule.value].secret = true;
    }
    if (!importIds[r.name]) throw new Error(`${r.name}: src/${IMPORT_IDS} names no id form`);
    resources[tok(r.name)] = {
      description: `${docOf(cls)}\n\n${exampleSection(r.name)}\n\n${importSection(tok(r.name), importIds[r.name])}`,
      properties: outputs.properties,
      ...(outputs.required ? { required: outputs.required } : {}),
      inputProperties: inputs.properties,
      ...(inputs.required ? { requiredInputs: inputs.required } : {}),
    };
  }

  const functions = {};
  for (const name of FUNCTIONS) {
    const fn = exported("resources/lookups.ts", name);
    const sig = signatureOf(name);
    const context = upper(name);
    const inputs = functionInputs.get(name);
    const result = checker.getAwaitedType(sig.getReturnType());
    const outputs = objectSpec(checker.getPropertiesOfType(result), true, `${context}Result`);
    functions[tok(name)] = {
      description: `${docOf(fn).replace(/\n+```ts[\s\S]*?```/g, "")}\n\n${exampleSection(name, FUNCTION_EXAMPLES)}`,
      inputs: { properties: inputs.properties, ...(inputs.required ? { required: inputs.required } : {}) },
      outputs: { properties: outputs.properties, ...(outputs.required ? { required: outputs.required } : {}) },
    };
  }

  // Provider configuration: the settings of src/resources/provider-settings.ts, each taken
  // from the stack config, then the environment (src/client/connection-settings.ts).
  const config = {
    address: {
      type: "string",
      description:
        "Address of the service (`https://host`, or a bare hostname). Default: `WORKSPACES_ADDRESS`, then `TFE_HOSTNAME`. There is no built-in address: without one of the three, every operation fails with an error that names them.",
    },
    token: {
      type: "string",
      description:
        "API token. Default: `WORKSPACES_TOKEN`, then `TFE_TOKEN`, then the credentials file (`~/.terraform.d/credentials.tfrc.json`) for the address. Set it with `pulumi config set --secret workspaces:token`.",
    },
    organization: {
      type: "string",
      description:
        "Organization that resources and lookups use when they name none. Default: `WORKSPACES_ORGANIZATION`, then `TFE_ORGANIZATION`.",
    },
  };
  for (const name of secrets.SECRET_CONFIG) config[name].secret = true;

  if (undocumented.length) throw new Error(`no doc comment for: ${undocumented.join(", ")}`);
  const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
  return {
    name: PKG,
    displayName: "Workspaces",
    version: pkg.version,
    description: packageDescription(RESOURCES.map((r) => r.name)),
    homepage: pkg.homepage,
    repository: release.repository,
    license: pkg.license,
    pluginDownloadURL: release.server,
    keywords: ["pulumi", "workspaces", "no-code", "category/infrastructure"],
    meta: { moduleFormat: "(.*)" },
    config: { variables: config },
    provider: {
      description: "The provider of the workspaces package: where the service is, and the token to reach it.",
      properties: config,
      inputProperties: config,
    },
    resources,
    functions,
    types: sortKeys(types),
    language: {
      go: {
        importBasePath: "github.com/pulumi-workspaces/pulumi-workspaces/sdk/go/workspaces",
        generateResourceContainerTypes: true,
        respectSchemaVersion: true,
      },
      python: {
        packageName: "pulumi_workspaces",
        pyproject: { enabled: true },
        respectSchemaVersion: true,
        // The oldest SDK the suites run (the languages suite installs `pulumi` at the engine's
        // version, which is the pinned Node.js SDK's), not the code generator's lower default.
        requires: { pulumi: `>=${pkg.devDependencies["@pulumi/pulumi"]},<4.0.0` },
      },
      csharp: { rootNamespace: "PulumiWorkspaces", packageReferences: { Pulumi: "3.*" } },
    },
  };
}

/**
 * Names with `replaces: true` in a provider's diff table, or `diff: "replace"` in the field
 * table; a provider's `fieldRules([...])` takes the table's rules for the lines it names;
 * and the owner's input of a list of ids held by a record owned elsewhere (the `arg` of a
 * `ListOwner` constant), which the one provider of such lists
 * (src/resources/providers/record-lists.ts) replaces on.
 */
function replacingInputs(files, tableReplacing) {
  const names = [];
  for (const sf of files) {
    visit(sf, (node) => {
      if (!ts.isObjectLiteralExpression(node)) return;
      const prop = (k) => node.properties.find((p) => ts.isPropertyAssignment(p) && p.name.getText(sf) === k);
      const replaces = prop("replaces");
      const name = prop("name");
      if (
        replaces &&
        replaces.initializer.kind === ts.SyntaxKind.TrueKeyword &&
        name &&
        ts.isStringLiteral(name.initializer)
      )
        names.push(name.initializer.text);
      const arg = prop("arg");
      const owner = node.parent;
      if (
        arg &&
        ts.isStringLiteral(arg.initializer) &&
        ts.isVariableDeclaration(owner) &&
        owner.type &&
        /^ListOwner\b/.test(owner.type.getText(sf))
      )
        names.push(arg.initializer.text);
      const diff = prop("diff");
      if (diff && ts.isStringLiteral(diff.initializer) && diff.initializer.text === "replace") {
        let line = node.parent;
        while (line && !ts.isPropertyAssignment(line)) line = line.parent;
        if (line) names.push(line.name.getText(sf));
      }
    });
    visit(sf, (node) => {
      if (!ts.isCallExpression(node) || node.expression.getText(sf) !== "fieldRules") return;
      const list = node.arguments[0];
      if (list && ts.isArrayLiteralExpression(list))
        for (const e of list.elements) if (ts.isStringLiteral(e) && tableReplacing.includes(e.text)) names.push(e.text);
    });
  }
  return names;
}

/**
 * A module of src/ that holds plain data (it imports nothing but other such modules of
 * src/), loaded as it is: the lists both doors use are read from their one place, not
 * restated here.
 */
function loadPlain(file) {
  const text = fs.readFileSync(path.join(root, "src", file), "utf8");
  const js = ts.transpileModule(text, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  const m = { exports: {} };
  const plain = (id) => {
    if (id.startsWith(".")) return loadPlain(`${path.posix.join(path.posix.dirname(file), id)}.ts`);
    throw new Error(
      `src/${file} must import nothing but plain modules of src/, to be read by scripts/plugin/schema.js (it imports ${id})`,
    );
  };
  new Function("module", "exports", "require", js)(m, m.exports, plain);
  return m.exports;
}

/**
 * What the package holds, for the schema and so for the SDKs' own descriptions (the
 * Python package's, the Go package's doc): its resources and lookups, by name.
 */
function packageDescription(resources) {
  const list = (names) => `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
  return (
    `Pulumi resources and lookups for infrastructure-engine workspaces and no-code provisioning: ` +
    `${list(resources)}; the lookups ${list(FUNCTIONS)}.`
  );
}

/**
 * The description of one value of a closed set, from the doc comment of its type (or of
 * the property that holds it): the "(...)" that follows "`value`" there.
 */
function valueDescription(doc, value, where) {
  const quoted = value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const m = new RegExp(`\`${quoted}\`\\s*\\(([^()]*(?:\\([^()]*\\)[^()]*)*)\\)`).exec(doc ?? "");
  if (!m || m[1].trim() === "default")
    throw new Error(`${where}: its doc comment describes no value \`${value}\` as "\`${value}\` (what it means)"`);
  return upper(m[1].trim()) + ".";
}

/**
 * The `## Example Usage` section of a resource's description, from ./examples/<Resource>.md
 * (a function's, from ./examples/functions/<function>.md): each `### Title` there with its
 * text and one block per language of EXAMPLE_LANGUAGES, in the shortcodes Pulumi's
 * generators read (each SDK's docstring keeps its own language).
 */
function exampleSection(resource, dir = EXAMPLES) {
  const file = path.join(dir, `${resource}.md`);
  const shown = path.relative(root, file);
  if (!fs.existsSync(file))
    throw new Error(
      `${resource} has no example: write ${shown}, a "### Title" and a ${EXAMPLE_LANGUAGES.join(", ")} block`,
    );
  const text = fs.readFileSync(file, "utf8").trim();
  const examples = text.split(/^(?=### )/m).filter((e) => e.trim());
  if (!examples.length || !examples.every((e) => e.startsWith("### ")))
    throw new Error(`${shown}: each example starts with a "### Title" line`);
  const rendered = examples.map((e, i) => {
    const langs = [...e.matchAll(/^```(\S*)$/gm)].map((m) => m[1]).filter(Boolean);
    if (JSON.stringify(langs) !== JSON.stringify(EXAMPLE_LANGUAGES))
      throw new Error(
        `${shown}: example ${i + 1} has blocks ${langs.join(", ") || "none"}; it needs one of each, in this order: ${EXAMPLE_LANGUAGES.join(", ")}`,
      );
    return `{{% example %}}\n${e.trim()}\n{{% /example %}}`;
  });
  return `{{% examples %}}\n## Example Usage\n\n${rendered.join("\n\n")}\n{{% /examples %}}`;
}

/** The `## Import` section of a resource's description: the id forms its read takes, and a `pulumi import` line for each. */
function importSection(token, { forms, name }) {
  const list = forms.map((f) => `- \`${f.form}\`: ${f.says}`).join("\n");
  const lines = forms.map((f) => `$ pulumi import ${token} ${name} ${f.example}`).join("\n");
  return `## Import\n\nAn existing record is imported by its id, in one of these forms:\n\n${list}\n\n\`\`\`sh\n${lines}\n\`\`\``;
}

/**
 * The default a doc comment claims as a literal: `Default false`, `Default 1800`, `Default
 * empty`, "Default `x`", or "`x` (default)". Words ("Default: the module's latest
 * version") are no literal, and give none.
 */
function claimedDefault(description, spec, where) {
  const m =
    /\bDefault:?\s+(true|false|empty|\d+|`[^`]*`)(?=[\s.,;:)]|$)/.exec(description) ??
    /`([^`]+)`\s+\(default\)/.exec(description);
  if (!m) return undefined;
  const word = m[1] ?? "";
  const value = m[0].endsWith("(default)")
    ? word
    : word === "true" || word === "false"
      ? word === "true"
      : word === "empty"
        ? ""
        : /^\d+$/.test(word)
          ? Number(word)
          : word.slice(1, -1);
  const type = spec.type === "integer" ? "number" : spec.type;
  if (typeof value !== type)
    throw new Error(`${where}: claims default ${JSON.stringify(value)}, but is a ${spec.type}`);
  return value;
}

/** An enum value's name in the SDKs: `in-place` is `InPlace`. */
const enumName = (value) =>
  value
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map(upper)
    .join("");

function visit(node, fn) {
  fn(node);
  ts.forEachChild(node, (child) => visit(child, fn));
}

const upper = (s) => s.charAt(0).toUpperCase() + s.slice(1);

function sortKeys(o) {
  return Object.fromEntries(
    Object.keys(o)
      .sort()
      .map((k) => [k, o[k]]),
  );
}

function render() {
  return `${JSON.stringify(derive(), null, 2)}\n`;
}

if (require.main === module) {
  const text = render();
  if (process.argv.includes("--check")) {
    const committed = fs.existsSync(OUT) ? fs.readFileSync(OUT, "utf8") : "";
    if (committed !== text) {
      console.error(
        `${path.relative(root, OUT)} is out of date: run \`node scripts/plugin/schema.js\` and commit the result`,
      );
      process.exit(1);
    }
  } else {
    fs.writeFileSync(OUT, text);
    console.error(`wrote ${path.relative(root, OUT)}`);
  }
}

module.exports = { derive, render, RESOURCES, EXAMPLES, FUNCTION_EXAMPLES, EXAMPLE_LANGUAGES };
