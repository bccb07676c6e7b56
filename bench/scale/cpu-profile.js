// Preloaded with NODE_OPTIONS="--require <this file>" (Node 20 refuses --cpu-prof in
// NODE_OPTIONS): records a V8 CPU profile of the process and writes it to
// $BENCH_CPU_PROF_DIR/<pid>-<script>.cpuprofile when the process exits or is told to stop.
"use strict";
const fs = require("fs");
const inspector = require("inspector");
const path = require("path");

const dir = process.env.BENCH_CPU_PROF_DIR;
if (dir) {
  const session = new inspector.Session();
  session.connect();
  session.post("Profiler.enable");
  session.post("Profiler.setSamplingInterval", { interval: 1000 });
  session.post("Profiler.start");
  let written = false;
  const write = () => {
    if (written) return;
    written = true;
    // The in-thread session answers synchronously, so this works inside an exit handler.
    session.post("Profiler.stop", (err, res) => {
      if (err || !res) return;
      const name = path.basename(process.argv[1] ?? "node").replace(/\W+/g, "_");
      const script = /dynamic-provider/.test(process.argv.join(" ")) ? "provider" : name;
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, `${process.pid}-${script}.cpuprofile`), JSON.stringify(res.profile));
    });
  };
  process.on("exit", write);
  for (const sig of ["SIGINT", "SIGTERM"]) {
    process.on(sig, () => {
      write();
      process.exit(0);
    });
  }
}
