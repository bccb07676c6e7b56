// The types of the documentation scripts (scripts/docs/*.js), plain CommonJS modules that
// the tests under test/docs import. TypeScript checks no JavaScript here (no allowJs), so
// these declarations say what the modules export.

declare module "*/scripts/docs/figures.js" {
  /** The command that copies every figure from its home into the pages quoting it. */
  export const COMMAND: string;
  /** Every disagreement between a page and a figure's home (empty when all agree). */
  export function check(root?: string): string[];
  /** Every figure's home value, keyed `file#name`, and duplicate definitions. */
  export function homes(root?: string): { values: Map<string, string>; problems: string[] };
  /** The Markdown pages that may define or quote figures, relative to the root. */
  export function pages(root?: string): string[];
  /** Rewrites every quote and include from its home; returns the pages it changed. */
  export function update(root?: string): string[];
}

declare module "*/scripts/docs/reference.js" {
  /** The command that regenerates docs/reference/. */
  export const COMMAND: string;
  /** Every file under `dir`, relative to it, sorted. */
  export function files(dir: string): string[];
  /** Generates the reference into `out` (docs/reference by default); returns its files. */
  export function generate(out?: string): string[];
}
