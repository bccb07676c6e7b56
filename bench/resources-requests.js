#!/usr/bin/env node
/**
 * Requests a stack of N workspaces costs through the providers, against the local
 * server: create (workspace with key-value and flat tags), refresh (read), a no-op
 * preview (check + diff) and destroy. Prints requests per workspace and wall time per
 * phase; the figures to watch are create <= 2, refresh = 1 and preview = 0 requests
 * per workspace. The rate-limit announcement (`/ping`, once per process) is left out.
 *
 * Usage: npm run build && node bench/resources-requests.js [N=200]
 */
const { startServer } = require("../dist/server");
const { resetLimiters } = require("../dist/client");
const { dispatch } = require("../dist/resources/entry");

const N = Number(process.argv[2] ?? 200);

function served(server) {
  const s = server.stats();
  const pings = Object.entries(s.byRoute)
    .filter(([k]) => k.includes("/ping"))
    .reduce((n, [, v]) => n + v, 0);
  return s.total - pings;
}

async function phase(label, server, fn) {
  const before = served(server);
  const started = Date.now();
  const result = await fn();
  const wall = Date.now() - started;
  const requests = served(server) - before;
  console.log(
    `${label.padEnd(10)} ${String(requests).padStart(6)} requests  ${(requests / N).toFixed(2).padStart(5)} per workspace  ${String(wall).padStart(6)} ms`,
  );
  return result;
}

(async () => {
  const server = await startServer({ port: 0, db: ":memory:", rateLimit: false });
  resetLimiters();
  const config = {
    "workspaces:address": server.url,
    "workspaces:token": server.token,
    "workspaces:organization": server.organization,
  };
  await dispatch(1, "Workspace", "configure", [{ config: { get: (k) => config[k] } }]);
  console.log(`${N} workspaces, each with 2 key-value tags and 2 flat tags`);

  const inputs = await Promise.all(
    Array.from({ length: N }, (_, i) =>
      dispatch(1, "Workspace", "check", [
        {},
        { name: `bench-${i}`, tags: { env: "prod", team: `t${i % 7}` }, tagNames: ["Bench", `g${i % 5}`] },
      ]).then((r) => r.inputs),
    ),
  );
  const created = await phase("create", server, () =>
    Promise.all(inputs.map((inp) => dispatch(1, "Workspace", "create", [inp]))),
  );
  const read = await phase("refresh", server, () =>
    Promise.all(created.map((c) => dispatch(1, "Workspace", "read", [c.id, c.outs]))),
  );
  const diffs = await phase("preview", server, () =>
    Promise.all(
      read.map((r, i) =>
        dispatch(1, "Workspace", "check", [{}, inputs[i]]).then((c) =>
          dispatch(1, "Workspace", "diff", [r.id, r.props, c.inputs]),
        ),
      ),
    ),
  );
  const changed = diffs.filter((d) => d.changes).length;
  console.log(`preview reports ${changed} of ${N} workspaces changed (expected 0)`);
  await phase("destroy", server, () =>
    Promise.all(created.map((c) => dispatch(1, "Workspace", "delete", [c.id, c.outs]))),
  );
  await server.close();
})().catch((err) => {
  console.error(err);
  process.exit(1);
});
