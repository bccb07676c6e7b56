#!/usr/bin/env node
// Derives the provider plugin's Pulumi package schema (src/plugin/schema.json) from the
// TypeScript door's own sources, with the TypeScript compiler: each resource's inputs are
// the properties of its `<Resource>Args` interface, its outputs the `pulumi.Output`
// properties of its class, each function's arguments and result its parameter and
// return types; types come from the checker and descriptions from the doc comments that
// TypeScript users read (the workspace field table's line comments where a property is
// mapped from the table). Which inputs replace the resource comes from the providers'
// diff tables (`replaces: true`, and the field table's `diff: "replace"`); which outputs
// are secret from the classes' `withSecretOutputs` lists.
//
//   node scripts/plugin/schema.js          writes src/plugin/schema.json
//   node scripts/plugin/schema.js --check  fails when the committed file differs
"use strict";
const fs = require("fs");
const path = require("path");
const ts = require("typescript");

const root = path.resolve(__dirname, "../..");
const OUT = path.join(root, "src/plugin/schema.json");
const PKG = "workspaces";
const tok = (name) => `${PKG}:index:${name}`;

/** The resources: class, args interface and the provider files whose diff tables name replacing inputs. */
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
];
const FUNCTIONS = ["getWorkspaces", "getWorkspace"];
const TABLE_FILES = ["api/workspace-fields-settings.ts", "api/workspace-fields-reported.ts"];

function derive() {
  const src = (f) => path.join(root, "src", f);
  const files = [
    ...RESOURCES.flatMap((r) => [src(`resources/${r.file}`), ...r.diffs.map(src)]),
    src("resources/lookups.ts"),
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

  // Doc comments of the field table's lines, for properties mapped from the table.
  const tableDocs = new Map();
  for (const f of TABLE_FILES) {
    visit(sourceFile(f), (node) => {
      if (ts.isPropertyAssignment(node) && ts.isIdentifier(node.name) && ts.isCallExpression(node.initializer)) {
        const sym = checker.getSymbolAtLocation(node.name);
        const doc = sym && docOf(sym);
        if (doc) tableDocs.set(node.name.text, doc);
      }
    });
  }
  const describe = (sym) => docOf(sym) || tableDocs.get(sym.name) || "";

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
    return { union: kept.map(plain) };
  }
  const nullable = (t) => t.isUnion() && t.types.some(isNullish);

  function typeSpec(t, context, output) {
    if (t.union) {
      if (t.union.length === 0) throw new Error(`${context}: a type with no value but null or undefined`);
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
    if (f & (ts.TypeFlags.StringLike | ts.TypeFlags.TemplateLiteral)) return { type: "string" };
    if (f & ts.TypeFlags.NumberLike) return { type: "number" };
    if (f & ts.TypeFlags.BooleanLike) return { type: "boolean" };
    if (f & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return { $ref: "pulumi.json#/Any" };
    if (t.isUnion()) {
      const p = plain(t);
      return typeSpec(p === t ? { union: t.types.filter((m) => !isNullish(m)) } : p, context, output);
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
    const spec = objectSpec(props, output, base, true);
    spec.type = "object";
    const doc = named && !named.startsWith("__") ? (t.aliasSymbol ?? t.getSymbol()) : undefined;
    const description = doc ? docOf(doc) : "";
    if (description) spec.description = description;
    // One schema type per shape: an output shape that differs from the input of the same name is `<Name>Info`.
    let name = base;
    while (types[tok(name)] && JSON.stringify(types[tok(name)]) !== JSON.stringify(spec)) name = `${name}Info`;
    types[tok(name)] = spec;
    return { $ref: `#/types/${tok(name)}` };
  }

  // Every property of a resource or function is documented; a field of a nested object
  // is where its source documents it (the names of a few service-reported groups speak
  // for themselves), and is listed in `undocumented`.
  const undocumented = [];
  function propertySpec(sym, output, context, nested) {
    const t = checker.getTypeOfSymbol(sym);
    const spec = typeSpec(plain(t), context + upper(sym.name), output);
    const description = describe(sym);
    if (!description && !nested) throw new Error(`${context}.${sym.name} has no doc comment`);
    if (!description) undocumented.push(`${context}.${sym.name}`);
    return description ? { ...spec, description } : spec;
  }

  function objectSpec(props, output, context, nested = false) {
    const properties = {};
    const required = [];
    for (const p of [...props].sort((a, b) => a.name.localeCompare(b.name))) {
      properties[p.name] = propertySpec(p, output, context, nested);
      const t = checker.getTypeOfSymbol(p);
      const optional = (p.flags & ts.SymbolFlags.Optional) !== 0 || nullable(t) || nullable(plain(t).union ? t : t);
      if (!optional) required.push(p.name);
    }
    const spec = { properties };
    if (required.length) spec.required = required;
    return spec;
  }

  const resources = {};
  for (const r of RESOURCES) {
    const f = `resources/${r.file}`;
    const cls = exported(f, r.name);
    const args = checker.getDeclaredTypeOfSymbol(exported(f, `${r.name}Args`));
    const inputs = objectSpec(checker.getPropertiesOfType(args), false, r.name);
    const instance = checker.getDeclaredTypeOfSymbol(cls);
    const outputProps = checker
      .getPropertiesOfType(instance)
      .filter((p) => (p.declarations ?? []).every((d) => !d.getSourceFile().fileName.includes("node_modules")))
      .filter((p) => /^(Output|OutputInstance)$/.test(symbolName(checker.getTypeOfSymbol(p)) ?? ""));
    const outputs = objectSpec(outputProps, true, r.name);
    const tableReplacing = replacingInputs(TABLE_FILES.map(sourceFile), []);
    const replacing = r.table ? tableReplacing : replacingInputs(r.diffs.map(sourceFile), tableReplacing);
    for (const name of replacing) {
      if (!inputs.properties[name]) throw new Error(`${r.name}: replacing input ${name} is not an input`);
      inputs.properties[name].replaceOnChanges = true;
      if (outputs.properties[name]) outputs.properties[name].replaceOnChanges = true;
    }
    for (const name of secretOutputs(sourceFile(f))) {
      if (!outputs.properties[name]) throw new Error(`${r.name}: secret output ${name} is not an output`);
      outputs.properties[name].secret = true;
    }
    resources[tok(r.name)] = {
      description: docOf(cls),
      properties: outputs.properties,
      ...(outputs.required ? { required: outputs.required } : {}),
      inputProperties: inputs.properties,
      ...(inputs.required ? { requiredInputs: inputs.required } : {}),
    };
  }

  const functions = {};
  for (const name of FUNCTIONS) {
    const fn = exported("resources/lookups.ts", name);
    const sig = checker.getSignaturesOfType(checker.getTypeOfSymbol(fn), ts.SignatureKind.Call)[0];
    const context = upper(name);
    // Alternative argument shapes (by name or by id) become one object of optional arguments.
    const argType = plain(checker.getTypeOfSymbol(sig.getParameters()[0]));
    const members = argType.union ?? (argType.isUnion() ? argType.types : [argType]);
    const argProps = new Map();
    for (const m of members)
      for (const p of checker.getPropertiesOfType(m)) if (!argProps.has(p.name)) argProps.set(p.name, p);
    const inputs = objectSpec([...argProps.values()], false, `${context}Args`);
    if (members.length > 1) delete inputs.required;
    const result = checker.getAwaitedType(sig.getReturnType());
    const outputs = objectSpec(checker.getPropertiesOfType(result), true, `${context}Result`);
    functions[tok(name)] = {
      description: docOf(fn).replace(/\n+```ts[\s\S]*?```/g, ""),
      inputs: { properties: inputs.properties, ...(inputs.required ? { required: inputs.required } : {}) },
      outputs: { properties: outputs.properties, ...(outputs.required ? { required: outputs.required } : {}) },
    };
  }

  // Provider configuration: the settings of src/resources/provider-settings.ts, described as the
  // lookups describe them.
  const config = {
    address: {
      type: "string",
      description:
        "Address of the service (`https://host`). Default: `WORKSPACES_ADDRESS`, then `TFE_HOSTNAME`, then the hosted service.",
    },
    token: {
      type: "string",
      secret: true,
      description:
        "API token. Default: `WORKSPACES_TOKEN`, then `TFE_TOKEN`, then the credentials file (`~/.terraform.d/credentials.tfrc.json`) for the address. Set it with `pulumi config set --secret workspaces:token`.",
    },
    organization: {
      type: "string",
      description:
        "Organization that resources and lookups use when they name none. Default: `WORKSPACES_ORGANIZATION`, then `TFE_ORGANIZATION`.",
    },
  };

  const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
  if (process.env.SCHEMA_UNDOCUMENTED) console.error(undocumented.join("\n"));
  return {
    name: PKG,
    displayName: "Workspaces",
    version: pkg.version,
    description: pkg.description,
    homepage: pkg.homepage,
    repository: "https://github.com/pulumi-workspaces/pulumi-workspaces",
    license: pkg.license,
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
      python: { packageName: "pulumi_workspaces", pyproject: { enabled: true }, respectSchemaVersion: true },
      csharp: { rootNamespace: "PulumiWorkspaces", packageReferences: { Pulumi: "3.*" } },
      nodejs: { packageName: "pulumi-workspaces-sdk" },
    },
  };
}

/**
 * Names with `replaces: true` in a provider's diff table, or `diff: "replace"` in the field
 * table; a provider's `fieldRules([...])` takes the table's rules for the lines it names.
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

/** The names a resource class passes to `withSecretOutputs`. */
function secretOutputs(sf) {
  const names = [];
  const consts = new Map();
  visit(sf, (node) => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer)
      consts.set(node.name.text, node.initializer);
  });
  visit(sf, (node) => {
    if (ts.isCallExpression(node) && node.expression.getText(sf) === "withSecretOutputs") {
      let list = node.arguments[1];
      if (list && ts.isIdentifier(list)) list = consts.get(list.text);
      if (list && ts.isArrayLiteralExpression(list))
        for (const e of list.elements) if (ts.isStringLiteral(e)) names.push(e.text);
    }
  });
  return names;
}

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

module.exports = { derive, render };
