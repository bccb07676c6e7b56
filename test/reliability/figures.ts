/**
 * Figures measured by the reliability tests. A test records its figures only when
 * RELIABILITY_FIGURES_DIR is set (bench/reliability/figures.js sets it and turns the
 * records into test/reliability/FIGURES.md); ordinary test runs write nothing.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export type Figures = Record<string, string | number>;

export function recordFigures(name: string, figures: Figures): void {
  const dir = process.env.RELIABILITY_FIGURES_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.json`), JSON.stringify(figures, null, 2));
}
