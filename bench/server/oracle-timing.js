/**
 * The timing side of "no existence oracle": a token of a user who belongs only to
 * organisation B asks for organisation A's records, and for unknown ids of the same kinds.
 * The answers are the same bytes (test/server/no-oracle.test.ts); this prints how long
 * each takes, interleaved, and the ratio of their medians per route. A ratio near 1.00x,
 * inside the spread of either side, is the same timing class.
 *
 *   node bench/server/oracle-timing.js [N=1000]      (after npm run build)
 *
 * Measured on 2026-11-29 at 0.6.0, N=300, on the 2-core machine while CI ran beside it
 * (hence the wide p95): hidden against unknown, p50, 0.77 against 0.76 ms (workspace by
 * id, 1.01x), 0.79 against 0.77 (by name, 1.03x), 0.64 against 0.62 (team, 1.03x),
 * 0.80 against 0.76 (team update, 1.05x), 0.53 against 0.50 (team access, 1.06x): the
 * visibility check costs 0.01 to 0.04 ms, inside either side's spread (p95 4.4 to 5.6 ms).
 */
const { mkdtempSync } = require("node:fs");
const { tmpdir } = require("node:os");
const { join } = require("node:path");
const { benchmark, call, fmt, quantiles } = require("./harness");

const n = Number(process.argv[2] ?? 1000);
const dir = mkdtempSync(join(tmpdir(), "bench-oracle-"));
const MEDIA = "application/vnd.api+json";

async function status(url, token, method, path, body) {
  const res = await fetch(url + path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": MEDIA } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  await res.arrayBuffer();
  return res.status;
}

const data = (type, attributes, relationships) => ({
  data: { type, attributes, ...(relationships && { relationships }) },
});
const rel = (type, id) => ({ data: { type, id } });

benchmark({ db: join(dir, "oracle.db") }, dir, async ({ url }) => {
  const api = url;
  const org = (await call(api, "GET", "/organizations")).data[0].id;
  const ws = (await call(api, "POST", `/organizations/${org}/workspaces`, data("workspaces", { name: "hidden" }))).data;
  const team = (await call(api, "POST", `/organizations/${org}/teams`, data("teams", { name: "hidden-team" }))).data;
  const access = (
    await call(
      api,
      "POST",
      "/team-workspaces",
      data("team-workspaces", { access: "read" }, { team: rel("teams", team.id), workspace: rel("workspaces", ws.id) }),
    )
  ).data;
  const user = (await call(api, "POST", "/admin/users", data("users", { username: "outsider" }))).data;
  const token = (await call(api, "POST", `/users/${user.id}/authentication-tokens`)).data.attributes.token;
  const other = await status(
    api,
    token,
    "POST",
    "/organizations",
    data("organizations", { name: "b-org", email: "b@example.com" }),
  );
  if (other !== 201) throw new Error(`organisation B: ${other}`);

  const unknown = (id) => id.replace(/[a-zA-Z0-9]{6}$/, "zzzzzz");
  const routes = [
    ["GET /workspaces/:id", "GET", (id) => `/workspaces/${id}`, ws.id],
    [
      "GET /organizations/:org/workspaces/:name",
      "GET",
      (name) => `/organizations/${org}/workspaces/${name}`,
      ws.attributes.name,
    ],
    ["GET /teams/:id", "GET", (id) => `/teams/${id}`, team.id],
    ["PATCH /teams/:id", "PATCH", (id) => `/teams/${id}`, team.id, data("teams", { name: "renamed" })],
    ["GET /team-workspaces/:id", "GET", (id) => `/team-workspaces/${id}`, access.id],
  ];
  console.log(`${n} requests each, interleaved, token of a user of another organisation only`);
  console.log(
    "route                                      hidden p50 / p95 ms   unknown p50 / p95 ms   hidden / unknown (p50)",
  );
  for (const [name, method, path, id, body] of routes) {
    const hidden = [];
    const absent = [];
    for (let i = 0; i < n; i++) {
      for (const [list, target] of i % 2
        ? [
            [hidden, id],
            [absent, unknown(id)],
          ]
        : [
            [absent, unknown(id)],
            [hidden, id],
          ]) {
        const t0 = process.hrtime.bigint();
        const code = await status(api, token, method, path(target), body);
        list.push(Number(process.hrtime.bigint() - t0) / 1e6);
        if (code !== 404) throw new Error(`${name}: ${code}, not 404`);
      }
    }
    const h = quantiles(hidden);
    const u = quantiles(absent);
    console.log(
      `${name.padEnd(42)} ${`${fmt(h.p50)} / ${fmt(h.p95)}`.padEnd(21)} ${`${fmt(u.p50)} / ${fmt(u.p95)}`.padEnd(22)} ${(h.p50 / u.p50).toFixed(2)}x`,
    );
  }
});
