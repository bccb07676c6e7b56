import type { Domain } from "../context";

/** `GET /ping`: clients such as go-tfe call it first to learn the rate limit from its headers. */
export const pingDomain: Domain = {
  name: "ping",
  routes(app) {
    app.get("/ping", async (_request, reply) => reply.code(204).header("TFP-API-Version", "2.6").send());
  },
};
