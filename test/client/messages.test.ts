import { afterEach, describe, expect, it } from "vitest";
import { MESSAGE_DETAIL_LIMIT, ServerError, ValidationError } from "../../src/client";
import { failure } from "./helpers";
import { fakeClient, reply, startFakeService, type FakeService } from "./fake-service";

let service: FakeService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

describe("error messages stay short", () => {
  it("quotes at most the first characters of a 4 MB detail and keeps the whole detail on the error", async () => {
    const detail = "x".repeat(4 * 1024 * 1024);
    service = await startFakeService((req, res) =>
      req.url === "/api/v2/ping" ? reply(res, 204, undefined) : reply(res, 422, { errors: [{ status: "422", title: "invalid", detail, source: { pointer: "/data/attributes/name" } }] }),
    );
    const err = await failure(fakeClient(service).workspaces.update("ws-1", { description: "d" }));
    expect(err).toBeInstanceOf(ValidationError);
    const e = err as ValidationError;
    expect(e.message.length).toBeLessThan(MESSAGE_DETAIL_LIMIT + 200);
    expect(e.message).toMatch(
      new RegExp(`^PATCH /workspaces/ws-1: 422 - x{${MESSAGE_DETAIL_LIMIT}}\\.\\.\\. \\(${detail.length - MESSAGE_DETAIL_LIMIT} more characters on the error object\\)$`),
    );
    expect(e.detail).toBe(detail);
    expect(e.errors[0].detail).toBe(detail);
    expect(e.problems[0]).toEqual({ pointer: "/data/attributes/name", detail });
  });

  it("keeps a whole body that is not JSON:API on the error and quotes only its start", async () => {
    const body = "<html>" + "proxy error ".repeat(100_000) + "</html>";
    service = await startFakeService((req, res) => {
      if (req.url === "/api/v2/ping") return reply(res, 204, undefined);
      res.writeHead(500, { "content-type": "text/html" });
      res.end(body);
    });
    const err = await failure(fakeClient(service).workspaces.update("ws-1", { description: "d" }));
    expect(err).toBeInstanceOf(ServerError);
    expect(err.message.length).toBeLessThan(MESSAGE_DETAIL_LIMIT + 200);
    expect((err as ServerError).detail).toBe(body);
  });
});
