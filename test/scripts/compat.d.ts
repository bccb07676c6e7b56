// The types of the go-tfe compatibility run's plain CommonJS modules (scripts/compat/*.js),
// as test/scripts/compat-leaves.test.ts imports them. TypeScript checks no JavaScript here
// (no allowJs), so these declarations say what the modules export; the patterns match the
// test's relative imports.

declare module "*/scripts/compat/leaves.js" {
  type Status = "PASS" | "FAIL" | "SKIP";

  /** The expected leaves of one test function: those that pass, those that fail (each with its reason in SPEC_DIFFERENCES), those go-tfe skips. */
  interface PinEntry {
    pass: string[];
    fail: string[];
    skipped: string[];
  }

  /** One test function's process: its name, `go test -v` output, exit code and signal. */
  interface Run {
    test: string;
    out: string;
    code: number | null;
    signal: string | null;
  }

  /** Reasons by leaf: a key names a leaf exactly, or ends in "/" and names every leaf under it. */
  type ReasonTable = Record<string, string>;

  interface Tables {
    outOfScope: ReasonTable;
    specDifferences: ReasonTable;
  }

  interface LeafReason {
    leaf: string;
    reason: string;
  }

  /** What countRun makes of one run. */
  interface RunRecord {
    test: string;
    pass: number;
    excluded: number;
    skipped: number;
    failed: LeafReason[];
    bySpec: LeafReason[];
    stale: string[];
    unexpected: { leaf: string; status: Status | undefined }[];
    crashed: boolean;
  }

  /** A setting's figures, and whether every expectation held. */
  interface Judgement {
    name: string;
    pass: number;
    fail: number;
    bySpec: number;
    excluded: number;
    skipped: number;
    stale: string[];
    crashed: string[];
    failing: string[];
    unexpected: string[];
    good: boolean;
  }

  export function parseResults(output: string): { results: Map<string, Status>; leaves: string[] };
  export function failureReason(output: string, leaf: string): string;
  export function reasonFor(table: ReasonTable, leaf: string): string | undefined;
  export function pinEntry(output: string, tables: Tables): PinEntry;
  export function countRun(run: Run, pinned: PinEntry | undefined, tables: Tables): RunRecord;
  export function judge(name: string, records: RunRecord[]): Judgement;
  export function testFunctions(goSource: string): string[];
}

declare module "*/scripts/compat/scope.js" {
  /** A setting of the run: the environment go-tfe gets, and the test functions it runs. */
  interface Setting {
    env: Record<string, string>;
    selfManaged: boolean;
    tests: string[];
  }

  export const SETTINGS: Record<string, Setting>;
  /** Leaves not counted, with the reason (a key ending in "/" names every leaf under it). */
  export const OUT_OF_SCOPE: Record<string, string>;
  /** Leaves whose expectation contradicts the spec, with the reason. */
  export const SPEC_DIFFERENCES: Record<string, string>;
  /** go-tfe's test files whose functions are run or listed in NOT_RUN. */
  export const TEST_FILES: string[];
  /** Test functions of TEST_FILES that are not run, with the reason. */
  export const NOT_RUN: Record<string, string>;
}
