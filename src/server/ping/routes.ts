import type { FastifyInstance } from "fastify";
import type { ServerContext } from "../context";

/** The version the self-managed offering reports in `X-TFE-Version`, in that product's release naming. */
const SELF_MANAGED_RELEASE = "v202506-1";

/**
 * `GET /ping`: clients such as go-tfe call it first, to learn the API version and the
 * rate limit, and which offering they talk to: `TFP-AppName` says hosted or
 * self-managed (go-tfe's `IsCloud`/`IsEnterprise`), and the self-managed offering
 * also names its release in `X-TFE-Version`. The product names are the vendor's
 * own, kept as compatibility values.
 */
export function pingRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.get("/ping", async (_request, reply) => {
    reply.code(204).header("TFP-API-Version", "2.6");
    if (ctx.options.selfManaged)
      reply.header("TFP-AppName", "Terraform Enterprise").header("X-TFE-Version", SELF_MANAGED_RELEASE);
    else reply.header("TFP-AppName", "HCP Terraform");
    return reply.send();
  });
}
