#!/usr/bin/env node
/**
 * `pulumi-workspaces generate [--organization NAME] [--project prj-...] [--out index.ts] [--import-file FILE] [--stack NAME] [--force]`
 * `pulumi-workspaces generate --split-by project [--organization NAME] [--out DIR] [--stack NAME] [--force]`
 *
 * Reads the organization through the client (address and token from the same settings
 * the resources use: the current project's stack config, then `WORKSPACES_*`, then
 * `TFE_*` and the engine CLI's credentials file) and writes a program that adopts it, with
 * a README beside it. Progress goes to stderr; the token is never written anywhere.
 */
import * as path from "node:path";
import { generate, generateSplit, GenerateError, type Counts } from "./index";

const USAGE = `usage: pulumi-workspaces generate [--organization NAME] [--project prj-...] [--out index.ts] [--import-file FILE] [--stack NAME] [--force]
       pulumi-workspaces generate --split-by project [--organization NAME] [--out DIR] [--stack NAME] [--force]

Writes a Pulumi program (TypeScript) that adopts every workspace of the organization
(or of one project), its no-code modules and the workspaces made from them, their
variables and the variable sets, its projects and teams, the teams' access, run triggers
and notification configurations, its agent pools with their lists and tokens, its
memberships, its teams' people and its team and organization tokens (adopted, never
regenerated), and a README.md beside it listing the secret stack config keys to set before pulumi up.

  --organization NAME   organization to read (default: the stack's workspaces:organization,
                        then WORKSPACES_ORGANIZATION)
  --project prj-...     only the workspaces of this project
  --out FILE            program file to write (default: index.ts)
  --import-file FILE    also write the resources as a bulk import file for \`pulumi import -f\`
                        (the provider plugin's types: for YAML, Python or Go programs)
  --split-by project    one program whose stacks each own one project's workspaces, written
                        into the folder --out (default: here): a Pulumi.<stack>.yaml per stack
                        (stack organization holds the no-code modules, teams, agent pools,
                        memberships, tokens and the variable sets of several projects), run-stacks.js to run
                        every stack from one machine, a CI workflow and a README
  --stack NAME          read the settings from this stack's Pulumi.<stack>.yaml (default: the
                        stack selected in the Pulumi project of this folder)
  --force               replace FILE and README.md if they exist (with --split-by: the
                        program's files; each Pulumi.<stack>.yaml that exists is kept)

Address, token and organization, each from the first place that has it: the stack config
of the Pulumi project in this folder (workspaces:address, workspaces:organization,
workspaces:token unless set with --secret), then WORKSPACES_ADDRESS, WORKSPACES_TOKEN,
WORKSPACES_ORGANIZATION, then TFE_HOSTNAME, TFE_TOKEN, TFE_ORGANIZATION and, for the token,
the credentials file ~/.terraform.d/credentials.tfrc.json. One line says which it used.`;

interface Parsed {
  organization?: string;
  project?: string;
  out?: string;
  importFile?: string;
  stack?: string;
  splitBy?: "project";
  force: boolean;
}

function parse(args: string[]): Parsed {
  const out: Parsed = { force: false };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const [flag, inline] =
      arg.startsWith("--") && arg.includes("=")
        ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)]
        : [arg, undefined];
    const value = () => {
      const v = inline ?? args[++i];
      if (v === undefined || v === "") throw new GenerateError(`${flag} needs a value\n\n${USAGE}`);
      return v;
    };
    switch (flag) {
      case "--organization":
        out.organization = value();
        break;
      case "--project":
        out.project = value();
        if (!/^prj-/.test(out.project))
          throw new GenerateError(`--project takes a project id (prj-...), not ${JSON.stringify(out.project)}`);
        break;
      case "--out":
        out.out = value();
        break;
      case "--import-file":
        out.importFile = value();
        break;
      case "--stack":
        out.stack = value();
        break;
      case "--split-by": {
        const by = value();
        if (by !== "project") throw new GenerateError(`--split-by takes project, not ${JSON.stringify(by)}`);
        out.splitBy = by;
        break;
      }
      case "--force":
        out.force = true;
        break;
      default:
        throw new GenerateError(`unknown argument ${JSON.stringify(arg)}\n\n${USAGE}`);
    }
  }
  return out;
}

/** The projects, teams, access, triggers, notifications and agent pools of a summary line. */
function layoutCounts(c: Counts): string {
  return (
    `${c.projects} projects, ${c.teams} teams, ${c.teamProjectAccess + c.teamWorkspaceAccess} access grants, ` +
    `${c.runTriggers} run triggers, ${c.notificationConfigurations} notification configurations, ` +
    `${c.agentPools} agent pools, ${c.agentPoolLists} pool lists, ${c.agentTokens} agent tokens, ` +
    `${c.organizationMemberships} memberships, ${c.teamMembers} team member lists, ${c.teamTokens + c.organizationTokens} team and organization tokens`
  );
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === "--help" || command === "-h" || command === "help") {
    console.log(USAGE);
    return command === undefined ? 2 : 0;
  }
  if (command !== "generate") {
    console.error(`pulumi-workspaces: unknown command ${JSON.stringify(command)}\n\n${USAGE}`);
    return 2;
  }
  try {
    if (rest.includes("--help") || rest.includes("-h")) {
      console.log(USAGE);
      return 0;
    }
    const args = parse(rest);
    const options = {
      organization: args.organization,
      projectId: args.project,
      out: args.out,
      importFile: args.importFile,
      stack: args.stack,
      force: args.force,
      progress: (line: string) => console.error(line),
    };
    if (args.splitBy) {
      const split = await generateSplit(options);
      const c = split.counts;
      console.error(
        `wrote ${split.written.length} files in ${split.dir}: ${split.stacks.length} stacks (${split.stacks.map((s) => s.name).join(", ")}), ` +
          `${c.workspaces} workspaces, ${c.noCodeModules} no-code modules, ${c.noCodeWorkspaces} no-code workspaces, ${c.consumers} consumer sets, ` +
          `${c.workspaceVariables} workspace variable lists, ${c.variableSets} variable sets, ${layoutCounts(c)}, ` +
          `in ${(split.elapsedMs / 1000).toFixed(1)} s, ${split.requests} requests`,
      );
      if (split.kept.length)
        console.error(`kept ${split.kept.join(", ")} as they were (stack config may hold secrets)`);
      if (split.secrets.length)
        console.error(`set ${split.secrets.length} secret stack config keys before the first up (listed in README.md)`);
      return 0;
    }
    const result = await generate(options);
    const c = result.counts;
    console.error(
      `wrote ${result.programPath} (${c.workspaces} workspaces, ${c.noCodeModules} no-code modules, ${c.noCodeWorkspaces} no-code workspaces, ` +
        `${c.consumers} consumer sets, ${c.workspaceVariables} workspace variable lists, ${c.variableSets} variable sets, ${layoutCounts(c)}) ` +
        `and ${result.readmePath} in ${(result.elapsedMs / 1000).toFixed(1)} s, ${result.requests} requests`,
    );
    if (result.filePaths.length)
      console.error(
        `wrote the code of ${result.filePaths.length} policies in ${path.dirname(result.filePaths[0])} (each Policy's codeFile)`,
      );
    if (result.importPath)
      console.error(`wrote ${result.importPath} (${result.imports.length} resources) for pulumi import -f`);
    if (result.secrets.length)
      console.error(
        `set ${result.secrets.length} secret stack config keys before pulumi up (listed in ${result.readmePath})`,
      );
    if (result.notCarried.length) {
      const n = result.notCarried.length;
      console.error(
        `${n} setting${n === 1 ? "" : "s"} of workspaces made from no-code modules ${n === 1 ? "is" : "are"} left out (neither NoCodeWorkspace nor WorkspaceSettings has an input for ${n === 1 ? "it" : "them"}; listed in ${result.readmePath})`,
      );
    }
    if (result.tokensNotDeclared.length)
      console.error(
        `${result.tokensNotDeclared.reduce((n, t) => n + t.ids.length, 0)} agent tokens that share a description with another token of their pool, or have none, are left out (listed in ${result.readmePath})`,
      );
    return 0;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    console.error(`pulumi-workspaces generate: ${message}`);
    return 1;
  }
}

if (require.main === module) {
  void main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
