// Asks a provider plugin for its version the way the engine asks: the plugin started (it
// prints the port it serves on), then GetPluginInfo over gRPC, with the gRPC and protocol
// modules of this checkout's @pulumi/pulumi.
"use strict";
const { spawn } = require("child_process");
const { createRequire } = require("module");

const sdkRequire = createRequire(require.resolve("@pulumi/pulumi"));

/** The version `command args…` reports through GetPluginInfo; the plugin is stopped afterwards. */
async function pluginInfoVersion(command, args, env) {
  const grpc = sdkRequire("@grpc/grpc-js");
  const { ResourceProviderClient } = sdkRequire("@pulumi/pulumi/proto/provider_grpc_pb");
  const { Empty } = sdkRequire("google-protobuf/google/protobuf/empty_pb");
  const child = spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  try {
    const port = await new Promise((resolve, reject) => {
      let out = "";
      child.stdout.on("data", (d) => {
        out += d;
        const line = /^(\d+)\s*\n/.exec(out);
        if (line) resolve(line[1]);
      });
      child.on("error", reject);
      child.on("exit", (code) => reject(new Error(`${command} exited ${code} before printing its port:\n${stderr}`)));
    });
    const client = new ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
    try {
      return await new Promise((resolve, reject) =>
        client.getPluginInfo(new Empty(), (err, info) => (err ? reject(err) : resolve(info.getVersion()))),
      );
    } finally {
      client.close();
    }
  } finally {
    child.kill();
  }
}

module.exports = { pluginInfoVersion };
