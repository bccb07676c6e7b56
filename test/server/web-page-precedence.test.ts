/**
 * The order in which the web view's workspace page lists the variable sets that reach a
 * workspace (`setsByPrecedence`, src/api/precedence.ts): the same rule as the effective
 * variables (`effectiveVariablesOf`), checked on the cases of the server's all-vars test
 * and against `effectiveVariablesOf` itself for every combination of scope, priority and
 * owner.
 */
import { describe, expect, it } from "vitest";
import { effectiveVariablesOf, setsByPrecedence, WORKSPACE_RANK, type PrecedenceSet } from "../../src/api/precedence";
import { effectiveVariablesOf as reExported } from "../../src/api/variable-sets";

const set = (
  name: string,
  scopes: PrecedenceSet["scopes"],
  priority = false,
  ownedByProject = false,
): PrecedenceSet => ({
  id: `varset-${name}`,
  name,
  priority,
  ownedByProject,
  scopes,
});

describe("setsByPrecedence", () => {
  it("orders the all-vars test's sets as the effective variables resolve them", () => {
    // test/server/variables.test.ts: a global set, one on the project, one on the workspace
    // and a priority one on the workspace; the workspace's own `d` and `e`.
    const sets = [
      set("prec-global", ["global"]),
      set("prec-project", ["project"]),
      set("prec-ws", ["workspace"]),
      set("prec-aa-priority", ["workspace"], true),
    ];
    const ranked = setsByPrecedence(sets);
    expect(ranked.map((r) => [r.set.name, r.scope])).toEqual([
      ["prec-aa-priority", "workspace"],
      ["prec-ws", "workspace"],
      ["prec-project", "project"],
      ["prec-global", "global"],
    ]);
    // The priority set sits above the workspace's own variables, the others below.
    expect(ranked.map((r) => r.rank < WORKSPACE_RANK)).toEqual([true, false, false, false]);
  });

  it("counts a set that reaches the workspace in several ways by the strongest, and leaves out one that does not reach it", () => {
    const ranked = setsByPrecedence([set("both", ["global", "workspace"]), set("nowhere", [])]);
    expect(ranked.map((r) => [r.set.name, r.scope])).toEqual([["both", "workspace"]]);
  });

  it("breaks a tie by name in lexical order, as the effective variables do", () => {
    const ranked = setsByPrecedence([set("b", ["project"]), set("B", ["project"]), set("a", ["project"])]);
    expect(ranked.map((r) => r.set.name)).toEqual(["B", "a", "b"]);
  });

  it("agrees with effectiveVariablesOf for every scope, priority and owner", () => {
    const sets: PrecedenceSet[] = [];
    for (const scope of ["workspace", "project", "global"] as const)
      for (const priority of [false, true])
        for (const ownedByProject of [false, true])
          if (!(scope === "global" && ownedByProject))
            sets.push(
              set(
                `${priority ? "p" : "n"}-${ownedByProject ? "prj" : "org"}-${scope}`,
                [scope],
                priority,
                ownedByProject,
              ),
            );
    const order = setsByPrecedence(sets).map((r) => r.set.name);
    // The hosted service's documented order, highest first.
    expect(order).toEqual([
      "p-org-global",
      "p-org-project",
      "p-org-workspace",
      "p-prj-project",
      "p-prj-workspace",
      "n-prj-workspace",
      "n-prj-project",
      "n-org-workspace",
      "n-org-project",
      "n-org-global",
    ]);
    // Two sets (and the workspace's own variables) define one key: the winner is the one
    // setsByPrecedence lists first, the workspace's own standing at WORKSPACE_RANK.
    const own = [{ key: "k", category: "terraform" }];
    for (const a of sets)
      for (const b of sets) {
        if (a === b) continue;
        const [winner] = effectiveVariablesOf(own, [
          { set: a, variables: [{ key: "k", category: "engine" }] },
          { set: b, variables: [{ key: "k", category: "terraform" }] },
        ]);
        const ranked = setsByPrecedence([a, b]);
        const expected = ranked[0].rank < WORKSPACE_RANK ? ranked[0].set.name : "workspace";
        const got = winner.source.kind === "workspace" ? "workspace" : winner.source.name;
        expect(got, `${a.name} vs ${b.name}`).toBe(expected);
      }
    expect(reExported).toBe(effectiveVariablesOf);
  });
});
