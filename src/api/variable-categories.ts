/**
 * Variable categories and their spellings, without zod: the web view's page bundles the
 * precedence rule (./precedence.ts), which reads a category through `variableCategoryOf`.
 * ./variables.ts re-exports all of it.
 */

/** Variable categories: `engine` (the engine's own variables, vendor spelling `terraform` accepted) or `env`. */
export const VARIABLE_CATEGORIES = ["engine", "env"] as const;
/** Vendor spellings of variable categories and the category each stands for (`terraform` is `engine`). */
export const VARIABLE_CATEGORY_ALIASES: Record<string, (typeof VARIABLE_CATEGORIES)[number]> = { terraform: "engine" };
/** A variable category: `engine` or `env`. */
export type VariableCategory = (typeof VARIABLE_CATEGORIES)[number];
/** Every spelling of a category a request may use. */
export const VARIABLE_CATEGORY_SPELLINGS = ["engine", "env", "terraform"] as const;
/** How each category is spelled on the wire, as the hosted service and go-tfe spell it. */
export const VARIABLE_CATEGORY_ON_THE_WIRE: Record<VariableCategory, string> = { engine: "terraform", env: "env" };

/** The category a wire spelling stands for (`terraform` is `engine`); undefined for anything else. */
export function variableCategoryOf(spelling: string): VariableCategory | undefined {
  const c = VARIABLE_CATEGORY_ALIASES[spelling] ?? spelling;
  return (VARIABLE_CATEGORIES as readonly string[]).includes(c) ? c : undefined;
}
