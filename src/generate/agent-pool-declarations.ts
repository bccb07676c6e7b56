/**
 * Where runs execute, in a generated program: the organization's agent pools, the lists of
 * who may use each (the pool's whole list, authoritative), and the agent tokens, adopted
 * as they are (the service never shows a token's secret again).
 */
import { Code } from "./code";
import type { TokensNotDeclared } from "./declaration-types";
import { byCodePoint } from "./names";
import type { AgentPoolRecord } from "./read";
import type { DeclarationContext } from "./variable-declarations";

/** A pool name as part of a resource name: spaces become `-`. */
const namePart = (name: string) => name.trim().replace(/\s+/g, "-");

/** The three lists of a pool: the resource that declares each, its input and the pool's ids in it. */
const LISTS = [
  {
    kind: "AgentPoolAllowedWorkspaces",
    input: "workspaceIds",
    suffix: "allowed-workspaces",
    of: "allowedWorkspaceIds",
  },
  { kind: "AgentPoolAllowedProjects", input: "projectIds", suffix: "allowed-projects", of: "allowedProjectIds" },
  {
    kind: "AgentPoolExcludedWorkspaces",
    input: "workspaceIds",
    suffix: "excluded-workspaces",
    of: "excludedWorkspaceIds",
  },
] as const;

/** How a list's items read: references by name first, then literal ids. */
const itemOrder = (v: unknown) => (v instanceof Code ? `0${v.text}` : `1${String(v)}`);

/** Declares each pool with `adopt: true`, bound to `ident(pool)`; the service's default scope (organization-wide) is left out. */
export function declareAgentPools(
  at: DeclarationContext,
  pools: AgentPoolRecord[],
  ident: (id: string) => string,
): void {
  if (!pools.length) return;
  at.section("// Agent pools");
  for (const { pool } of pools) {
    at.declare(
      "AgentPool",
      at.resourceName(`${namePart(pool.name)}-pool`),
      pool.id,
      {
        name: pool.name,
        organization: new Code("organization"),
        ...(pool.organizationScoped === false ? { organizationScoped: false } : {}),
        adopt: true,
      },
      ident(pool.id),
    );
  }
}

/** How many lists and tokens {@link declareAgentPoolMembers} declared, and the tokens it could not. */
export interface AgentPoolMembers {
  kinds: string[];
  agentPoolLists: number;
  agentTokens: number;
  tokensNotDeclared: TokensNotDeclared[];
}

/**
 * Declares the lists of each pool that has any (each the pool's whole list, in the default
 * authoritative mode: adoption finds it as declared and writes nothing) and the pool's
 * tokens. A token is adopted by its description, so tokens of one pool that share one (or
 * have none) are not declared; `tokenDescription` gives the description a program declares.
 */
export function declareAgentPoolMembers(
  at: DeclarationContext,
  pools: AgentPoolRecord[],
  tokenDescription: (description: string) => string,
): AgentPoolMembers {
  const kinds = new Set<string>();
  let agentPoolLists = 0;
  const withLists = pools.filter(({ pool }) => LISTS.some((l) => pool[l.of].length > 0));
  if (withLists.length) {
    at.section("// Who may use each agent pool: each resource declares the pool's whole list");
    for (const { pool } of withLists) {
      for (const list of LISTS) {
        const ids = pool[list.of];
        if (!ids.length) continue;
        at.declare(list.kind, at.resourceName(`${namePart(pool.name)}-${list.suffix}`), pool.id, {
          agentPoolId: at.ref(pool.id),
          [list.input]: ids.map((id) => at.ref(id)).sort((a, b) => byCodePoint(itemOrder(a), itemOrder(b))),
        });
        kinds.add(list.kind);
        agentPoolLists++;
      }
    }
  }

  const tokensNotDeclared: TokensNotDeclared[] = [];
  const declared: { pool: AgentPoolRecord["pool"]; id: string; description: string }[] = [];
  for (const { pool, tokens } of pools) {
    const byDescription = new Map<string, string[]>();
    for (const t of tokens) {
      const description = tokenDescription(t.description);
      byDescription.set(description, [...(byDescription.get(description) ?? []), t.id]);
    }
    for (const [description, ids] of byDescription) {
      // A token without a description cannot be declared: AgentToken requires one.
      if (ids.length > 1 || description.trim() === "")
        tokensNotDeclared.push({ pool: pool.name, description, ids: [...ids].sort() });
      else declared.push({ pool, id: ids[0], description });
    }
  }
  if (declared.length) {
    at.section(
      [
        "// Agent tokens, adopted as they are. The service never shows a token's secret again, so an",
        "// adopted token has no `token` output: to get one, set `rotation` (any label, such as",
        '// "2026-12"); the next `pulumi up` replaces the token and keeps the new secret as a secret output.',
      ].join("\n"),
    );
    for (const t of declared) {
      at.declare(
        "AgentToken",
        at.resourceName(`${namePart(t.pool.name)}-${namePart(t.description)}-token`),
        // The import id that names the pool too, so that `pulumi import` need not look for it.
        `${t.pool.id}/${t.id}`,
        { agentPoolId: at.ref(t.pool.id), description: t.description, adopt: true },
      );
    }
    kinds.add("AgentToken");
  }
  return { kinds: [...kinds], agentPoolLists, agentTokens: declared.length, tokensNotDeclared };
}
