import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type * as Esbuild from "esbuild";

/** The three files of the web view's page, as the server sends them. */
export interface PageFiles {
  "app.js": Buffer;
  "index.html": Buffer;
  "app.css": Buffer;
}

export const PAGE_FILES = ["index.html", "app.js", "app.css"] as const;

/**
 * The page's sources: beside this file when it runs from src/ (the tests), else the
 * repository's src/ above a build of it that has no page (`tsc` alone, into any folder).
 */
function sourceDir(): string {
  const beside = join(__dirname, "page");
  if (existsSync(join(beside, "main.ts"))) return beside;
  for (let dir = __dirname; dirname(dir) !== dir; dir = dirname(dir)) {
    const sources = join(dir, "src", "server", "web", "page");
    if (existsSync(join(sources, "main.ts"))) return sources;
  }
  return beside;
}

/**
 * The licence of each package the bundle takes in, as comments for its end: a library's
 * own legal comment may only point to a file that does not ship (dagre's does), and its
 * licence (MIT) asks that the notice go with every copy.
 */
function licenceNotices(inputs: string[]): string {
  const packages = new Set<string>();
  for (const input of inputs) {
    const m = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input.split("\\").join("/"));
    if (m) packages.add(m[1]);
  }
  let text = "";
  for (const dir of [...packages].sort()) {
    const file = ["LICENSE", "LICENSE.md", "LICENSE.txt", "LICENCE"].map((f) => join(dir, f)).find(existsSync);
    if (!file) continue;
    const { name, version } = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
      name: string;
      version: string;
    };
    const licence = readFileSync(file, "utf8").replaceAll("*/", "* /").trim();
    text += `\n/*! ${name} ${version}\n\n${licence}\n*/\n`;
  }
  return text;
}

/**
 * Bundles the page with esbuild into one ES module (its libraries inside, their licences
 * at the end), and reads the HTML and the style sheet as they are. esbuild is a
 * development dependency, required here only: the published server ships the built files.
 */
export async function bundlePage(dir: string = sourceDir()): Promise<PageFiles> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const esbuild = require("esbuild") as typeof Esbuild;
  const built = await esbuild.build({
    entryPoints: [join(dir, "main.ts")],
    bundle: true,
    format: "esm",
    target: "es2022",
    platform: "browser",
    minify: true,
    sourcemap: false,
    legalComments: "eof",
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  const notices = licenceNotices(Object.keys(built.metafile.inputs));
  return {
    "app.js": Buffer.concat([Buffer.from(built.outputFiles[0].contents), Buffer.from(notices)]),
    "index.html": readFileSync(join(dir, "index.html")),
    "app.css": readFileSync(join(dir, "app.css")),
  };
}

/**
 * Writes the bundled page into `dir` (the build's and the server package's
 * dist/server/web/page/), called by scripts/build.js and the package's prepack from dist/.
 *
 * @public
 */
export async function writePage(dir: string, sources: string = sourceDir()): Promise<void> {
  const files = await bundlePage(sources);
  mkdirSync(dir, { recursive: true });
  for (const name of PAGE_FILES) writeFileSync(join(dir, name), files[name]);
}
