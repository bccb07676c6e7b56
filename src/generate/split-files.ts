/**
 * The files beside a split program that speak of its stacks: the CI workflow with a matrix
 * over them and the README that lists them.
 */
import type { Counts, NotCarried, TokensNotDeclared } from "./declarations";
import {
  agentPoolLines,
  memberLines,
  notCarriedSection,
  policyLines,
  secretSteps,
  tokensNotDeclaredSection,
} from "./render";
import {
  DRIVER_FILE,
  describeStack,
  MAX_PARALLEL,
  ORGANIZATION_STACK,
  PROJECT_CONFIG_KEY,
  WORKFLOW_FILE,
  type SplitStack,
} from "./split-stacks";

/** Stacks the driver runs at once unless told otherwise: `concurrency` in templates/run-stacks.js. */
export const DRIVER_CONCURRENCY = 2;

/** The GitHub Actions workflow: `organization` first, then a matrix of the project stacks. */
export function renderWorkflow(organization: string, stacks: SplitStack[]): string {
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

/** The README: the stacks, what each owns and needs, and how to run them. */
export function renderSplitReadme(
  organization: string,
  stacks: SplitStack[],
  counts: Counts,
  notCarried: NotCarried[],
  tokensNotDeclared: TokensNotDeclared[],
): string {
  const secrets = stacks.flatMap((s) => s.secrets.map((k) => ({ stack: s.name, ...k })));
  const lines = [
    `# Organization ${organization}, one stack per project`,
    "",
    "Generated by `pulumi-workspaces generate --split-by project`. One Pulumi program whose",
    "stacks each declare one project's workspaces, with their tags and remote state consumers.",
    `In all: ${counts.workspaces} workspaces, ${counts.noCodeModules} no-code modules, ${counts.noCodeWorkspaces} workspaces made from`,
    `no-code modules, ${counts.consumers} consumer sets, ${counts.workspaceVariables} workspaces' own variables,`,
    `${counts.variableSets} variable sets and ${counts.variableSetApplications} applications of them, ${counts.projects} projects,`,
    `${counts.teams} teams, ${counts.teamProjectAccess} grants of project access and ${counts.teamWorkspaceAccess} of workspace access,`,
    `${counts.runTriggers} run triggers and ${counts.notificationConfigurations} notification configurations, and:`,
    "",
    ...agentPoolLines(counts),
    ...policyLines(counts),
    ...memberLines(counts),
    "",
    "Every resource has `adopt: true` (or, for a pool's list, declares the list the pool has):",
    "the first `pulumi up` of each stack takes the existing records over and sends no change",
    "for what the program states as it is.",
    "",
    "## Stacks",
    "",
    `Each stack's \`${PROJECT_CONFIG_KEY}\` (in \`Pulumi.<stack>.yaml\`) names its project. A workspace is`,
    "declared in exactly one stack, with its own variables, the teams' access to it, the run",
    "triggers into it and its notification configurations; a project's stack also declares the",
    "project (unless it is the organization's default project, which cannot be deleted and is",
    "not declared) and the teams' access to it. Stack `organization` declares what belongs to",
    "the organization rather than to a project: the no-code modules, the teams (the owners team",
    "is not declared), the agent pools with their lists and tokens, the policies (their code",
    "under `policies/`) and policy sets with their parameters and lists, the memberships, the",
    "teams' lists of people and the team and organization tokens, workspaces without a",
    "project, projects without workspaces, and the",
    "variable sets that are global or apply in more than one project (a set applied only within",
    "one project, to it or to its workspaces, is that project's stack's, with its variables and",
    "its applications).",
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
    "another project lists that consumer by its id, a workspace made from a no-code module",
    "names the module by its id, a team's access names the team by its id, a workspace on an",
    "agent pool names the pool by its id, a pool's list names the workspaces of other stacks",
    "by their ids, and a run trigger from another project names its source by its id, each",
    "with a comment naming the stack that owns it. No stack",
    "needs another's state, so they run in any order and in parallel; an id stays the same",
    "through a rename. A record that its stack deletes and makes again has a new id: update",
    "the ids that name it in the other stacks (or generate again).",
    "",
    "## Layout",
    "",
    "```",
    "index.ts                 loads the file of the stack's project",
    "stacks/<stack>.ts        one stack's resources",
    "policies/<name>.*       each policy's code (stack organization's Policy resources read it)",
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
  const steps = secretSteps(secrets, 3);
  lines.push(...steps.lines);
  lines.push(
    `${steps.next}. \`node ${DRIVER_FILE} preview\` shows, stack by stack, what each adopts (no change right`,
    `   after generation); \`node ${DRIVER_FILE} up\` adopts it all.`,
    "",
    "## Running the stacks",
    "",
    "```sh",
    `node ${DRIVER_FILE} preview                  # every stack, ${DRIVER_CONCURRENCY} at a time`,
    `node ${DRIVER_FILE} up                       # the same; --concurrency N runs N at a time`,
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
    `bound: the default of ${DRIVER_CONCURRENCY} suits two cores.`,
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
  lines.push(...tokensNotDeclaredSection(tokensNotDeclared));
  return lines.join("\n");
}
