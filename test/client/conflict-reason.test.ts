import { afterEach, describe, expect, it } from "vitest";
import { ConflictError } from "../../src/client";
import { failure } from "./helpers";
import { fakeClient, reply, startFakeService, type FakeService } from "./fake-service";

let service: FakeService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

/** A service that answers every request but `/ping` with a 409 made of `error`. */
async function conflicting(error: Record<string, string>): Promise<FakeService> {
  return startFakeService((req, res) =>
    req.url === "/api/v2/ping"
      ? reply(res, 204, undefined)
      : reply(res, 409, { errors: [{ status: "409", ...error }] }),
  );
}

describe("the reason of a 409", () => {
  it("is the error object's code when it names a reason, whatever the text says", async () => {
    service = await conflicting({ code: "not-locked", title: "conflict", detail: "workspace already locked" });
    const err = await failure(fakeClient(service).locks.lock("ws-1"));
    expect(err).toBeInstanceOf(ConflictError);
    expect((err as ConflictError).reason).toBe("not-locked");
  });

  it("is read from the text when the error object has no code", async () => {
    // On an unlock a 409 usually means "not locked"; the text says otherwise and wins.
    service = await conflicting({ title: "conflict", detail: "workspace already locked" });
    const err = await failure(fakeClient(service).locks.unlock("ws-1"));
    expect(err).toBeInstanceOf(ConflictError);
    expect((err as ConflictError).reason).toBe("already-locked");
  });

  it("is read from the text when the code names no reason the client knows", async () => {
    service = await conflicting({ code: "conflict", title: "conflict", detail: "workspace is held by another user" });
    const err = await failure(fakeClient(service).locks.lock("ws-1"));
    expect((err as ConflictError).reason).toBe("locked-by-another-user");
  });
});
