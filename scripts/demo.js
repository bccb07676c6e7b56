#!/usr/bin/env node
// `npm run demo`: starts the embedded server, sets up what the demo program
// refers to (a project with tag bindings, an SSH key, a private registry
// module) and a webhook receiver on 127.0.0.1 for its notification
// configuration, runs `pulumi up` of the root program (Pulumi.yaml ->
// demo/index.ts) against it, prints what now exists on the server and what the
// receiver got, checks that the stack's state holds the demo's two secrets
// only encrypted, prints the map of what it deployed (run triggers and state
// sharing, per project) and ends with the address of the server's web view.
//
// Everything lives in memory and in a temporary directory: each run starts
// from an empty organisation and leaves nothing behind.
//
//   --serve                    keeps the server and its web view running until Ctrl-C (SIGINT or
//                              SIGTERM), then cleans up and exits 0
//   --no-serve                 stops once the report is printed
//                              (default: --serve when stdout is a terminal and CI is not set)
//   --export-state <file>      also writes the stack's state, as `pulumi stack export`
//                              prints it (secrets encrypted), to <file>
//   DEMO_PAYMENT_GATEWAY_KEY   the sensitive variable's value, 12 characters or more (default: a random one
//                              made for this run)
//   DEMO_NOTIFICATION_TOKEN    the notification configuration's token, 24 characters or more (default: a
//                              random one made for this run)
//   DEMO_PORT                  the embedded server's port (default: any free one)
//   DEMO_SERVER_TOKEN          the embedded server's owners token, for reaching its API beside the
//                              view while it serves (default: one the server generates, never printed)
//   DEMO_STACK                 the stack's name (default: demo), for running two demos in one checkout
"use strict";
const crypto = require("crypto");
const fs = require("fs");
const http = require("http");
const path = require("path");
const engine = require("./lib/engine.js");

const root = engine.repoRoot;
// Its config file, Pulumi.<stack>.yaml, sits beside Pulumi.yaml in the checkout, so two demos
// at once (two test files) need stacks of their own names.
const STACK = process.env.DEMO_STACK || "demo";

function parseArgs(argv) {
  // Serving by default only where someone can press Ctrl-C: never in CI, a pipe or a test.
  const options = { exportState: undefined, serve: Boolean(process.stdout.isTTY) && !process.env.CI };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--export-state" && argv[i + 1]) options.exportState = path.resolve(argv[++i]);
    else if (argv[i] === "--serve" || argv[i] === "--no-serve") options.serve = argv[i] === "--serve";
    else
      throw new Error(
        `unknown argument '${argv[i]}': the demo takes --serve or --no-serve (keep the web view running until Ctrl-C, or not) ` +
          "and --export-state <file>, which writes the stack's state (secrets encrypted) to <file>",
      );
  }
  return options;
}

/** An optional secret from the environment, refused when it is too short to be looked for safely. */
function givenSecret(name, min) {
  const given = process.env[name];
  if (given !== undefined && given.length < min)
    throw new Error(
      `${name} is shorter than ${min} characters: the demo checks that the stack's state never holds it in plain text, ` +
        "and a short value may appear there by chance; give a longer one, or none for a random one",
    );
  return given || undefined;
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const given = {
    gatewayKey: givenSecret("DEMO_PAYMENT_GATEWAY_KEY", 12),
    notificationToken: givenSecret("DEMO_NOTIFICATION_TOKEN", 24),
  };
  const dist = path.join(root, "dist", "server", "index.js");
  if (!fs.existsSync(dist)) throw new Error("dist/ is missing: run `npm run build` first (npm run demo does)");
  const bin = engine.ensureEngine();
  const { startServer } = require(dist);

  const tmp = engine.tempDir("pulumi-workspaces-demo-");
  const stackConfig = path.join(root, `Pulumi.${STACK}.yaml`);
  // runSpeed: simulated no-code runs complete in well under a second.
  const server = await startServer({
    port: Number(process.env.DEMO_PORT ?? 0),
    db: ":memory:",
    runSpeed: 100,
    webView: true,
    token: process.env.DEMO_SERVER_TOKEN || undefined,
  });
  // Two secrets of this run: neither may reach the report, a log or the state in plain text.
  const secrets = {
    "the sensitive variable's value": given.gatewayKey ?? crypto.randomBytes(18).toString("base64url"),
    "the notification token": given.notificationToken ?? crypto.randomBytes(24).toString("base64url"),
  };
  const [gatewayKey, notificationToken] = Object.values(secrets);
  const receiver = await startReceiver(notificationToken);
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
    log(`receiver ${receiver.url} (the notification configuration's webhook)`);

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
    const pulumi = async (args, { show = false, input } = {}) => {
      const r = await engine.runPulumi(args, {
        cwd: root,
        env,
        input,
        onOutput: show ? (s) => process.stdout.write(s) : undefined,
      });
      if (r.code !== 0) {
        if (!show) process.stderr.write(r.output);
        throw new Error(`pulumi ${args.join(" ")} exited with ${r.code}`);
      }
      return r;
    };
    await pulumi(["stack", "init", STACK, "--non-interactive"]);
    await pulumi([
      "config",
      "set-all",
      ...Object.entries({
        "demo:projectId": project.data.id,
        "demo:sshKeyId": sshKey.data.id,
        "demo:networkModuleId": module.data.id,
        "demo:notificationUrl": receiver.url,
      }).flatMap(([k, v]) => ["--plaintext", `${k}=${v}`]),
    ]);
    // Through stdin, so that no secret shows on a command line.
    for (const [k, v] of Object.entries({
      "demo:paymentGatewayKey": gatewayKey,
      "demo:notificationToken": notificationToken,
    })) {
      await pulumi(["config", "set", "--secret", k, "--non-interactive"], { input: v });
    }

    log("running  pulumi up\n");
    const started = Date.now();
    await pulumi(["up", "--yes", "--non-interactive", "--skip-preview", "--suppress-outputs"], { show: true });
    log(`pulumi up finished in ${((Date.now() - started) / 1000).toFixed(1)}s; the server now holds:\n`);
    const outputs = JSON.parse((await pulumi(["stack", "output", "--json"])).stdout);
    const notification = await awaitVerification(call, receiver, outputs.notificationId);
    await printOrganisation(server, call, outputs);
    console.log("");
    reportDeliveries(receiver, notification);

    const state = (await pulumi(["stack", "export"])).stdout;
    const plain = Object.entries(secrets)
      .filter(([, value]) => state.includes(value))
      .map(([what]) => what);
    if (plain.length) throw new Error(`the stack's state holds ${plain.join(" and ")} in plain text`);
    const encrypted = state.split(`"${SECRET_SIG}"`).length - 1;
    log(`state    ${encrypted} values encrypted; ${Object.keys(secrets).join(" and ")} appear nowhere in plain text`);
    if (options.exportState) {
      fs.writeFileSync(options.exportState, state);
      log(`state    written to ${options.exportState}`);
    }
    log(`${server.stats().total} HTTP requests served (setup, pulumi up and this report)`);
    await printMap(server);
    const view = server.viewUrl();
    log(`view     ${view}`);
    log(`map      ${view.split("#")[0]}#/o/${server.organization}/map (once signed in through the view's address)`);
    if (options.serve) {
      log("serving the view until Ctrl-C (its address signs in once, within 10 minutes)");
      await stopped();
    }
  } finally {
    await receiver.close();
    await server.close();
    fs.rmSync(tmp, { recursive: true, force: true });
    fs.rmSync(stackConfig, { force: true });
  }
}

/**
 * The map of what the demo deployed, per project, read and drawn by the generator's own code
 * (dist/generate): the same map its README diagrams and the web view draw.
 */
async function printMap(server) {
  const { WorkspacesClient } = require(path.join(root, "dist", "client", "index.js"));
  const { readOrgMap, textMapOf } = require(path.join(root, "dist", "generate", "index.js"));
  const client = new WorkspacesClient({ address: server.url, token: server.token, organization: server.organization });
  console.log("");
  log("map of what it deployed (run triggers and state sharing, by project):\n");
  for (const line of textMapOf(await readOrgMap(client, server.organization))) console.log(line);
  console.log("");
}

/** Resolves on the first Ctrl-C (SIGINT) or SIGTERM, so that the demo cleans up and exits 0. */
function stopped() {
  return new Promise((resolve) => {
    const stop = (signal) => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      log(`${signal}: stopping the server`);
      resolve();
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
}

/** The key Pulumi marks an encrypted value with in a stack's state. */
const SECRET_SIG = "4dabf18193072939515e22adb298388d";

/**
 * The webhook of the demo's notification configuration: an HTTP server on 127.0.0.1
 * (the local server delivers to loopback addresses only) that keeps what arrives and
 * checks each delivery's signature, an HMAC-SHA512 of the body keyed with the token.
 */
async function startReceiver(token) {
  const deliveries = [];
  let moment = "during pulumi up";
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const signature = req.headers["x-tfe-notification-signature"];
      const expected = crypto.createHmac("sha512", token).update(body).digest("hex");
      let payload;
      try {
        payload = JSON.parse(body.toString("utf8"));
      } catch {
        payload = {};
      }
      deliveries.push({
        moment,
        configurationId: payload.notification_configuration_id,
        triggers: (payload.notifications ?? []).map((n) => n.trigger),
        signature:
          typeof signature !== "string"
            ? "unsigned"
            : signature.length === expected.length &&
                crypto.timingSafeEqual(Buffer.from(signature), Buffer.from(expected))
              ? "signed, signature valid"
              : "signed, signature NOT matching the token",
      });
      res.writeHead(200, { "content-type": "text/plain" }).end("received\n");
    });
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  return {
    url: `http://127.0.0.1:${server.address().port}/hooks/network-prod`,
    deliveries,
    expect: (m) => (moment = m),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The server sends a verification when a configuration is created enabled; where none
 * arrived during `pulumi up`, the demo asks for one (`actions/verify`) and says so.
 */
async function awaitVerification(call, receiver, id) {
  const nc = (await call("GET", `/notification-configurations/${id}`)).data;
  if (!receiver.deliveries.some((d) => d.configurationId === id)) {
    log(`notification '${nc.attributes.name}': nothing arrived during pulumi up, so the demo asks for a verification`);
    receiver.expect("on request (POST /notification-configurations/:id/actions/verify)");
    await call("POST", `/notification-configurations/${id}/actions/verify`);
  }
  return nc;
}

/** What the receiver got, as it got it. */
function reportDeliveries(receiver, nc) {
  const mine = receiver.deliveries.filter((d) => d.configurationId === nc.id);
  for (const d of mine) {
    log(
      `notification '${nc.attributes.name}' -> ${d.triggers.join(", ") || "delivery"} delivered to ${receiver.url} (${d.signature}), ${d.moment}`,
    );
  }
  if (mine.length === 0) log(`notification '${nc.attributes.name}': the receiver got no delivery`);
  const n = receiver.deliveries.length;
  log(`receiver got ${n} ${n === 1 ? "delivery" : "deliveries"} in all`);
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

  // A sensitive value never comes back from the service: the report says so instead.
  const shown = (v) => (v.attributes.sensitive ? "(sensitive)" : v.attributes.value);
  const sets = await listAll(call, `/organizations/${org}/varsets`);
  const setRows = [];
  for (const set of sets) {
    const vars = await listAll(call, `/varsets/${set.id}/relationships/vars`);
    const where = [
      ...set.relationships.projects.data.map((p) => {
        const n = workspaces.filter((w) => w.relationships?.project?.data?.id === p.id).length;
        return `project ${projectNames[p.id] ?? p.id} (${n} workspaces)`;
      }),
      ...set.relationships.workspaces.data.map((w) => `workspace ${names[w.id] ?? w.id}`),
    ];
    setRows.push([
      set.attributes.name,
      set.attributes.global ? "global" : where.join(", ") || "-",
      vars.map((v) => `${v.attributes.key}=${shown(v)}`).join(", "),
    ]);
  }
  console.log("");
  console.log(table(["VARIABLE SET", "APPLIES TO", "VARIABLES"], setRows));

  const varRows = [];
  const triggerRows = [];
  const notifications = [];
  const grants = {};
  const grant = (teamId, text) => (grants[teamId] ??= []).push(text);
  for (const w of workspaces) {
    for (const v of await listAll(call, `/workspaces/${w.id}/vars`)) {
      // The service's `terraform` category is the spec's `engine`, as programs name it.
      const category = v.attributes.category === "terraform" ? "engine" : v.attributes.category;
      varRows.push([w.attributes.name, v.attributes.key, category, shown(v)]);
    }
    const inbound = await listAll(call, `/workspaces/${w.id}/run-triggers?filter%5Brun-trigger%5D%5Btype%5D=inbound`);
    for (const t of inbound) {
      triggerRows.push([t.id, `${t.attributes["sourceable-name"]} -> ${t.attributes["workspace-name"]}`]);
    }
    notifications.push(
      ...(await call("GET", `/workspaces/${w.id}/notification-configurations`)).data.map((n) => [w, n]),
    );
    for (const a of await listAll(call, `/team-workspaces?filter%5Bworkspace%5D%5Bid%5D=${w.id}`)) {
      grant(a.relationships.team.data.id, `workspace ${w.attributes.name}: ${a.attributes.access}`);
    }
  }
  for (const p of projects) {
    for (const a of await listAll(call, `/team-projects?filter%5Bproject%5D%5Bid%5D=${p.id}`)) {
      grant(a.relationships.team.data.id, `project ${p.attributes.name}: ${a.attributes.access}`);
    }
  }
  console.log("");
  console.log(table(["WORKSPACE", "VARIABLE", "CATEGORY", "VALUE"], varRows));

  const teams = await listAll(call, `/organizations/${org}/teams`);
  console.log("");
  console.log(
    table(
      ["TEAM", "VISIBILITY", "ACCESS"],
      teams.map((t) => [
        t.attributes.name,
        t.attributes.visibility,
        (grants[t.id] ?? []).join(", ") || (t.attributes.name === "owners" ? "the whole organization" : "-"),
      ]),
    ),
  );

  console.log("");
  console.log(table(["RUN TRIGGER", "SOURCE -> TARGET"], triggerRows));

  console.log("");
  console.log(
    table(
      ["NOTIFICATION", "WORKSPACE", "DESTINATION", "TRIGGERS", "ENABLED", "LAST DELIVERY"],
      notifications.map(([w, n]) => {
        const last = n.attributes["delivery-responses"]?.[0];
        return [
          n.attributes.name,
          w.attributes.name,
          // The fragment (the stack's origin) is never part of a delivery.
          `${n.attributes["destination-type"]} ${String(n.attributes.url).split("#")[0]}`,
          n.attributes.triggers.join(",") || "-",
          n.attributes.enabled,
          last ? `HTTP ${last.code || "(no answer)"}` : "none yet",
        ];
      }),
    ),
  );

  const sensitive = varRows.filter((r) => r[3] === "(sensitive)").length;
  console.log(
    `\n${workspaces.length} workspaces, ${projects.length} projects, ${keys.length} SSH key(s), ` +
      `${sets.length} variable set(s), ${varRows.length} workspace variable(s) (${sensitive} sensitive), ` +
      `${teams.length} team(s), ${triggerRows.length} run trigger(s), ${notifications.length} notification configuration(s)`,
  );
}

main().catch((err) => {
  console.error(`[demo] failed: ${err.message}`);
  process.exit(1);
});
