// CPU seconds per process of one engine run, read from /proc (Linux): the engine,
// the language host, the program, the dynamic provider host. A sampler walks the
// process tree under the CLI's pid every `intervalMs` and keeps each process's
// last user+system time, so a process's figure misses at most its last interval.
// Elsewhere than Linux it reports nothing.
"use strict";
const fs = require("fs");

const TICK = 100; // USER_HZ on Linux

function readStat(pid) {
  try {
    const s = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const close = s.lastIndexOf(")");
    const f = s.slice(close + 2).split(" ");
    // fields after the command: state(0) ppid(1) ... utime(11) stime(12)
    return { ppid: Number(f[1]), cpu: (Number(f[11]) + Number(f[12])) / TICK };
  } catch {
    return undefined;
  }
}

function cmdline(pid) {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
  } catch {
    return [];
  }
}

/** Which part of the engine run a process is, from its command line. */
function classify(argv) {
  const joined = argv.join(" ");
  if (/dynamic-provider|pulumi-resource-pulumi-nodejs/.test(joined)) return "provider";
  if (/pulumi-language-nodejs/.test(argv[0] ?? "")) return "language host";
  if (/@pulumi[/\\]pulumi[/\\]cmd[/\\]run|run-plugin|cmd\/run/.test(joined)) return "program";
  if (/(^|\/)pulumi$/.test(argv[0] ?? "")) return "engine";
  if (/(^|\/)node$/.test(argv[0] ?? "")) return "program";
  return "other";
}

/** Starts sampling the processes under `rootPid` (not itself); `stop()` returns CPU seconds per part. */
function sampleTree(rootPid, intervalMs = 100) {
  if (process.platform !== "linux") return { stop: () => ({}) };
  const seen = new Map(); // pid -> { part, cpu }
  const tick = () => {
    let pids;
    try {
      pids = fs
        .readdirSync("/proc")
        .filter((d) => /^\d+$/.test(d))
        .map(Number);
    } catch {
      return;
    }
    const stats = new Map();
    for (const pid of pids) {
      const st = readStat(pid);
      if (st) stats.set(pid, st);
    }
    const inTree = (pid) => {
      for (let p = pid, hops = 0; p > 1 && hops < 20; hops++) {
        if (p === rootPid) return true;
        p = stats.get(p)?.ppid ?? 0;
      }
      return false;
    };
    for (const [pid, st] of stats) {
      if (pid === rootPid || !inTree(pid)) continue;
      // Read each time: a plugin is forked from the engine and only then execs, so its
      // first command line can still be the engine's.
      const argv = cmdline(pid);
      const prev = seen.get(pid);
      seen.set(pid, {
        part: argv.length ? classify(argv) : (prev?.part ?? "other"),
        cpu: st.cpu,
        argv: argv.length ? argv : prev?.argv,
      });
    }
  };
  tick();
  const timer = setInterval(tick, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      tick();
      const parts = {};
      for (const [pid, { part, cpu, argv }] of seen) {
        parts[part] = (parts[part] ?? 0) + cpu;
        if (process.env.BENCH_CPU_DEBUG)
          console.error(`[cpu] ${pid} ${part} ${cpu.toFixed(2)}s ${(argv ?? []).join(" ").slice(0, 160)}`);
      }
      return parts;
    },
  };
}

module.exports = { sampleTree };
