/**
 * One OTF for the whole `otf` project: PostgreSQL (installed from Debian's packages when
 * missing), a fresh database, otfd on a free loopback port and the organization `acme`
 * (scripts/lib/otf.js). The test files reach it through `inject("otf")`; teardown stops
 * otfd and drops the database.
 */
import type { TestProject } from "vitest/node";
import type { OtfServer } from "./otf";

// Plain CommonJS shared with `scripts/otf start`.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const otfLib = require("../../scripts/lib/otf.js") as {
  startOtf(o?: { organization?: string }): Promise<OtfServer & { stop(): Promise<void> }>;
};

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const otf = await otfLib.startOtf({ organization: "acme" });
  project.provide("otf", { url: otf.url, token: otf.token, organization: otf.organization });
  return () => otf.stop();
}
