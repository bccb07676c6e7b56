// Entry point the engine runs for `pulumi preview --policy-pack <this folder>`.
// Constructing the pack starts the analyzer server, so tests import ./rules instead.
import { PolicyPack } from "@pulumi/policy";
import { policies } from "./rules";

new PolicyPack("pulumi-workspaces", {
  description:
    "Tag, execution-mode, naming, safety, variable, ownership, policy-set, team-member and token rules for pulumi-workspaces resources, of TypeScript programs and of the provider plugin alike.",
  enforcementLevel: "advisory",
  policies,
});
