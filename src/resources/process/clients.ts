/**
 * The clients the providers use: one per service address and token in the provider
 * process, built from the settings in force at call time. Process-wide, so that the
 * resources of a stack share pacing, connections and the organization's listing.
 */
import { WorkspacesClient } from "../../client";
import { currentSettings } from "../provider-settings";
import { noteWrite } from "./snapshot";
import { notePolicyWrite } from "./policy-set-reads";

const clients = new Map<string, WorkspacesClient>();

/** One client per service address and token in this process (they share pacing and connections). */
export function getClient(): WorkspacesClient {
  const settings = currentSettings();
  const key = `${settings.baseUrl}\u0000${settings.token}`;
  let client = clients.get(key);
  if (!client) {
    // A write drops what the process's listings and reads hold of the records it may change.
    const made: WorkspacesClient = new WorkspacesClient({
      settings,
      onWrite: (m, p) => {
        noteWrite(made, m, p);
        notePolicyWrite(made, m, p);
      },
    });
    client = made;
    clients.set(key, client);
  }
  return client;
}

/** Forgets the cached clients (tests that restart servers). */
export function resetClients(): void {
  clients.clear();
}
