#!/usr/bin/env node
/**
 * Writes docs/reference/: every exported class, function, type and option of the packages,
 * as Markdown generated from the doc comments (typedoc with typedoc-plugin-markdown,
 * options in typedoc.json). The output is committed, and test/docs/reference.test.ts checks
 * that regenerating it changes nothing, so rerun this after changing a doc comment or a
 * resource's inputs:
 *
 *   npm run docs:reference                 writes docs/reference/
 *   node scripts/docs/reference.js DIR     writes the same pages to DIR instead
 *
 * The pages carry no date, absolute path or source link, so they depend on the sources
 * only. Section numbers of the interface document the code comments cite are left out:
 * that document is not published, and the sentence reads the same without them.
 */
const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

const ROOT = path.resolve(__dirname, "..", "..");
const COMMAND = "npm run docs:reference";

/** A generated page without the citations of the unpublished interface document. */
function clean(text) {
  return text
    .replace(/ \((?:see )?spec (?:section )?\d+(?:\.\d+)?(?:(?:, | and | to |-)\d+(?:\.\d+)?)*\)/g, "")
    .replace(/\(spec (?:section )?\d+(?:\.\d+)?(?:(?:, | and | to |-)\d+(?:\.\d+)?)*; /g, "(")
    .replace(/[ \t]+$/gm, "");
}

/** Every file under `dir`, relative to it, sorted. */
function files(dir) {
  const out = [];
  const walk = (rel) => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(child);
      else out.push(child);
    }
  };
  if (fs.existsSync(dir)) walk("");
  return out.sort();
}

/** Generates the reference into `out` (docs/reference by default). */
function generate(out = path.join(ROOT, "docs", "reference")) {
  const typedoc = path.join(ROOT, "node_modules", "typedoc", "bin", "typedoc");
  const r = spawnSync(process.execPath, [typedoc, "--options", "typedoc.json", "--out", out, "--logLevel", "Warn"], {
    cwd: ROOT,
    encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(`typedoc failed:\n${r.stdout}${r.stderr}`);
  for (const f of files(out)) {
    const file = path.join(out, f);
    const text = fs.readFileSync(file, "utf8");
    const next = clean(text);
    if (next !== text) fs.writeFileSync(file, next);
  }
  return files(out);
}

module.exports = { COMMAND, files, generate };

if (require.main === module) {
  const out = process.argv[2] ? path.resolve(process.argv[2]) : undefined;
  const written = generate(out);
  process.stdout.write(
    `${written.length} pages in ${path.relative(process.cwd(), out ?? path.join(ROOT, "docs", "reference")) || "."}\n`,
  );
}
