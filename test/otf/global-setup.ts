/**
 * The OTF server of the `otf` project is the user's: `WORKSPACES_OTF_ADDRESS` says where it
 * listens and `WORKSPACES_OTF_TOKEN` holds a token that may create organizations (OTF's site
 * token, or a site admin's). The setup checks that it answers, makes this run's organization
 * (`acme-<run>`), and hands both to the test files through `inject("otf")`; each file makes
 * its own organizations besides, named `<base>-<run>` (`runOrganization`). Teardown deletes
 * every organization of the run, so the server keeps nothing of it.
 */
import * as crypto from "node:crypto";
import type { TestProject } from "vitest/node";
import { createOrganization, otfApi, type OtfServer } from "./otf";

/** The settings the suite reads, as test/otf/README.md names them. */
const OTF_SETTINGS = ["WORKSPACES_OTF_ADDRESS", "WORKSPACES_OTF_TOKEN"] as const;

/** `https://otf.example.com/`, `…/api/v2` or a bare host: the server's base URL without `/api/v2`. */
function baseUrl(address: string): string {
  const withScheme = /^https?:\/\//.test(address) ? address : `https://${address}`;
  return withScheme.replace(/\/+$/, "").replace(/\/api\/v2$/, "");
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const missing = OTF_SETTINGS.filter((k) => !process.env[k]?.trim());
  if (missing.length > 0)
    throw new Error(
      `the OTF suite needs a running OTF server: set ${missing.join(" and ")} (test/otf/README.md), or run \`npm run test:otf\`, which skips the suite when nothing is configured`,
    );
  const run = crypto.randomBytes(4).toString("hex");
  const otf: OtfServer = {
    url: baseUrl(process.env.WORKSPACES_OTF_ADDRESS!.trim()),
    token: process.env.WORKSPACES_OTF_TOKEN!.trim(),
    organization: `acme-${run}`,
    run,
  };
  const ping = await otfApi(otf, "/ping").catch((err: unknown) => {
    throw new Error(`OTF at ${otf.url} does not answer (${err instanceof Error ? err.message : String(err)})`);
  });
  if (ping.status !== 200 && ping.status !== 204)
    throw new Error(`OTF at ${otf.url} answers GET /api/v2/ping with HTTP ${ping.status}: is it an OTF server?`);
  await createOrganization(otf, otf.organization);
  project.provide("otf", otf);
  return async () => {
    // OTF names an organization by its id; the hosted service's listing carries `name` as well.
    const listed = await otfApi<{ data?: { id?: string; attributes?: { name?: string } }[] }>(
      otf,
      "/organizations?page%5Bsize%5D=100",
    );
    const names = (listed.body.data ?? [])
      .map((o) => o.attributes?.name ?? o.id ?? "")
      .filter((name) => name.endsWith(`-${run}`));
    const left: string[] = [];
    for (const name of names) {
      const deleted = await otfApi(otf, `/organizations/${name}`, { method: "DELETE" });
      if (deleted.status >= 300) left.push(`${name} (HTTP ${deleted.status})`);
    }
    if (left.length > 0) console.warn(`OTF suite: could not delete the organizations ${left.join(", ")}`);
  };
}
