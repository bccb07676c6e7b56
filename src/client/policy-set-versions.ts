/**
 * Versions of a policy set (`client.policySetVersions`): a `.tar.gz` of a policies folder,
 * uploaded to the link the version's create answers. The service ingests it (`pending`
 * until it arrives, then `ready`, or `errored` for a body it cannot read) and the set's
 * `current-version` becomes the latest ready one.
 */
import { policySetVersionDocumentSchema, type PolicySetVersionResource } from "../api/policy-sets";
import { type Transport, urlPath } from "./transport";
import { WorkspacesError } from "./typed-errors";
import { relId } from "./wire";

/** A policy set version. */
export interface PolicySetVersion {
  /** Version id (`polsetver-...`). */
  id: string;
  /** `pending`, `ingressing`, `ready` or `errored`. */
  status: string;
  /** `tfe-api` for an uploaded version, a VCS provider's name for one from a repository, or null. */
  source: string | null;
  /** Why ingesting failed (`errored`), or null. */
  errorMessage: string | null;
  /** Where the tarball goes (`links.upload`), or null when the service does not say. */
  uploadUrl: string | null;
  /** The set (`polset-...`), or null when the service does not say. */
  policySetId: string | null;
  /** When the version was created (ISO 8601), or null when the service does not say. */
  createdAt: string | null;
  /** Every attribute exactly as received. */
  attributes: Record<string, unknown>;
}

function toVersion(r: PolicySetVersionResource): PolicySetVersion {
  const a = r.attributes;
  const upload = r.links?.upload;
  return {
    id: r.id,
    status: a.status,
    source: a.source ?? null,
    errorMessage: a["error-message"] ?? a.error ?? null,
    uploadUrl: typeof upload === "string" && upload !== "" ? upload : null,
    policySetId: relId(r, "policy-set"),
    createdAt: a["created-at"] ?? null,
    attributes: a,
  };
}

/** Policy set version calls of a {@link WorkspacesClient} (`client.policySetVersions`). */
export class PolicySetVersions {
  constructor(private readonly transport: Transport) {}

  /** `POST /policy-sets/:id/versions`: a new version waiting for its tarball (see {@link upload}). */
  async create(policySetId: string): Promise<PolicySetVersion> {
    const doc = await this.transport.requestParsed(
      { method: "POST", path: urlPath("policy-sets", policySetId, "versions"), repeat: "once" },
      policySetVersionDocumentSchema,
    );
    return toVersion(doc.data);
  }

  /**
   * `PUT` of `tarball` (a `.tar.gz` of the policies folder) to the version's upload link,
   * without the token, as the service's own clients send it. Sending the same bytes
   * twice leaves the same version, so it is retried like a read.
   */
  async upload(version: Pick<PolicySetVersion, "id" | "uploadUrl">, tarball: Buffer): Promise<void> {
    if (!version.uploadUrl)
      throw new WorkspacesError(
        `policy set version ${version.id} has no upload link: create a new version and upload to it`,
      );
    await this.transport.request({
      method: "PUT",
      path: new URL(version.uploadUrl, this.transport.baseUrl + "/").toString(),
      foreign: true,
      raw: { data: tarball, contentType: "application/octet-stream" },
      repeat: "idempotent",
    });
  }

  /** `GET /policy-set-versions/:id`. */
  async read(policySetVersionId: string): Promise<PolicySetVersion> {
    const doc = await this.transport.requestParsed(
      { method: "GET", path: urlPath("policy-set-versions", policySetVersionId), repeat: "idempotent" },
      policySetVersionDocumentSchema,
    );
    return toVersion(doc.data);
  }
}
