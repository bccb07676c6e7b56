import * as pulumi from "@pulumi/pulumi";
import { NoCodeModule, NoCodeWorkspace } from "pulumi-workspaces";

const config = new pulumi.Config();
const registryModuleId = config.require("registryModuleId");
const project = config.require("project");
// The one knob of an upgrade: `pulumi config set moduleVersion 1.1.0 && pulumi up`.
const moduleVersion = config.get("moduleVersion") ?? "1.0.0";

// Enabling the module makes it usable for no-code provisioning at the pinned
// version. Variable options limit what a workspace may choose; a value outside
// them is refused by the service.
const bucketModule = new NoCodeModule("bucket", {
  registryModuleId,
  versionPin: moduleVersion,
  variableOptions: [
    { variableName: "region", variableType: "string", options: ["eu-west-1", "eu-central-1", "us-east-1"] },
    { variableName: "storage_class", variableType: "string", options: ["STANDARD", "INFREQUENT_ACCESS"] },
  ],
});

const teams = [
  { team: "analytics", region: "eu-west-1", storageClass: "STANDARD" },
  { team: "archive", region: "eu-central-1", storageClass: "INFREQUENT_ACCESS" },
];

const buckets = teams.map(
  ({ team, region, storageClass }) =>
    new NoCodeWorkspace(`${team}-bucket`, {
      noCodeModuleId: bucketModule.id,
      name: `${team}-bucket`,
      project,
      description: `object storage for ${team}`,
      // Taken from the module (not from `moduleVersion` directly) so that the module
      // is re-pinned first; the workspace then upgrades in place through the
      // service's plan-then-confirm flow, keeping its id and its state.
      moduleVersion: bucketModule.versionPin,
      variables: [
        { key: "region", value: region, category: "engine" },
        { key: "storage_class", value: storageClass, category: "engine" },
        { key: "bucket_name", value: `${team}-data`, category: "engine" },
      ],
    }),
);

export const noCodeModuleId = bucketModule.id;
export const pinnedVersion = bucketModule.versionPin;
export const workspaces = Object.fromEntries(
  buckets.map((b, i) => [
    teams[i].team,
    {
      id: b.id,
      moduleVersion: b.moduleVersion,
      upgradeAvailable: b.noCodeUpgradeAvailable,
      lastUpgrade: b.lastUpgrade,
    },
  ]),
);
