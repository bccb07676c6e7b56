/**
 * Valid no-code bodies with generated damage (keys removed, values replaced by any JSON):
 * every answer is a success or a 4xx JSON:API error, never a 5xx, and a rejected body
 * leaves modules, option sets, workspaces and variables exactly as they were.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { errorDocumentSchema } from "../../src/api/common";
import { expectStatus, type Api } from "./helpers";
import {
  createFromModule,
  enableBody,
  enableModule,
  optionItems,
  publishModule,
  serveForSuite,
  upgradePath,
  varItems,
  workspaceFromModuleBody,
} from "./no-code-support";

let api: Api;
let org: string;
serveForSuite((t) => {
  api = t.api;
  org = t.org;
});

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** Every path of a JSON value (objects and arrays), the root included. */
function paths(value: Json, prefix: (string | number)[] = []): (string | number)[][] {
  const out = [prefix];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...paths(v, [...prefix, i])));
  else if (value && typeof value === "object")
    for (const [k, v] of Object.entries(value)) out.push(...paths(v, [...prefix, k]));
  return out;
}

/** A copy of `value` with the node at `path` replaced by `replacement`, or removed when it is undefined. */
function damage(value: Json, path: (string | number)[], replacement: Json | undefined): Json | undefined {
  if (path.length === 0) return replacement;
  const copy: any = Array.isArray(value) ? [...value] : { ...(value as object) };
  const [head, ...rest] = path;
  const next = damage(copy[head], rest, replacement);
  if (next === undefined) {
    if (Array.isArray(copy)) copy.splice(Number(head), 1);
    else delete copy[head];
  } else copy[head] = next;
  return copy;
}

function damaged(valid: Json) {
  const all = paths(valid);
  return fc
    .array(fc.tuple(fc.nat(all.length - 1), fc.option(fc.jsonValue(), { nil: undefined })), {
      minLength: 1,
      maxLength: 3,
    })
    .map((ops) =>
      ops.reduce<Json | undefined>(
        (body, [i, replacement]) => (body === undefined ? body : damage(body, all[i], replacement as Json | undefined)),
        valid,
      ),
    );
}

async function snapshot(noCodeId: string, workspaceId: string) {
  const m = await expectStatus(api.get(`/no-code-modules/${noCodeId}?include=variable_options`), 200);
  const ws = await expectStatus(api.get(`/organizations/${org}/workspaces?page[size]=100`), 200);
  const vars = await expectStatus(api.get(`/workspaces/${workspaceId}/vars`), 200);
  return JSON.stringify([m.body, ws.body.data, ws.body.meta, vars.body]);
}

async function check(method: "POST" | "PATCH", path: string, body: Json | undefined, before: () => Promise<string>) {
  const expected = await before();
  const r = await api.request(method, path, body === undefined ? undefined : body);
  expect(r.status, r.text).toBeLessThan(500);
  if (r.status >= 400) {
    expect(errorDocumentSchema.safeParse(r.body).success, r.text).toBe(true);
    expect(await before()).toBe(expected);
  }
  return r;
}

describe("damaged no-code bodies", () => {
  it("never cause a 5xx and, when rejected, change nothing", async () => {
    const mod = await publishModule(api, org, "fuzzed", ["1.0.0", "1.1.0"]);
    const spare = await publishModule(api, org, "fuzzed-spare", ["2.0.0"]);
    const m = await enableModule(api, org, mod, { "version-pin": "1.0.0" }, [
      { name: "region", options: ["eu", "us"] },
    ]);
    const ws = await createFromModule(api, m.id, "fuzzed-ws", [{ key: "region", value: "eu" }]);
    const state = () => snapshot(m.id, ws.id);
    const optionId = m.relationships["variable-options"].data[0].id as string;
    const statuses: Record<string, number> = {};
    const tally = (s: number): void => {
      statuses[s] = (statuses[s] ?? 0) + 1;
    };

    const enable = enableBody(spare, { enabled: true, "version-pin": "2.0.0" }, [
      { name: "size", options: ["s"] },
    ]) as Json;
    const patch = {
      data: {
        type: "no-code-modules",
        attributes: { "version-pin": "1.1.0", enabled: true },
        relationships: {
          "variable-options": { data: optionItems([{ id: optionId, name: "region", options: ["eu", "us"] }]) },
        },
      },
    } as Json;
    const create = workspaceFromModuleBody("fuzz-created", [{ key: "region", value: "us", sensitive: true }], {
      auto_apply: false,
    }) as Json;
    const upgrade = {
      data: { type: "workspaces", relationships: { vars: { data: varItems([{ key: "region", value: "us" }]) } } },
    } as Json;

    await fc.assert(
      fc.asyncProperty(damaged(enable), async (body) => {
        const s = (await check("POST", `/organizations/${org}/no-code-modules`, body, state)).status;
        tally(s);
        // An accepted enable holds the spare module; free it for the next run.
        if (s < 300) {
          const made = (await expectStatus(api.get(`/registry-modules/${spare}`), 200)).body.data.relationships[
            "no-code-modules"
          ].data;
          for (const nc of made) await expectStatus(api.delete(`/no-code-modules/${nc.id}`), 204);
        }
      }),
      { numRuns: 60 },
    );
    await fc.assert(
      fc.asyncProperty(damaged(patch), async (body) => {
        tally((await check("PATCH", `/no-code-modules/${m.id}`, body, state)).status);
      }),
      { numRuns: 60 },
    );
    await fc.assert(
      fc.asyncProperty(damaged(create), async (body) => {
        const r = await check("POST", `/no-code-modules/${m.id}/workspaces`, body, state);
        tally(r.status);
        // The damage may have renamed it: delete what was made, by its id.
        if (r.status < 300) await expectStatus(api.delete(`/workspaces/${r.body.data.id}`), 204);
      }),
      { numRuns: 60 },
    );
    await fc.assert(
      fc.asyncProperty(damaged(upgrade), async (body) => {
        tally((await check("POST", upgradePath(m.id, ws.id), body, state)).status);
      }),
      { numRuns: 60 },
    );

    // The damage reached both sides: some bodies were still valid, most were refused.
    expect(Object.keys(statuses).some((s) => Number(s) < 300)).toBe(true);
    expect(statuses["422"]).toBeGreaterThan(50);
  });
});
