#!/usr/bin/env node
// `npm run demo`: starts the embedded server, sets up what the demo program
// refers to (a project with tag bindings, an SSH key, a private registry
// module), runs `pulumi up` of the root program (Pulumi.yaml -> demo/index.ts)
// against it, prints what now exists on the server, and stops.
//
// Everything lives in memory and in a temporary directory: each run starts
// from an empty organisation and leaves nothing behind.
"use strict";
const crypto = require("crypto");
const fs = require("fs");
const path = require("path");
const engine = require("./lib/engine.js");

const root = engine.repoRoot;
const STACK = "demo";

async function main() {
  const dist = path.join(root, "dist", "server", "index.js");
  if (!fs.existsSync(dist)) throw new Error("dist/ is missing: run `npm run build` first (npm run demo does)");
  const bin = engine.ensureEngine();
  const { startServer } = require(dist);

  const tmp = engine.tempDir("pulumi-workspaces-demo-");
  const stackConfig = path.join(root, `Pulumi.${STACK}.yaml`);
  // runSpeed: simulated no-code runs complete in well under a second.
  const server = await startServer({ port: Number(process.env.DEMO_PORT ?? 0), db: ":memory:", runSpeed: 100 });
  try {
    log(`server   ${server.url} (organization ${server.organization})`);
    const call = apiCaller(server);

    const project = await call("POST", `/organizations/${server.organization}/projects`, {
      data: {
        type: "projects",
        attributes: { name: "platform", description: "Shared platform services" },
        relationships: {
          "tag-bindings": {
            data: [
              { type: "tag-bindings", attributes: { key: "cost-center", value: "cc-1024" } },
              { type: "tag-bindings", attributes: { key: "business-unit", value: "commerce" } },
            ],
          },
        },
      },
    });
    // A throwaway key made for this run only: the service stores it write-only.
    const { privateKey } = crypto.generateKeyPairSync("ed25519");
    const sshKey = await call("POST", `/organizations/${server.organization}/ssh-keys`, {
      data: {
        type: "ssh-keys",
        attributes: { name: "deploy-key", value: privateKey.export({ type: "pkcs8", format: "pem" }) },
      },
    });
    const module = await call("POST", `/organizations/${server.organization}/registry-modules`, {
      data: { type: "registry-modules", attributes: { name: "network", provider: "aws", "registry-name": "private" } },
    });
    for (const version of ["1.0.0", "1.2.0"]) {
      await call("POST", `/registry-modules/${server.organization}/network/aws/versions`, {
        data: { type: "registry-module-versions", attributes: { version } },
      });
    }
    log(`seeded   project ${project.data.id}, SSH key ${sshKey.data.id}, registry module ${module.data.id}`);

    const env = engine.engineEnv({
      bin,
      home: path.join(tmp, "pulumi-home"),
      backendDir: fs.mkdirSync(path.join(tmp, "backend"), { recursive: true }) ?? path.join(tmp, "backend"),
      extra: {
        WORKSPACES_ADDRESS: server.url,
        WORKSPACES_TOKEN: server.token,
        WORKSPACES_ORGANIZATION: server.organization,
      },
    });
    const pulumi = async (args, { show = false } = {}) => {
      const r = await engine.runPulumi(args, {
        cwd: root,
        env,
        onOutput: show ? (s) => process.stdout.write(s) : undefined,
      });
      if (r.code !== 0) {
        if (!show) process.stderr.write(r.output);
        throw new Error(`pulumi ${args.join(" ")} exited with ${r.code}`);
      }
      return r;
    };
    await pulumi(["stack", "init", STACK, "--non-interactive"]);
    for (const [k, v] of Object.entries({
      "demo:projectId": project.data.id,
      "demo:sshKeyId": sshKey.data.id,
      "demo:networkModuleId": module.data.id,
    })) {
      await pulumi(["config", "set", k, v]);
    }

    log("running  pulumi up\n");
    const started = Date.now();
    await pulumi(["up", "--yes", "--non-interactive", "--skip-preview", "--suppress-outputs"], { show: true });
    log(`pulumi up finished in ${((Date.now() - started) / 1000).toFixed(1)}s; the server now holds:\n`);
    const outputs = JSON.parse((await pulumi(["stack", "output", "--json"])).stdout);
    await printOrganisation(server, call, outputs);
    console.log("");
    log(`${server.stats().total} HTTP requests served (setup, pulumi up and this report)`);
  } finally {
    await server.close();
    fs.rmSync(tmp, { recursive: true, force: true });
    fs.rmSync(stackConfig, { force: true });
  }
}

function log(s) {
  process.stdout.write(`[demo] ${s}\n`);
}

function apiCaller(server) {
  // Honours the server's rate limit (30 requests per second by default) like any client must.
  return async function call(method, p, body, attempt = 0) {
    const res = await fetch(`${server.url}${p}`, {
      method,
      headers: {
        authorization: `Bearer ${server.token}`,
        "content-type": "application/vnd.api+json",
        accept: "application/vnd.api+json",
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status === 429 && attempt < 20) {
      const reset = Number(res.headers.get("retry-after") ?? res.headers.get("x-ratelimit-reset") ?? 1);
      await new Promise((r) => setTimeout(r, Math.min(Math.max(reset, 0.1), 5) * 1000));
      return call(method, p, body, attempt + 1);
    }
    if (!res.ok) throw new Error(`${method} ${p}: HTTP ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
}

/** Every page of a list endpoint. */
async function listAll(call, p) {
  const out = [];
  for (let page = 1; ; page++) {
    const sep = p.includes("?") ? "&" : "?";
    const body = await call("GET", `${p}${sep}page%5Bnumber%5D=${page}&page%5Bsize%5D=100`);
    out.push(...body.data);
    const next = body.meta?.pagination?.["next-page"];
    if (!next) return out;
  }
}

function table(headers, rows) {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) =>
    cells
      .map((c, i) => String(c).padEnd(widths[i]))
      .join("  ")
      .trimEnd();
  return [line(headers), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}

async function printOrganisation(server, call, outputs) {
  const org = server.organization;
  const projects = await listAll(call, `/organizations/${org}/projects`);
  const projectNames = Object.fromEntries(projects.map((p) => [p.id, p.attributes.name]));
  const projectRows = [];
  for (const p of projects) {
    const tb = await call("GET", `/projects/${p.id}/tag-bindings`);
    projectRows.push([
      p.attributes.name,
      p.id,
      tb.data.map((b) => `${b.attributes.key}=${b.attributes.value}`).join(", ") || "-",
    ]);
  }
  console.log(table(["PROJECT", "ID", "TAG BINDINGS"], projectRows));

  const workspaces = (await listAll(call, `/organizations/${org}/workspaces`)).sort((a, b) =>
    a.attributes.name.localeCompare(b.attributes.name),
  );
  const names = Object.fromEntries(workspaces.map((w) => [w.id, w.attributes.name]));
  const rows = [];
  for (const w of workspaces) {
    const a = w.attributes;
    const tags = await call("GET", `/workspaces/${w.id}/effective-tag-bindings`);
    const readers = await listAll(call, `/workspaces/${w.id}/relationships/remote-state-consumers`);
    rows.push([
      a.name,
      projectNames[w.relationships?.project?.data?.id] ?? "-",
      tags.data
        .map((t) => `${t.attributes.key}=${t.attributes.value}`)
        .sort()
        .join(" "),
      (a["tag-names"] ?? []).join(","),
      readers.map((r) => names[r.id] ?? r.id).join(",") || "-",
      w.relationships?.["ssh-key"]?.data ? "yes" : "-",
      a["source-module-id"] ? "no-code" : "api",
    ]);
  }
  console.log("");
  console.log(
    table(["WORKSPACE", "PROJECT", "EFFECTIVE TAGS", "FLAT TAGS", "STATE READ BY", "SSH KEY", "SOURCE"], rows),
  );

  const mod = await call("GET", `/no-code-modules/${outputs.noCodeModuleId}?include=variable_options`);
  const options = (mod.included ?? []).map(
    (o) => `${o.attributes["variable-name"]}: ${o.attributes.options.join("|")}`,
  );
  console.log("");
  console.log(
    table(
      ["NO-CODE MODULE", "REGISTRY MODULE", "VERSION PIN", "ENABLED", "VARIABLE OPTIONS"],
      [
        [
          mod.data.id,
          mod.data.relationships?.["registry-module"]?.data?.id ?? "-",
          mod.data.attributes["version-pin"],
          mod.data.attributes.enabled,
          options.join("; "),
        ],
      ],
    ),
  );

  const keys = await listAll(call, `/organizations/${org}/ssh-keys`);
  console.log("");
  console.log(
    table(
      ["SSH KEY", "ID"],
      keys.map((k) => [k.attributes.name, k.id]),
    ),
  );
  console.log(`\n${workspaces.length} workspaces, ${projects.length} projects, ${keys.length} SSH key(s)`);
}

main().catch((err) => {
  console.error(`[demo] failed: ${err.message}`);
  process.exit(1);
});
