import { afterEach, describe, expect, it } from "vitest";
import { MESSAGE_DETAIL_LIMIT, ServerError, ValidationError } from "../../src/client";
import { failure } from "./helpers";
import { fakeClient, reply, startFakeService, TOKEN, type FakeService } from "./fake-service";
import { deleteWorkspace } from "../../src/resources/providers/deletion";
import { resetClients } from "../../src/resources/providers/client";
import { workspaceLockProvider } from "../../src/resources/providers/workspace-lock";

let service: FakeService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

describe("error messages stay short", () => {
  it("quotes at most the first characters of a 4 MB detail and keeps the whole detail on the error", async () => {
    const detail = "x".repeat(4 * 1024 * 1024);
    service = await startFakeService((req, res) =>
      req.url === "/api/v2/ping"
        ? reply(res, 204, undefined)
        : reply(res, 422, {
            errors: [{ status: "422", title: "invalid", detail, source: { pointer: "/data/attributes/name" } }],
          }),
    );
    const err = await failure(fakeClient(service).workspaces.update("ws-1", { description: "d" }));
    expect(err).toBeInstanceOf(ValidationError);
    const e = err as ValidationError;
    expect(e.message.length).toBeLessThan(MESSAGE_DETAIL_LIMIT + 200);
    expect(e.message).toMatch(
      new RegExp(
        `^PATCH /workspaces/ws-1: 422 - x{${MESSAGE_DETAIL_LIMIT}}\\.\\.\\. \\(${detail.length - MESSAGE_DETAIL_LIMIT} more characters on the error object\\)$`,
      ),
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

describe("provider messages stay short", () => {
  it("quote at most the first characters of a 4 MB service detail, on delete and on lock", async () => {
    const detail = "workspace is locked " + "x".repeat(4 * 1024 * 1024);
    service = await startFakeService((req, res) => {
      if (req.url === "/api/v2/ping") return reply(res, 204, undefined);
      reply(res, 409, { errors: [{ status: "409", title: "conflict", detail }] });
    });
    const deleting = await failure(deleteWorkspace(fakeClient(service), "ws-1", { force: false, name: "web" }));
    expect(deleting.message).toMatch(/^cannot delete workspace .*the workspace is locked/);
    expect(deleting.message).toContain(
      `Service: workspace is locked ${"x".repeat(MESSAGE_DETAIL_LIMIT - 20)}... (${detail.length - MESSAGE_DETAIL_LIMIT} more characters of the service's detail left out)`,
    );
    expect(deleting.message.length).toBeLessThan(MESSAGE_DETAIL_LIMIT + 600);

    const saved = { ...process.env };
    Object.assign(process.env, {
      WORKSPACES_ADDRESS: service.url,
      WORKSPACES_TOKEN: TOKEN,
      WORKSPACES_ORGANIZATION: "acme",
    });
    resetClients();
    try {
      const locking = await failure(workspaceLockProvider.create({ workspaceId: "ws-1", reason: "mine" }));
      expect(locking.message).toMatch(
        /^cannot lock workspace ws-1: it is already locked\. workspace is locked x+\.\.\. \(\d+ more characters of the service's detail left out\)$/,
      );
      expect(locking.message.length).toBeLessThan(MESSAGE_DETAIL_LIMIT + 200);
    } finally {
      process.env = saved;
      resetClients();
    }
  });
});
