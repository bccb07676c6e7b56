/**
 * Writes an organization as one Pulumi program whose stacks each own one project's
 * workspaces (`pulumi-workspaces generate --split-by project`): the stack's config
 * `pulumi-workspaces:project` names the project, and `index.ts` loads that project's file
 * only. Stack `organization` owns what belongs to the organization rather than to a
 * project: its no-code modules, and workspaces without a project. A reference to a record
 * of another stack (a consumer in another project, the module of a module-made workspace)
 * is its literal id, with a comment naming the stack that owns it, so that no stack
 * depends on another's state. Beside the program: a `Pulumi.<stack>.yaml` per stack, a
 * driver that runs every stack on the Automation API, a CI workflow with a matrix over the
 * stacks, and a README. Pure: reads nothing, and the same snapshot gives the same files.
 */
import { byCodePoint } from "./names";
import type { OrganizationSnapshot } from "./read";
import {
  fileHeader,
  notCarriedSection,
  ProgramWriter,
  type Declarations,
  type Generated,
  type NotCarried,
  type SecretKey,
} from "./render";

/** The namespace and key of the stack config that names a stack's project: a project id, or {@link ORGANIZATION_STACK}. */
const PROJECT_CONFIG = { namespace: "pulumi-workspaces", key: "project" };
/** The same, as `pulumi config` and `Pulumi.<stack>.yaml` write it. */
export const PROJECT_CONFIG_KEY = `${PROJECT_CONFIG.namespace}:${PROJECT_CONFIG.key}`;

/** The stack (and the value of {@link PROJECT_CONFIG_KEY}) that owns what belongs to the organization: its no-code modules, and workspaces without a project. */
export const ORGANIZATION_STACK = "organization";

/** The file the generator writes the driver to, beside the program. */
export const DRIVER_FILE = "run-stacks.js";

/** The CI workflow's path in the generated folder. */
const WORKFLOW_FILE = ".github/workflows/workspaces-stacks.yml";

/**
 * Stacks of one program that run at once in CI. They share one token's rate limit; see the
 * workflow's comment for why three.
 */
const MAX_PARALLEL = 3;

/** One stack of a split program. */
export interface SplitStack {
  /** Stack name: the project's name made a valid stack name (unique), or `organization`. */
  name: string;
  /** The project it owns (`prj-...`); none for the organization stack. */
  projectId?: string;
  /** The project's name, when the service has projects. */
  projectName?: string;
  /** The program file that declares its resources, relative to the folder (`stacks/<name>.ts`). */
  file: string;
  /** Ids of the workspaces it declares. */
  workspaceIds: string[];
  /** How many of each it declares. */
  counts: Generated["counts"];
  /** The secret stack config keys it requires. */
  secrets: SecretKey[];
}

/** What {@link renderSplit} writes: every file of the folder but the driver, by path relative to the folder. */
export interface SplitGenerated {
  /** File text by relative path: `index.ts`, `stacks/*.ts`, `Pulumi.yaml`, `Pulumi.<stack>.yaml`, `package.json`, `tsconfig.json`, `.gitignore`, the workflow and `README.md`. */
  files: Record<string, string>;
  /** The stacks, `organization` first, then by project name. */
  stacks: SplitStack[];
  /** Every secret stack config key, over all stacks. */
  secrets: SecretKey[];
  /** Settings of module-made workspaces that no stack states. */
  notCarried: NotCarried[];
  /** How many of each the stacks declare together. */
  counts: Generated["counts"];
}

/** What {@link renderSplit} needs besides the snapshot. */
export interface SplitOptions {
  /** The version range of this package the generated `package.json` depends on, e.g. `^0.3.0`. */
  packageRange: string;
}

/** A valid stack (or Pulumi project) name from any text: lower case letters, digits, `-`, `_` and `.`. */
function stackName(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9_.-]+/g, "-")
    .replace(/^[-.]+|[-.]+$/g, "");
}

/** Which stack owns each workspace, and the stacks in order. */
function assignStacks(snapshot: OrganizationSnapshot): { stacks: SplitStack[]; stackOf: Map<string, SplitStack> } {
  const projectName = new Map((snapshot.projects ?? []).map((p) => [p.id, p.name]));
  const byProject = new Map<string, string[]>();
  const organizationOwned: string[] = [];
  for (const r of snapshot.workspaces) {
    const p = r.workspace.projectId;
    if (!p) organizationOwned.push(r.workspace.id);
    else byProject.set(p, [...(byProject.get(p) ?? []), r.workspace.id]);
  }
  const taken = new Set<string>();
  const take = (wanted: string) => {
    let name = wanted;
    for (let n = 2; taken.has(name); n++) name = `${wanted}-${n}`;
    taken.add(name);
    return name;
  };
  const counts = { workspaces: 0, noCodeModules: 0, noCodeWorkspaces: 0, consumers: 0 };
  const stacks: SplitStack[] = [];
  if (snapshot.modules.length || organizationOwned.length) {
    const name = take(ORGANIZATION_STACK);
    stacks.push({ name, file: `stacks/${name}.ts`, workspaceIds: organizationOwned, counts, secrets: [] });
  } else {
    taken.add(ORGANIZATION_STACK);
  }
  const projects = [...byProject.keys()].sort(
    (a, b) => byCodePoint(projectName.get(a) ?? a, projectName.get(b) ?? b) || byCodePoint(a, b),
  );
  for (const projectId of projects) {
    const name = take(stackName(projectName.get(projectId) ?? "") || stackName(projectId));
    stacks.push({
      name,
      projectId,
      ...(projectName.has(projectId) ? { projectName: projectName.get(projectId) } : {}),
      file: `stacks/${name}.ts`,
      workspaceIds: byProject.get(projectId)!,
      counts,
      secrets: [],
    });
  }
  const stackOf = new Map<string, SplitStack>();
  for (const s of stacks) for (const id of s.workspaceIds) stackOf.set(id, s);
  return { stacks, stackOf };
}

const describeStack = (s: SplitStack) =>
  s.projectId
    ? `project ${s.projectName ?? s.projectId}${s.projectName ? ` (${s.projectId})` : ""}`
    : "the organization: its no-code modules and workspaces without a project";

/** The split program for `snapshot`: one stack per project, and `organization` for the no-code modules. */
export function renderSplit(snapshot: OrganizationSnapshot, options: SplitOptions): SplitGenerated {
  const { stacks, stackOf } = assignStacks(snapshot);
  const writer = new ProgramWriter(snapshot);
  const nameOf = new Map(snapshot.workspaces.map((r) => [r.workspace.id, r.workspace.name]));
  for (const m of snapshot.modules) nameOf.set(m.module.id, `${m.registryModule.name}-${m.registryModule.provider}`);
  const organizationStack = stacks.find((s) => !s.projectId);
  const moduleIds = new Set(snapshot.modules.map((m) => m.module.id));
  const files: Record<string, string> = {};
  const all: Declarations[] = [];
  for (const s of stacks) {
    const owned = new Set(s.workspaceIds);
    const elsewhere = (id: string) => {
      const owner = stackOf.get(id) ?? (moduleIds.has(id) ? organizationStack : undefined);
      return owner && owner !== s ? { name: nameOf.get(id) ?? id, stack: owner.name } : undefined;
    };
    const d = writer.declarations(
      snapshot.workspaces.filter((r) => owned.has(r.workspace.id)),
      s.projectId ? [] : snapshot.modules,
      elsewhere,
    );
    s.counts = d.counts;
    s.secrets = d.secrets;
    all.push(d);
    const scope = `, stack ${s.name} (${describeStack(s)})`;
    files[s.file] = [...fileHeader(snapshot.organization, scope, d), ...d.body, ""].join("\n");
  }
  const secrets = all.flatMap((d) => d.secrets);
  const notCarried = all.flatMap((d) => d.notCarried);
  const counts = { workspaces: 0, noCodeModules: 0, noCodeWorkspaces: 0, consumers: 0 };
  for (const d of all) for (const k of Object.keys(counts) as (keyof typeof counts)[]) counts[k] += d.counts[k];

  const project = stackName(`workspaces-${snapshot.organization}`);
  files["index.ts"] = renderIndex(snapshot.organization, stacks);
  files["Pulumi.yaml"] = [
    `name: ${project}`,
    `description: The workspaces of organization ${JSON.stringify(snapshot.organization)}, one stack per project (see README.md)`,
    "runtime:",
    "  name: nodejs",
    "  options:",
    "    typescript: true",
    "",
  ].join("\n");
  for (const s of stacks) {
    files[`Pulumi.${s.name}.yaml`] = [
      `# Stack ${s.name}: ${describeStack(s)}. See README.md.`,
      "config:",
      `  ${PROJECT_CONFIG_KEY}: ${s.projectId ?? ORGANIZATION_STACK}`,
      "",
    ].join("\n");
  }
  files["package.json"] = `${JSON.stringify(
    {
      name: project,
      private: true,
      main: "index.ts",
      scripts: { stacks: `node ${DRIVER_FILE}` },
      dependencies: { "@pulumi/pulumi": "^3.248.0", "pulumi-workspaces": options.packageRange },
    },
    null,
    2,
  )}\n`;
  files["tsconfig.json"] = `${JSON.stringify(
    {
      compilerOptions: {
        strict: true,
        target: "ES2022",
        module: "commonjs",
        moduleResolution: "node",
        skipLibCheck: true,
        types: ["node"],
      },
      include: ["index.ts", "stacks/*.ts"],
    },
    null,
    2,
  )}\n`;
  files[".gitignore"] = "node_modules/\n";
  files[WORKFLOW_FILE] = renderWorkflow(snapshot.organization, stacks);
  files["README.md"] = renderSplitReadme(snapshot.organization, stacks, counts, notCarried);
  return { files, stacks, secrets, notCarried, counts };
}

function renderIndex(organization: string, stacks: SplitStack[]): string {
  const files = stacks.map((s) => {
    const key = s.projectId ?? ORGANIZATION_STACK;
    const file = s.file.replace(/^stacks\//, "").replace(/\.ts$/, "");
    return `  ${/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? key : JSON.stringify(key)}: ${JSON.stringify(file)}, // ${describeStack(s)}`;
  });
  const values = stacks.map((s) => s.projectId ?? ORGANIZATION_STACK).join(", ");
  return [
    "/**",
    ` * The workspaces of organization ${JSON.stringify(organization)}, one stack per project. Each stack's`,
    ` * config \`${PROJECT_CONFIG_KEY}\` names its project (a project id, or \`${ORGANIZATION_STACK}\` for the`,
    " * no-code modules and workspaces without a project), and the stack declares that project's",
    " * file under stacks/ only: a workspace is declared in exactly one stack. Written by",
    " * `pulumi-workspaces generate --split-by project`; README.md lists the stacks.",
    " */",
    'import * as pulumi from "@pulumi/pulumi";',
    "",
    "/** The file under stacks/ of each stack, by the value of its project config. */",
    "const files: Record<string, string> = {",
    ...files,
    "};",
    "",
    `const project = new pulumi.Config("${PROJECT_CONFIG.namespace}").require("${PROJECT_CONFIG.key}");`,
    "if (!Object.hasOwn(files, project)) {",
    "  throw new pulumi.RunError(",
    `    \`${PROJECT_CONFIG_KEY} is \${JSON.stringify(project)}, which this program does not declare; ` +
      `it declares ${values.replace(/`/g, "")}: set it in Pulumi.<stack>.yaml (README.md lists the stacks)\`,`,
    "  );",
    "}",
    "// Only this stack's file is loaded (and compiled); the other stacks' are not read.",
    "require(`./stacks/${files[project]}`);",
    "",
  ].join("\n");
}

function renderWorkflow(organization: string, stacks: SplitStack[]): string {
  const organizationStack = stacks.find((s) => !s.projectId);
  const projectStacks = stacks.filter((s) => s.projectId);
  const steps = (stack: string) => [
    "    steps:",
    "      - uses: actions/checkout@v4",
    "      - uses: actions/setup-node@v4",
    "        with:",
    "          node-version: 22",
    "      - uses: pulumi/actions@v6",
    "        with:",
    "          pulumi-version: 3.270.0",
    "      - run: npm ci --no-audit --no-fund",
    "        working-directory: ${{ env.PROGRAM_DIR }}",
    `      - name: pulumi preview (pull request) or up (main), stack ${stack}`,
    "        working-directory: ${{ env.PROGRAM_DIR }}",
    "        run: |",
    `          pulumi stack select --create "${stack}"`,
    '          if [ "${{ github.event_name }}" = pull_request ]; then',
    `            pulumi preview --stack "${stack}" --non-interactive --diff`,
    "          else",
    `            pulumi up --stack "${stack}" --non-interactive --yes --skip-preview`,
    "          fi",
  ];
  const lines = [
    `# Every stack of the program for organization ${JSON.stringify(organization)}: preview on pull requests,`,
    "# pulumi up on main. Written by `pulumi-workspaces generate --split-by project`.",
    "# GitHub reads workflows from the repository's root: if this folder is not the root, move",
    "# this file to the root's .github/workflows/ and set PROGRAM_DIR to the folder's path.",
    "#",
    "# Repository settings it reads:",
    "#   secrets.WORKSPACES_TOKEN      API token of the service (a team token that may manage the workspaces)",
    "#   secrets.PULUMI_ACCESS_TOKEN   Pulumi state backend (or PULUMI_BACKEND_URL + PULUMI_CONFIG_PASSPHRASE)",
    "#   vars.WORKSPACES_ADDRESS       service address, e.g. https://app.terraform.io",
    "name: workspaces-stacks",
    "",
    "on:",
    "  pull_request:",
    "    branches: [main]",
    "  push:",
    "    branches: [main]",
    "",
    "permissions:",
    "  contents: read",
    "",
    "# One run per branch at a time; an update is never cancelled halfway.",
    "concurrency:",
    "  group: workspaces-stacks-${{ github.ref }}",
    "  cancel-in-progress: false",
    "",
    "env:",
    "  PROGRAM_DIR: .",
    '  PULUMI_SKIP_UPDATE_CHECK: "true"',
    "  WORKSPACES_ADDRESS: ${{ vars.WORKSPACES_ADDRESS }}",
    "  WORKSPACES_TOKEN: ${{ secrets.WORKSPACES_TOKEN }}",
    "  PULUMI_ACCESS_TOKEN: ${{ secrets.PULUMI_ACCESS_TOKEN }}",
    "",
    "jobs:",
  ];
  if (organizationStack) {
    lines.push(
      `  # The no-code modules first: workspaces made from a module name it.`,
      `  ${organizationStack.name}:`,
      "    runs-on: ubuntu-latest",
      ...steps(organizationStack.name),
      "",
    );
  }
  if (projectStacks.length) {
    lines.push(
      "  projects:",
      ...(organizationStack ? [`    needs: ${organizationStack.name}`] : []),
      "    runs-on: ubuntu-latest",
      "    strategy:",
      "      fail-fast: false # one project's failure does not stop the others",
      "      # All stacks share the token's rate limit (30 requests a second per token on the",
      "      # hosted service). Each stack's providers pace themselves under it and back off when",
      "      # the service answers 429 with Retry-After, so more stacks at once never send faster",
      "      # than the limit: they overlap the engine's own work, which is most of an update's",
      "      # time. One stack sends about 10 requests a second while its engine works, so three",
      "      # fill the limit; more would only wait on it. Lower this if other jobs use the same token.",
      `      max-parallel: ${MAX_PARALLEL}`,
      "      matrix:",
      "        stack:",
      ...projectStacks.map((s) => `          - ${s.name} # ${describeStack(s)}`),
      ...steps("${{ matrix.stack }}"),
      "",
    );
  }
  return lines.join("\n");
}

function renderSplitReadme(
  organization: string,
  stacks: SplitStack[],
  counts: Generated["counts"],
  notCarried: NotCarried[],
): string {
  const secrets = stacks.flatMap((s) => s.secrets.map((k) => ({ stack: s.name, ...k })));
  const lines = [
    `# Organization ${organization}, one stack per project`,
    "",
    "Generated by `pulumi-workspaces generate --split-by project`. One Pulumi program whose",
    "stacks each declare one project's workspaces, with their tags and remote state consumers.",
    `In all: ${counts.workspaces} workspaces, ${counts.noCodeModules} no-code modules, ${counts.noCodeWorkspaces} workspaces made from`,
    `no-code modules, ${counts.consumers} consumer sets. Every resource has`,
    "`adopt: true`: the first `pulumi up` of each stack takes the existing records over and sends",
    "no change for what the program states as it is.",
    "",
    "## Stacks",
    "",
    `Each stack's \`${PROJECT_CONFIG_KEY}\` (in \`Pulumi.<stack>.yaml\`) names its project. A workspace is`,
    "declared in exactly one stack. Stack `organization` declares what belongs to the",
    "organization rather than to a project: the no-code modules, and workspaces without a project.",
    "",
    "| stack | owns | workspaces | no-code workspaces | consumer sets | secret keys |",
    "|---|---|---|---|---|---|",
    ...stacks.map(
      (s) =>
        `| \`${s.name}\` | ${describeStack(s)}${s.counts.noCodeModules ? ` (${s.counts.noCodeModules} modules)` : ""} | ` +
        `${s.counts.workspaces} | ${s.counts.noCodeWorkspaces} | ${s.counts.consumers} | ${s.secrets.length} |`,
    ),
    "",
    "References across stacks are ids, not resources: a workspace read by a workspace of",
    "another project lists that consumer by its id, and a workspace made from a no-code module",
    "names the module by its id, each with a comment naming the stack that owns it. No stack",
    "needs another's state, so they run in any order and in parallel; an id stays the same",
    "through a rename. A record that its stack deletes and makes again has a new id: update",
    "the ids that name it in the other stacks (or generate again).",
    "",
    "## Layout",
    "",
    "```",
    "index.ts                 loads the file of the stack's project",
    "stacks/<stack>.ts        one stack's resources",
    "Pulumi.yaml              the program",
    "Pulumi.<stack>.yaml      one stack's config: its project",
    `${DRIVER_FILE.padEnd(24)} runs every stack's preview, up, refresh or destroy from one machine`,
    `${WORKFLOW_FILE}`,
    "                         the same in CI: a matrix over the stacks",
    "```",
    "",
    "## Before the first run",
    "",
    "1. `npm install` (commit the `package-lock.json` it writes: CI runs `npm ci`), and log in",
    "   to a Pulumi state backend (`pulumi login`).",
    "2. Give the providers the service's address and a token, never written into the program:",
    "   `export WORKSPACES_ADDRESS=https://... WORKSPACES_TOKEN=...` (every stack reads them).",
  ];
  if (secrets.length) {
    lines.push(
      "3. Set the sensitive variable values, which the service never shows, as secret config of",
      "   the stack that requires them (adoption takes the value as the workspace's, so use the",
      "   value the workspace has):",
      "",
      "   | stack | config key | workspace | variable |",
      "   |---|---|---|---|",
      ...secrets.map((s) => `   | \`${s.stack}\` | \`${s.key}\` | ${s.workspace} | ${s.variable} |`),
      "",
      "   ```sh",
      ...secrets.map(
        (s) =>
          `   pulumi stack select --create ${s.stack} && pulumi config set --secret --stack ${s.stack} ${s.key} '<value of ${s.variable}>'`,
      ),
      "   ```",
      "",
    );
  }
  const n = secrets.length ? 4 : 3;
  lines.push(
    `${n}. \`node ${DRIVER_FILE} preview\` shows, stack by stack, what each adopts (no change right`,
    `   after generation); \`node ${DRIVER_FILE} up\` adopts it all.`,
    "",
    "## Running the stacks",
    "",
    "```sh",
    `node ${DRIVER_FILE} preview                  # every stack, 2 at a time`,
    `node ${DRIVER_FILE} up --concurrency 3`,
    `node ${DRIVER_FILE} preview --expect-no-changes --stack ${stacks.find((s) => s.projectId)?.name ?? ORGANIZATION_STACK}`,
    `node ${DRIVER_FILE} refresh                  # or destroy`,
    "```",
    "",
    "It runs the stacks on Pulumi's Automation API (the same engine as `pulumi up`), creating",
    "a stack the backend does not have yet, `organization` before the others (after them for",
    "destroy), and prints one line per stack: its result, its changes and how long it took. It",
    "exits 1 when a stack failed, naming it; `--json` prints the results for scripts. One stack",
    "alone is plain Pulumi: `pulumi up --stack <stack>`.",
    "",
    "All stacks share the token's rate limit: each stack's providers pace themselves under it",
    "and back off when the service says so, so more stacks at once never send faster than the",
    "limit; they overlap the engine's own work. On one machine the engine's CPU is the other",
    "bound: the default of 2 suits two cores.",
    "",
    "## CI",
    "",
    `\`${WORKFLOW_FILE}\` previews every stack on pull requests and updates them on main,`,
    `\`organization\` first, then the projects as a matrix, ${MAX_PARALLEL} at a time (its comment says`,
    "why). It reads the token from the secret `WORKSPACES_TOKEN` and the address from the",
    "variable `WORKSPACES_ADDRESS`.",
    "",
    "## Projects added later",
    "",
    "Generate again (`--force` replaces the program files, and keeps each `Pulumi.<stack>.yaml`,",
    "which may hold secrets). A stack whose project no longer exists is not deleted: destroy",
    "it, or remove its resources from it first to keep the records.",
    "",
  );
  lines.push(...notCarriedSection(notCarried, `\`stacks/<stack>.ts\``));
  return lines.join("\n");
}
