import type { Domain } from "./context";
import { organizationDomain } from "./organization";
import { projectDomain } from "./project";
import { workspaceDomain } from "./workspace";
import { runDomain } from "./run";
import { pingDomain } from "./ping";
import { registryDomain } from "./registry";
import { nocodeDomain } from "./nocode";

/** Every domain of the service, in the order their schemas are created and routes registered. */
export const DOMAINS: ReadonlyArray<Domain> = [
  pingDomain,
  organizationDomain,
  projectDomain,
  workspaceDomain,
  runDomain,
  registryDomain,
  nocodeDomain,
];
