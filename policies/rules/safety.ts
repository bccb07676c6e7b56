import type { ResourceValidationPolicy } from "@pulumi/policy";
import { Workspace, WorkspaceSettings, isOfType, show, subject, validateKnownProps, workspaceKinds } from "./common";

export const forceDelete: ResourceValidationPolicy = {
  name: "workspace-force-delete",
  description:
    "forceDelete: true deletes a workspace even while it still manages resources, which are then left without state.",
  enforcementLevel: "advisory",
  configSchema: { properties: {} },
  validateResource: validateKnownProps(workspaceKinds, (props, args, reportViolation) => {
    if (props.forceDelete !== true) return;
    reportViolation(
      `${subject(args)}: forceDelete ${show(true)} deletes the workspace even while it manages resources, leaving them without state. ` +
        `Fix: remove forceDelete so deletion is refused while resources remain, and set it only for the run that must delete anyway.`,
    );
  }),
};

export const globalRemoteState: ResourceValidationPolicy = {
  name: "workspace-global-remote-state",
  description:
    "globalRemoteState: true (of a Workspace, or declared by a WorkspaceSettings) lets every workspace of the organization read this workspace's state.",
  enforcementLevel: "advisory",
  configSchema: { properties: {} },
  validateResource: validateKnownProps([Workspace, WorkspaceSettings], (props, args, reportViolation) => {
    if (props.globalRemoteState !== true) return;
    const readers = isOfType(args, WorkspaceSettings)
      ? "in its remoteStateConsumerIds"
      : "in a RemoteStateConsumers resource";
    reportViolation(
      `${subject(args)}: globalRemoteState ${show(true)} lets every workspace of the organization read its state. ` +
        `Fix: set globalRemoteState false and name the readers ${readers}.`,
    );
  }),
};
