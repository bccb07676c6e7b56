/**
 * Parameters of a policy set (`client.policySetParameters`, `/policy-sets/:id/parameters`):
 * values the set's Sentinel policies read. Only a versioned Sentinel set (uploaded or
 * from VCS) takes them; a create on any other set raises
 * {@link PolicySetParameterNotAllowedError}. A sensitive value is never answered.
 */
import {
  POLICY_SET_PARAMETER_CATEGORY,
  policySetParameterCreateRequestSchema,
  policySetParameterDocumentSchema,
  policySetParameterListDocumentSchema,
  policySetParameterUpdateRequestSchema,
  type PolicySetParameterResource,
} from "../api/policy-sets";
import { type PagedList, pagedGet } from "./pagination";
import { type Transport, urlPath } from "./transport";
import { checkedBody, relId, toWire } from "./wire";

/** A policy set parameter. */
export interface PolicySetParameter {
  /** Parameter id (`var-...`). */
  id: string;
  /** Key, unique in the set. */
  key: string;
  /** The value; null for a sensitive parameter (the service never answers it). */
  value: string | null;
  /** Always `policy-set`. */
  category: string;
  /** Whether the value is sensitive: written, never read back. */
  sensitive: boolean;
  /** The set (`polset-...`), or null when the service does not say. */
  policySetId: string | null;
  /** Every attribute exactly as received. */
  attributes: Record<string, unknown>;
}

/** A parameter to create. */
export interface PolicySetParameterCreateOptions {
  /** Key, unique in the set. */
  key: string;
  /** The value. */
  value?: string;
  /** Whether the value is sensitive: the service keeps it sealed and never answers it. Default false. */
  sensitive?: boolean;
}

/** What to change: only the settings given change. A sensitive parameter cannot become non-sensitive. */
export interface PolicySetParameterUpdateOptions {
  /** A new key. */
  key?: string;
  /** A new value. */
  value?: string;
  /** Whether the value is sensitive. */
  sensitive?: boolean;
}

function toParameter(r: PolicySetParameterResource): PolicySetParameter {
  const a = r.attributes;
  const sensitive = a.sensitive ?? false;
  return {
    id: r.id,
    key: a.key,
    value: sensitive ? null : (a.value ?? ""),
    category: a.category,
    sensitive,
    policySetId: relId(r, "configurable"),
    attributes: a,
  };
}

/** Policy set parameter calls of a {@link WorkspacesClient} (`client.policySetParameters`). */
export class PolicySetParameters {
  constructor(private readonly transport: Transport) {}

  /** `GET /policy-sets/:id/parameters`, 100 per page. */
  list(policySetId: string): PagedList<PolicySetParameter> {
    return pagedGet(
      this.transport,
      urlPath("policy-sets", policySetId, "parameters"),
      {},
      policySetParameterListDocumentSchema,
      toParameter,
    );
  }

  /** `GET /policy-sets/:id/parameters/:param_id`. */
  async read(policySetId: string, parameterId: string): Promise<PolicySetParameter> {
    const doc = await this.transport.requestParsed(
      { method: "GET", path: urlPath("policy-sets", policySetId, "parameters", parameterId), repeat: "idempotent" },
      policySetParameterDocumentSchema,
    );
    return toParameter(doc.data);
  }

  /**
   * `POST /policy-sets/:id/parameters`; never repeated after it reached the service (a
   * second would make a second parameter). A set that cannot take parameters raises
   * {@link PolicySetParameterNotAllowedError}.
   */
  async create(policySetId: string, options: PolicySetParameterCreateOptions): Promise<PolicySetParameter> {
    const path = urlPath("policy-sets", policySetId, "parameters");
    const attributes = { ...toWire(options, ["key", "value", "sensitive"]), category: POLICY_SET_PARAMETER_CATEGORY };
    const body = checkedBody(policySetParameterCreateRequestSchema, "POST", path, {
      data: { type: "vars", attributes },
    });
    const doc = await this.transport.requestParsed(
      { method: "POST", path, body, repeat: "once" },
      policySetParameterDocumentSchema,
    );
    return toParameter(doc.data);
  }

  /** `PATCH /policy-sets/:id/parameters/:param_id`: setting the same values twice leaves the same parameter, so it is retried like a read. */
  async update(
    policySetId: string,
    parameterId: string,
    options: PolicySetParameterUpdateOptions,
  ): Promise<PolicySetParameter> {
    const path = urlPath("policy-sets", policySetId, "parameters", parameterId);
    const attributes = toWire(options, ["key", "value", "sensitive"]);
    const body = checkedBody(policySetParameterUpdateRequestSchema, "PATCH", path, {
      data: { type: "vars", id: parameterId, attributes },
    });
    const doc = await this.transport.requestParsed(
      { method: "PATCH", path, body, repeat: "idempotent" },
      policySetParameterDocumentSchema,
    );
    return toParameter(doc.data);
  }

  /** `DELETE /policy-sets/:id/parameters/:param_id`; a retry that finds it gone means the first attempt deleted it. */
  async delete(policySetId: string, parameterId: string): Promise<void> {
    await this.transport.request({
      method: "DELETE",
      path: urlPath("policy-sets", policySetId, "parameters", parameterId),
      repeat: "idempotent",
      goneMeansDone: true,
    });
  }
}
