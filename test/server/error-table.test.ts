import { describe, expect, it } from "vitest";
import { Conflict, Forbidden, Invalid, NameTaken, NotFound, Unavailable } from "../../src/server/domain-errors";
import { renderDomainError } from "../../src/server/http/error-documents";

/** The JSON text a client receives for a domain error, as the app's error handler sends it. */
const body = (e: Parameters<typeof renderDomainError>[0]) => {
  const r = renderDomainError(e);
  return `${r.status} ${JSON.stringify({ errors: r.errors })}`;
};

describe("the domain error table", () => {
  it("renders each class with its status, title, detail and source", () => {
    expect(body(new NotFound())).toBe(
      '404 {"errors":[{"status":"404","title":"not found","detail":"The requested resource was not found, or you are not authorized to access it."}]}',
    );
    expect(body(new NotFound("workspace not found"))).toBe(
      '404 {"errors":[{"status":"404","title":"not found","detail":"workspace not found"}]}',
    );
    expect(body(new Forbidden())).toBe(
      '403 {"errors":[{"status":"403","title":"forbidden","detail":"You are not authorized to perform this action."}]}',
    );
    // A 409 names the state that refused it in `code` (the client's ConflictReason).
    expect(body(new Conflict("locked", "it is locked"))).toBe(
      '409 {"errors":[{"status":"409","code":"locked","title":"conflict","detail":"it is locked"}]}',
    );
    expect(body(new Unavailable("later"))).toBe(
      '503 {"errors":[{"status":"503","title":"service unavailable","detail":"later"}]}',
    );
    expect(body(new NameTaken())).toBe(
      '422 {"errors":[{"status":"422","title":"invalid attribute","detail":"Name has already been taken","source":{"pointer":"/data/attributes/name"}}]}',
    );
    expect(body(new Invalid("no place"))).toBe(
      '422 {"errors":[{"status":"422","title":"invalid attribute","detail":"no place"}]}',
    );
    expect(body(new Invalid("bad sort", { parameter: "sort" }))).toBe(
      '400 {"errors":[{"status":"400","title":"bad request","detail":"bad sort","source":{"parameter":"sort"}}]}',
    );
  });

  it("turns every kind of field into the JSON pointer the request used", () => {
    const pointers = renderDomainError(
      new Invalid([
        { detail: "a", field: { attribute: "vcs-repo.oauth-token-id" } },
        { detail: "b", field: { relationship: "default-agent-pool" } },
        { detail: "c", field: { relationship: "registry-module", id: true } },
        { detail: "d", field: { relationship: "tag-bindings", item: 2, attribute: "key" } },
        { detail: "e", field: { relationship: "variable-options", item: 0, id: true } },
        { detail: "f", field: { item: 3, id: true } },
        { detail: "g", field: { item: 1, attribute: "key" } },
        { detail: "h", field: { data: true } },
        { detail: "i" },
      ]),
    ).errors.map((e) => e.source?.pointer ?? null);
    expect(pointers).toEqual([
      "/data/attributes/vcs-repo/oauth-token-id",
      "/data/relationships/default-agent-pool",
      "/data/relationships/registry-module/data/id",
      "/data/relationships/tag-bindings/data/2/attributes/key",
      "/data/relationships/variable-options/data/0/id",
      "/data/3/id",
      "/data/1/attributes/key",
      "/data",
      null,
    ]);
  });
});
