/**
 * Writes an organization as one Pulumi program whose stacks each own one project's
 * workspaces (`pulumi-workspaces generate --split-by project`): the stack's config
 * `pulumi-workspaces:project` names the project, and `index.ts` loads that project's file
 * only. A project's stack declares the project itself (unless it is the organization's
 * default project), the teams' access to it, and its workspaces with their own records:
 * tags, consumers, variables, team access, the run triggers into them and their
 * notification configurations. Stack `organization` owns what belongs to the organization
 * rather than to a project: its no-code modules, its teams, its agent pools with their lists
 * and tokens, its policies (with their code under `policies/`) and policy sets (with their
 * parameters and where each applies), its memberships, its teams' people and its team and
 * organization tokens, workspaces without a project,
 * projects without workspaces, and variable sets that are global or apply in more than one
 * project (a set applied within one project, to it or to its workspaces, is that project's
 * stack's). A reference to a record of another stack (a consumer in another project, the
 * module of a module-made workspace, a team, an agent pool, a run trigger's source in
 * another project, a workspace a pool's list names)
 * is its literal id, with a comment naming the stack that owns it, so that no stack
 * depends on another's state. Beside the program: a `Pulumi.<stack>.yaml` per stack, a
 * driver that runs every stack on the Automation API, a CI workflow with a matrix over the
 * stacks, and a README (with the map of each project). Pure: reads nothing, and the same snapshot gives the same files.
 */
import {
  ProgramWriter,
  fileHeader,
  noCounts,
  type Counts,
  type Declarations,
  type NotCarried,
  type SecretKey,
  type TokensNotDeclared,
} from "./declarations";
import { declaresProject, declaresTeam } from "./access-declarations";
import { mapSection, orgMapOf } from "./map";
import type { OrganizationSnapshot } from "./read";
import { renderSplitReadme, renderWorkflow } from "./split-files";
import {
  assignStacks,
  describeStack,
  DRIVER_FILE,
  ORGANIZATION_STACK,
  PROJECT_CONFIG,
  PROJECT_CONFIG_KEY,
  stackName,
  WORKFLOW_FILE,
  type SplitStack,
} from "./split-stacks";

export { DRIVER_FILE, ORGANIZATION_STACK, PROJECT_CONFIG_KEY, type SplitStack } from "./split-stacks";

/** What {@link renderSplit} writes: every file of the folder but the driver, by path relative to the folder. */
export interface SplitGenerated {
  /** File text by relative path: `index.ts`, `stacks/*.ts`, `policies/*` (each policy's code), `Pulumi.yaml`, `Pulumi.<stack>.yaml`, `package.json`, `tsconfig.json`, `.gitignore`, the workflow and `README.md`. */
  files: Record<string, string>;
  /** The stacks, `organization` first, then by project name. */
  stacks: SplitStack[];
  /** Every secret stack config key, over all stacks. */
  secrets: SecretKey[];
  /** Settings of module-made workspaces that no stack states. */
  notCarried: NotCarried[];
  /** Agent tokens that no stack declares: tokens of one pool that share a description. */
  tokensNotDeclared: TokensNotDeclared[];
  /** How many of each the stacks declare together. */
  counts: Counts;
}

/** What {@link renderSplit} needs besides the snapshot. */
export interface SplitOptions {
  /** The version range of this package the generated `package.json` depends on: `^` and this package's version. */
  packageRange: string;
}

/** The split program for `snapshot`: one stack per project, and `organization` for the no-code modules. */
export function renderSplit(snapshot: OrganizationSnapshot, options: SplitOptions): SplitGenerated {
  const { stacks, stackOf } = assignStacks(snapshot);
  const writer = new ProgramWriter(snapshot);
  const nameOf = new Map(snapshot.workspaces.map((r) => [r.workspace.id, r.workspace.name]));
  for (const m of snapshot.modules) nameOf.set(m.module.id, `${m.registryModule.name}-${m.registryModule.provider}`);
  for (const p of snapshot.projects) nameOf.set(p.id, `project ${p.name}`);
  const teams = snapshot.teams.filter(declaresTeam);
  for (const t of teams) nameOf.set(t.id, `team ${t.name}`);
  for (const p of snapshot.agentPools) nameOf.set(p.pool.id, `agent pool ${p.pool.name}`);
  const organizationStack = stacks.find((s) => !s.projectId);
  const organizationOwned = new Set([
    ...snapshot.modules.map((m) => m.module.id),
    ...teams.map((t) => t.id),
    ...snapshot.agentPools.map((p) => p.pool.id),
  ]);
  const files: Record<string, string> = {};
  const all: Declarations[] = [];
  for (const s of stacks) {
    const owned = new Set(s.workspaceIds);
    const ownedSets = new Set(s.variableSetIds);
    const elsewhere = (id: string) => {
      const owner = stackOf.get(id) ?? (organizationOwned.has(id) ? organizationStack : undefined);
      return owner && owner !== s ? { name: nameOf.get(id) ?? id, stack: owner.name } : undefined;
    };
    const projects = snapshot.projects.filter((p) => s.projectIds.includes(p.id));
    const d = writer.declarations(
      snapshot.workspaces.filter((r) => owned.has(r.workspace.id)),
      s.projectId ? [] : snapshot.modules,
      elsewhere,
      snapshot.variableSets.filter((v) => ownedSets.has(v.set.id)),
      {
        projects: projects.filter(declaresProject),
        teams: s.projectId ? [] : teams,
        accessOnly: projects.filter((p) => !declaresProject(p)),
        agentPools: s.projectId ? [] : snapshot.agentPools,
        policies: s.projectId ? [] : snapshot.policies,
        policySets: s.projectId ? [] : snapshot.policySets,
        ...(s.projectId ? {} : { membersAndTokens: snapshot.membersAndTokens }),
      },
    );
    Object.assign(files, d.files);
    s.counts = d.counts;
    s.secrets = d.secrets;
    all.push(d);
    const scope = `, stack ${s.name} (${describeStack(s)})`;
    files[s.file] = [...fileHeader(snapshot.organization, scope, d), ...d.body, ""].join("\n");
  }
  const secrets = all.flatMap((d) => d.secrets);
  const notCarried = all.flatMap((d) => d.notCarried);
  const tokensNotDeclared = all.flatMap((d) => d.tokensNotDeclared);
  const counts = noCounts();
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
  files["README.md"] = [
    renderSplitReadme(snapshot.organization, stacks, counts, notCarried, tokensNotDeclared),
    ...mapSection(orgMapOf(snapshot)),
  ].join("\n");
  return { files, stacks, secrets, notCarried, tokensNotDeclared, counts };
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
    " * no-code modules, teams, agent pools, policies and policy sets, memberships, teams' members and tokens, workspaces without",
    " * a project, projects without workspaces and",
    " * variable sets of several projects), and",
    " * the stack declares that project's",
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
