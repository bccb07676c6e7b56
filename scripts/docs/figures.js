#!/usr/bin/env node
/**
 * One home per measured figure. A figure is written once, in the file that measures it
 * (test/reliability/FIGURES.md, which bench/reliability/figures.js generates, a bench
 * README, or docs/benchmarks.md for the benchmarks without a README of their own); every
 * other page quotes it through a marker that names its home, and this script copies the
 * home's value into the quote:
 *
 *   home:   <!-- figure provider-text -->133 bytes<!-- /figure -->
 *   quote:  <!-- figure bench/scale/README.md#provider-text -->133 bytes<!-- /figure -->
 *
 * Each row of test/reliability/FIGURES.md is a figure named `AREA / FIGURE` (its first two
 * columns). A page can also include a whole generated file (its text below the title):
 *
 *   <!-- include test/reliability/FIGURES.md -->
 *   ...
 *   <!-- /include -->
 *
 *   node scripts/docs/figures.js           rewrites every quote and include from its home
 *   node scripts/docs/figures.js --check   lists what disagrees, exits 1 if anything does
 */
const fs = require("node:fs");
const path = require("node:path");

const ROOT = path.resolve(__dirname, "..", "..");
const COMMAND = "npm run docs:figures";
const FIGURE = /<!-- figure ([^>]*?) -->([\s\S]*?)<!-- \/figure -->/g;
const INCLUDE = /<!-- include (\S+) -->\n[\s\S]*?<!-- \/include -->/g;

/** The Markdown pages that may define or quote figures, relative to `root`. */
function pages(root = ROOT) {
  const out = [];
  const walk = (rel) => {
    for (const e of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
      if (e.name === "node_modules" || e.name === "reference" || e.name.startsWith(".")) continue;
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (["docs", "bench", "examples", "packages", "policies", "test"].includes(child.split("/")[0])) walk(child);
      } else if (e.name.endsWith(".md") && (rel !== "" || !["CHANGELOG.md", "LICENSE"].includes(e.name)))
        out.push(child);
    }
  };
  walk("");
  return out.sort();
}

/** The figures of a generated table: each row `| area | figure | value |` as `area / figure`. */
function tableFigures(text) {
  const figures = new Map();
  for (const m of text.matchAll(/^\| ([^|\n]+) \| ((?:[^|\n]|\\\|)+?) \| ((?:[^|\n]|\\\|)+?) \|$/gm)) {
    if (m[1] === "area" || m[1].startsWith("---")) continue;
    figures.set(`${m[1]} / ${m[2]}`, m[3].replace(/\\\|/g, "|"));
  }
  return figures;
}

/** Every figure's home value, keyed `file#name`; duplicate definitions are problems. */
function homes(root = ROOT) {
  const values = new Map();
  const problems = [];
  const generated = "test/reliability/FIGURES.md";
  for (const [name, value] of tableFigures(fs.readFileSync(path.join(root, generated), "utf8")))
    values.set(`${generated}#${name}`, value);
  for (const page of pages(root)) {
    const text = fs.readFileSync(path.join(root, page), "utf8");
    for (const m of text.matchAll(FIGURE)) {
      if (m[1].includes("#")) continue;
      const key = `${page}#${m[1]}`;
      if (values.has(key)) problems.push(`${page}: figure "${m[1]}" is defined twice`);
      values.set(key, m[2]);
    }
  }
  return { values, problems };
}

/** The text a page includes for a generated file: everything below its title. */
function includedText(root, file) {
  const text = fs.readFileSync(path.join(root, file), "utf8");
  return text.replace(/^# [^\n]*\n+/, "").replace(/\n+$/, "\n");
}

/** A page with every quote and include brought up to date, and what differed. */
function refresh(root, page, text, values) {
  const problems = [];
  let next = text.replace(FIGURE, (all, ref, quoted) => {
    if (!ref.includes("#")) return all;
    const source = values.get(ref);
    if (source === undefined) {
      problems.push(`${page}: quotes figure ${ref}, which its home does not define`);
      return all;
    }
    if (quoted !== source) problems.push(`${page}: quotes ${ref} as "${quoted}", its home says "${source}"`);
    return `<!-- figure ${ref} -->${source}<!-- /figure -->`;
  });
  next = next.replace(INCLUDE, (all, file) => {
    if (!fs.existsSync(path.join(root, file))) {
      problems.push(`${page}: includes ${file}, which does not exist`);
      return all;
    }
    const block = `<!-- include ${file} -->\n${includedText(root, file)}<!-- /include -->`;
    if (block !== all) problems.push(`${page}: its copy of ${file} differs from the file`);
    return block;
  });
  return { text: next, problems };
}

/** Every disagreement between a page and a figure's home (empty when all agree). */
function check(root = ROOT) {
  const { values, problems } = homes(root);
  for (const page of pages(root)) {
    const text = fs.readFileSync(path.join(root, page), "utf8");
    problems.push(...refresh(root, page, text, values).problems);
  }
  return problems;
}

/** Rewrites every quote and include from its home; returns the pages it changed. */
function update(root = ROOT) {
  const { values } = homes(root);
  const changed = [];
  for (const page of pages(root)) {
    const file = path.join(root, page);
    const text = fs.readFileSync(file, "utf8");
    const next = refresh(root, page, text, values).text;
    if (next !== text) {
      fs.writeFileSync(file, next);
      changed.push(page);
    }
  }
  return changed;
}

module.exports = { COMMAND, check, homes, pages, update };

if (require.main === module) {
  if (process.argv.includes("--check")) {
    const problems = check();
    for (const p of problems) process.stderr.write(`${p}\n`);
    if (problems.length) process.stderr.write(`run ${COMMAND} to copy each figure from its home\n`);
    process.exit(problems.length ? 1 : 0);
  }
  for (const page of update()) process.stdout.write(`updated ${page}\n`);
}
