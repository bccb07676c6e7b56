/**
 * Read-modify-write of one record, one at a time per provider process. Where the service
 * only replaces a whole list (an agent pool's allowed workspaces), two resources that each
 * add their own items to it would lose each other's if their reads and writes interleaved:
 * the engine runs a deployment's resources in parallel in one provider process, so each
 * takes its turn on the record here.
 */

/** By record, the end of the last turn taken (settled either way). */
const turns = new Map<string, Promise<unknown>>();

/** Runs `fn` once every earlier turn on `record` in this process has ended, and returns its result. */
export function inTurn<T>(record: string, fn: () => Promise<T>): Promise<T> {
  const before = turns.get(record) ?? Promise.resolve();
  const mine = before.then(fn, fn);
  const settled = mine.then(
    () => undefined,
    () => undefined,
  );
  turns.set(record, settled);
  void settled.then(() => {
    if (turns.get(record) === settled) turns.delete(record);
  });
  return mine;
}
