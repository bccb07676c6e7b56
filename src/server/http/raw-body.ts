import type { FastifyInstance, FastifyRequest } from "fastify";

/**
 * Raw bodies (`application/octet-stream`) for the routes `register` adds, and those only:
 * every other route keeps reading JSON:API. An empty body reads as no bytes.
 */
export function withRawBodies(app: FastifyInstance, register: (scoped: FastifyInstance) => void): void {
  app.register(async (scoped) => {
    scoped.addContentTypeParser("application/octet-stream", { parseAs: "buffer" }, (_req, body, done) =>
      done(null, body),
    );
    register(scoped);
  });
}

/** The bytes of a raw body (none when the request had none). */
export function rawBody(request: FastifyRequest): Buffer {
  return Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
}
