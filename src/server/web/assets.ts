import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { bundlePage, PAGE_FILES, type PageFiles } from "./bundle";

/** The page's files as the server sends them: each body with its media type. */
export type PageAssets = Record<(typeof PAGE_FILES)[number], { body: Buffer; type: string }>;

const TYPES: Record<(typeof PAGE_FILES)[number], string> = {
  "index.html": "text/html; charset=utf-8",
  "app.js": "text/javascript; charset=utf-8",
  "app.css": "text/css; charset=utf-8",
};

/**
 * The page, read once at startup and kept in memory: the built files beside this module
 * (dist/server/web/page/, written by the build and the server package's prepack), else
 * bundled from the sources (a run from src/, or a build that skipped the page).
 */
export function loadPage(): Promise<PageAssets> {
  // One read (or one bundling) per process, shared by every server it starts (the tests start many).
  page ??= readPage();
  page.catch(() => (page = undefined));
  return page;
}

let page: Promise<PageAssets> | undefined;

async function readPage(): Promise<PageAssets> {
  const built = join(__dirname, "page");
  const files: PageFiles = existsSync(join(built, "app.js"))
    ? {
        "index.html": readFileSync(join(built, "index.html")),
        "app.js": readFileSync(join(built, "app.js")),
        "app.css": readFileSync(join(built, "app.css")),
      }
    : await bundlePage().catch((err: Error & { errors?: { text: string }[] }) => {
        const reason = err.errors?.[0]?.text ?? err.message.split("\n")[0];
        throw new Error(
          `the web view's page is not built (no ${join(built, "app.js")}) and could not be bundled from its sources (${reason}): build it with npm run build, or start without the web view`,
        );
      });
  const assets = {} as PageAssets;
  for (const name of PAGE_FILES) assets[name] = { body: files[name], type: TYPES[name] };
  return assets;
}
