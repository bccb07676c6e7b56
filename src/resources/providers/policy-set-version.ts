/**
 * A `PolicySet`'s folder uploaded as a policy set version: create the version, send the
 * tarball to its upload link, and wait until the service has ingested it (`ready`), or
 * say why it could not (`errored`).
 */
import type { PolicySetVersion, WorkspacesClient } from "../../client";
import { reportStatus } from "../process/engine-status";
import { dropPolicySet } from "../process/policy-set-reads";
import { folderDigest, folderFiles, folderPath, tarball } from "./policy-set-folder";
import { ProviderError } from "./user-errors";

/** How long a version may take to be ingested before the upload is given up. */
const INGEST_TIMEOUT_MS = 10 * 60_000;
/** How often progress is shown while waiting. */
const PROGRESS_EVERY_MS = 10_000;

/** What an upload leaves: the digest of the files sent and the version they became. */
export interface Uploaded {
  policiesSha256: string;
  versionId: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls the version until it is `ready` or `errored` (or the wait runs out), showing progress for long waits. */
async function ingested(client: WorkspacesClient, version: PolicySetVersion, label: string): Promise<PolicySetVersion> {
  const started = Date.now();
  let shown = started;
  let v = version;
  for (let delay = 250; ; delay = Math.min(delay * 2, 5_000)) {
    if (v.status === "ready" || v.status === "errored") return v;
    const elapsed = Date.now() - started;
    if (elapsed >= INGEST_TIMEOUT_MS)
      throw new ProviderError(
        `${label}: the service has not ingested the uploaded policies (version ${v.id}) after ${Math.round(elapsed / 1000)} s; it is still "${v.status}". Run \`pulumi up\` again later: an unchanged folder is uploaded again until a version is ready.`,
      );
    if (Date.now() - shown >= PROGRESS_EVERY_MS) {
      shown = Date.now();
      reportStatus(
        `${label}: waiting for the service to ingest version ${v.id} (${v.status}, ${Math.round(elapsed / 1000)} s)`,
      );
    }
    await sleep(delay);
    v = await client.policySetVersions.read(v.id);
  }
}

/**
 * Uploads the files of `folder` (relative to the program's directory) as a new version of
 * the set `setId` and waits until it is ready. An `errored` version fails with the
 * service's reason and the way out.
 */
export async function uploadFolder(
  client: WorkspacesClient,
  setId: string,
  label: string,
  folder: string,
): Promise<Uploaded> {
  const files = folderFiles(folderPath(folder));
  const policiesSha256 = folderDigest(files);
  const version = await client.policySetVersions.create(setId);
  try {
    await client.policySetVersions.upload(version, tarball(files));
    const done = await ingested(client, version, label);
    if (done.status === "errored")
      throw new ProviderError(
        `${label}: the service could not use the policies uploaded from policiesFolder ${JSON.stringify(folder)} (version ${done.id}): ${
          done.errorMessage ?? "it gave no reason"
        }. Fix the folder's files and run \`pulumi up\` again.`,
      );
    return { policiesSha256, versionId: done.id };
  } finally {
    // The upload link is not a path of the API: the write is not seen by the client's hook.
    dropPolicySet(client, setId);
  }
}
