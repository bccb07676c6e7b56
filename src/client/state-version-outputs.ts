/** State version outputs (`client.stateVersionOutputs`): another workspace's outputs, readable with outputs-only access. */
import {
  stateVersionOutputDocumentSchema,
  stateVersionOutputListDocumentSchema,
  type StateVersionOutputResource,
} from "../api/state-version-outputs";
import { type Transport, urlPath } from "./transport";

/** An output of a state version. */
export interface StateVersionOutput {
  /** Output id (`wsout-...`). */
  id: string;
  /** Output name, as the configuration declares it. */
  name: string;
  /** Whether the output is marked sensitive (false when the service does not say). */
  sensitive: boolean;
  /** The value; null for a sensitive output the service does not show. */
  value: unknown;
  /** The value's type as the service names it (`string`, `array`, ...), or null when it does not say. */
  type: string | null;
  /** The value's type in Terraform's JSON type notation (`detailed-type`, e.g. `["list","string"]`), or null. */
  detailedType: unknown;
}

function toOutput(r: StateVersionOutputResource): StateVersionOutput {
  const a = r.attributes;
  return {
    id: r.id,
    name: a.name,
    sensitive: a.sensitive,
    value: a.value ?? null,
    type: a.type ?? null,
    detailedType: a["detailed-type"] ?? null,
  };
}

/** State version output calls of a {@link WorkspacesClient} (`client.stateVersionOutputs`). */
export class StateVersionOutputs {
  constructor(private readonly transport: Transport) {}

  /** `GET /state-version-outputs/:id`: a sensitive value shows to a caller that may read the state. */
  async read(outputId: string): Promise<StateVersionOutput> {
    const doc = await this.transport.requestParsed(
      { method: "GET", path: urlPath("state-version-outputs", outputId), repeat: "idempotent" },
      stateVersionOutputDocumentSchema,
    );
    return toOutput(doc.data);
  }

  /** `GET /workspaces/:id/current-state-version-outputs`: every output of the current state; sensitive values are null. */
  async readCurrent(workspaceId: string): Promise<StateVersionOutput[]> {
    const doc = await this.transport.requestParsed(
      {
        method: "GET",
        path: urlPath("workspaces", workspaceId, "current-state-version-outputs"),
        repeat: "idempotent",
      },
      stateVersionOutputListDocumentSchema,
    );
    return doc.data.map(toOutput);
  }
}
