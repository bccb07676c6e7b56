/**
 * Policies of an organization (`client.policies`): one Sentinel or OPA policy each, its
 * settings in its document and its code apart (`upload`, `download`).
 */
import {
  enforcementLevelOf,
  policyCreateRequestSchema,
  policyDocumentSchema,
  policyListDocumentSchema,
  policyUpdateRequestSchema,
  type PolicyResource,
} from "../api/policies";
import { orUnavailable, organizationOwner } from "./features";
import { type PagedList, pagedGet } from "./pagination";
import { type Transport, urlPath } from "./transport";
import { NotFoundError } from "./typed-errors";
import { checkedBody, relId, toWire } from "./wire";

/** A policy. */
export interface Policy {
  /** Policy id (`pol-...`). */
  id: string;
  /** Name, unique in the organization. */
  name: string;
  /** `sentinel`, `opa`, or a kind this release does not know, as the service says it. */
  kind: string;
  /** The OPA query the policy answers (`data.<package>.<rule>`); null for Sentinel. */
  query: string | null;
  /** Description, or null. */
  description: string | null;
  /**
   * How strictly the policy is enforced (`advisory`, `soft-mandatory`, `hard-mandatory`
   * for Sentinel; `advisory`, `mandatory` for OPA), or null when the service does not say.
   */
  enforcementLevel: string | null;
  /** How many policy sets hold the policy, or null when the service does not say. */
  policySetCount: number | null;
  /** When the policy last changed (ISO 8601), or null when the service does not say. */
  updatedAt: string | null;
  /** Organization name, or null when the service does not say. */
  organization: string | null;
  /** Every attribute exactly as received. */
  attributes: Record<string, unknown>;
}

/** A policy to create; its code is sent afterwards with {@link Policies.upload}. */
export interface PolicyCreateOptions {
  /** Name, unique in the organization: letters, digits, `-`, `_` and `.`. */
  name: string;
  /** `sentinel` (the service's default) or `opa`; another kind is sent as given, and the service decides. */
  kind?: string;
  /** The OPA query the policy answers (`data.<package>.<rule>`); required for `opa`. */
  query?: string;
  /** Description. */
  description?: string;
  /** Enforcement level (`advisory`, `soft-mandatory`, `hard-mandatory`; OPA: `advisory`, `mandatory`). */
  enforcementLevel?: string;
}

/** What to change: only the settings given change. The name and the kind never change. */
export interface PolicyUpdateOptions {
  /** A new OPA query. */
  query?: string;
  /** A new description; `null` clears it. */
  description?: string | null;
  /** A new enforcement level. */
  enforcementLevel?: string;
}

/** Filters of the policy list. */
export interface PolicyListOptions {
  /** A part of the name (`search[name]`). */
  search?: string;
  /** Only policies of this kind (`filter[kind]`). */
  kind?: string;
}

function toPolicy(r: PolicyResource): Policy {
  const a = r.attributes;
  return {
    id: r.id,
    name: a.name,
    kind: a.kind,
    query: a.query ?? null,
    description: a.description ?? null,
    enforcementLevel: enforcementLevelOf(a) ?? null,
    policySetCount: a["policy-set-count"] ?? null,
    updatedAt: a["updated-at"] ?? null,
    organization: relId(r, "organization"),
    attributes: a,
  };
}

/** The code of a policy, as `download` answers it (bytes the server sent as JSON read back as their text). */
function codeOf(data: unknown): string {
  if (typeof data === "string") return data;
  if (Buffer.isBuffer(data)) return data.toString("utf8");
  return data === undefined || data === null ? "" : JSON.stringify(data);
}

/** Policy calls of a {@link WorkspacesClient} (`client.policies`). */
export class Policies {
  constructor(private readonly transport: Transport) {}

  /**
   * `GET /organizations/:org/policies`, 100 per page. The name filter is applied to what
   * comes back as well, for servers that ignore it. A server that does not offer policies
   * raises {@link FeatureUnavailableError}.
   */
  list(organization: string, options: PolicyListOptions = {}): PagedList<Policy> {
    const search = options.search?.toLowerCase();
    return pagedGet(
      this.transport,
      urlPath("organizations", organization, "policies"),
      { "search[name]": options.search, "filter[kind]": options.kind },
      policyListDocumentSchema,
      toPolicy,
      (request) => orUnavailable(this.transport, "policies", organizationOwner(organization), request),
      search || options.kind
        ? (p) => (!search || p.name.toLowerCase().includes(search)) && (!options.kind || p.kind === options.kind)
        : undefined,
    );
  }

  /** `GET /policies/:id`. */
  async read(policyId: string): Promise<Policy> {
    const doc = await this.transport.requestParsed(
      { method: "GET", path: urlPath("policies", policyId), repeat: "idempotent" },
      policyDocumentSchema,
    );
    return toPolicy(doc.data);
  }

  /**
   * `POST /organizations/:org/policies`; never repeated after it reached the service (a
   * second would be refused by name). A server that does not offer policies raises
   * {@link FeatureUnavailableError}.
   */
  async create(organization: string, options: PolicyCreateOptions): Promise<Policy> {
    const path = urlPath("organizations", organization, "policies");
    const attributes = toWire(options, ["name", "kind", "query", "description", "enforcementLevel"]);
    const body = checkedBody(policyCreateRequestSchema, "POST", path, { data: { type: "policies", attributes } });
    const doc = await orUnavailable(this.transport, "policies", organizationOwner(organization), () =>
      this.transport.requestParsed(
        { method: "POST", path, body, repeat: "once", conflict: "create" },
        policyDocumentSchema,
      ),
    );
    return toPolicy(doc.data);
  }

  /** `PATCH /policies/:id`: setting the same values twice leaves the same policy, so it is retried like a read. */
  async update(policyId: string, options: PolicyUpdateOptions): Promise<Policy> {
    const path = urlPath("policies", policyId);
    const attributes = toWire(options, ["query", "description", "enforcementLevel"]);
    const body = checkedBody(policyUpdateRequestSchema, "PATCH", path, { data: { type: "policies", attributes } });
    const doc = await this.transport.requestParsed(
      { method: "PATCH", path, body, repeat: "idempotent" },
      policyDocumentSchema,
    );
    return toPolicy(doc.data);
  }

  /**
   * `DELETE /policies/:id`; a retry that finds the policy gone means the first attempt
   * deleted it. The service takes the policy out of every set that holds it.
   */
  async delete(policyId: string): Promise<void> {
    await this.transport.request({
      method: "DELETE",
      path: urlPath("policies", policyId),
      repeat: "idempotent",
      goneMeansDone: true,
    });
  }

  /** `PUT /policies/:id/upload` of the policy's code, as it is (`application/octet-stream`); the code replaces the policy's. */
  async upload(policyId: string, code: string): Promise<void> {
    await this.transport.request({
      method: "PUT",
      path: urlPath("policies", policyId, "upload"),
      raw: { data: Buffer.from(code, "utf8"), contentType: "application/octet-stream" },
      repeat: "idempotent",
    });
  }

  /**
   * `GET /policies/:id/download`: the policy's code, or undefined when none was uploaded
   * (the service answers 404 then; the policy itself still reads). A missing policy
   * raises {@link NotFoundError}.
   */
  async download(policyId: string): Promise<string | undefined> {
    try {
      const res = await this.transport.request({
        method: "GET",
        path: urlPath("policies", policyId, "download"),
        text: true,
        repeat: "idempotent",
      });
      return codeOf(res.data);
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
      await this.read(policyId);
      return undefined;
    }
  }
}
