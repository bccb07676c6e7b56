// Summarizes the CLI's own CPU profiles (`pulumi <cmd> --profiling PREFIX` writes
// PREFIX.<pid>.cpu, a Go pprof profile): for each phase, the engine's CPU seconds and
// the share spent in each part of the file backend's checkpoint, the cost that grows
// with steps x state size. Needs `go` for `go tool pprof`.
//
//   node bench/scale/engine-profile.js DIR [PULUMI_BIN]
"use strict";
const fs = require("fs");
const path = require("path");
const { execFileSync } = require("child_process");

// Cumulative share of each of these functions (matched as substrings of pprof's names).
const PARTS = [
  ["checkpoint", "backend.(*SnapshotManager).saveSnapshot"],
  ["serialize", "backend.(*SnapshotManager).Deployment"],
  ["integrity", "snapshot.VerifyIntegrity"],
  ["json", "encoding/json.(*Encoder).Encode"],
  ["md5", "crypto/md5.(*digest).Write"],
  ["backup", "diy.backupTarget"],
  ["gc", "runtime.gcBgMarkWorker"],
];

/** Seconds of a pprof duration: it scales each value to its own unit, minutes and hours included past 60 s. */
const UNIT_SECONDS = { ns: 1e-9, us: 1e-6, µs: 1e-6, ms: 1e-3, s: 1, mins: 60, hrs: 3600 };
function seconds(text) {
  const m = /^([\d.]+)(ns|us|µs|ms|s|mins|hrs)$/.exec(text);
  return m ? Number(m[1]) * UNIT_SECONDS[m[2]] : 0;
}

/** `{ total, parts: { name: share } }` of one profile. */
function summarize(file, bin) {
  const out = execFileSync("go", ["tool", "pprof", "-top", "-cum", "-nodecount=2000", bin, file], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
    maxBuffer: 64 * 1024 * 1024,
  });
  const total = seconds(/Total samples = (\S+)/.exec(out)?.[1] ?? "0s");
  const parts = {};
  for (const [name, fn] of PARTS) {
    const line = out.split("\n").find((l) => l.includes(fn));
    const cum = line ? seconds(line.trim().split(/\s+/)[3]) : 0;
    parts[name] = total > 0 ? cum / total : 0;
  }
  return { total, parts };
}

function report(dir, bin) {
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".cpu"))
    .sort();
  if (!files.length) return [];
  const lines = [`engine CPU (go tool pprof of the CLI): seconds sampled, then each part's share of them`];
  lines.push(["profile".padEnd(26), "cpu s".padEnd(7), ...PARTS.map(([name]) => name.padEnd(11))].join(" "));
  for (const f of files) {
    let s;
    try {
      s = summarize(path.join(dir, f), bin);
    } catch (err) {
      lines.push(`${f}: go tool pprof failed (${String(err.message).split("\n")[0]})`);
      continue;
    }
    const label = f.replace(/\.\d+\.cpu$/, "");
    lines.push(
      [
        label.padEnd(26),
        s.total.toFixed(1).padEnd(7),
        ...PARTS.map(([name]) => `${(s.parts[name] * 100).toFixed(0)} %`.padEnd(11)),
      ].join(" "),
    );
  }
  return lines;
}

if (require.main === module) {
  const [dir, bin] = process.argv.slice(2);
  const pulumi = bin ?? path.join(require("../../scripts/lib/engine.js").ensureEngine(), "pulumi");
  for (const l of report(dir, pulumi)) console.log(l);
}

module.exports = { report };
