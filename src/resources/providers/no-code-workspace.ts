/**
 * Provider of `NoCodeWorkspace` (spec 4.15, 4.16). Version and variable changes are
 * in-place upgrades through the plan-then-confirm flow, and the workspace keeps its id;
 * with `upgradeStrategy: "replace"` they replace the workspace instead.
 */
import type { Workspace as ApiWorkspace } from "../../client";
import { getClient, readWorkspaceShared } from "./client";
import { ProviderError, explainingMissingFeatures } from "./user-errors";
import { diffFields } from "./compare";
import { keepUnreadableCreate, recoverLostCreate } from "./lost-create";
import { unlessGone, workspaceLabel } from "./gone";
import { deleteWorkspace } from "./deletion";
import { refusedUpdate } from "./workspace";
import type { ProviderImpl, Props } from "./types";
import { checkNoCodeWorkspace } from "./no-code-check";
import {
  FIELDS,
  UPGRADE_INPUTS,
  createOptions,
  outputsOf,
  settingsPatch,
  strategyOf,
  type NoCodeWorkspaceInputs,
  type NoCodeWorkspaceOutputs,
} from "./no-code-fields";
import { mayDeleteFirst, modulePin, provisionRefusals, stated, versionOf } from "./no-code-provision";
import { upgrade } from "./no-code-upgrade";
import { recordedVariables } from "./no-code-variables";

export const noCodeWorkspaceProvider: ProviderImpl<NoCodeWorkspaceInputs & Props, NoCodeWorkspaceOutputs> =
  explainingMissingFeatures(
    {
      async check(olds, news) {
        return checkNoCodeWorkspace(news, olds);
      },

      async diff(_id, olds, news) {
        const { changed, replaces } = diffFields(olds, news, FIELDS);
        // Replace-style upgrades: a new workspace instead of an upgrade run.
        if (strategyOf(news) === "replace")
          for (const k of UPGRADE_INPUTS) if (changed.includes(k) && !replaces.includes(k)) replaces.push(k);
        if (replaces.length === 0) return { changes: changed.length > 0, replaces, deleteBeforeReplace: false };
        // Delete first only when the new workspace would be accepted (see mayDeleteFirst).
        return { changes: true, replaces, deleteBeforeReplace: await mayDeleteFirst(getClient, olds, news) };
      },

      async create(inputs) {
        const client = getClient();
        const moduleId = String(inputs.noCodeModuleId);
        const { pin, organization } = await modulePin(client, moduleId);
        const [refused] = provisionRefusals(moduleId, { pin, organization }, inputs);
        if (refused) throw new ProviderError(refused);
        const started = Date.now();
        const name = String(inputs.name);
        const outs = (ws: ApiWorkspace) =>
          outputsOf(ws, inputs, { moduleVersion: stated(ws) ?? pin ?? inputs.moduleVersion ?? null, organization });
        const ws = await client.noCode
          .createWorkspace(moduleId, createOptions(inputs))
          .catch((err) =>
            recoverLostCreate(
              err,
              async () => {
                if (!organization) throw err;
                return client.workspaces.readByName(organization, name);
              },
              started,
            ),
          )
          // Acknowledged but unreadable, and not found again: kept in the stack when its id is known.
          .catch((err) => keepUnreadableCreate(err, { name, organization: organization ?? inputs.organization }, outs));
        return { id: ws.id, outs: outs(ws) };
      },

      async read(id, props) {
        const client = getClient();
        const record = {
          label: workspaceLabel(id, props.name),
          organization: props.organization,
          kind: "workspace" as const,
        };
        const ws = await unlessGone(
          client,
          record,
          "refresh",
          () => readWorkspaceShared(client, id, props.organization, props.project),
          () => undefined,
        );
        if (!ws) return {};
        const stamped = ws.attributes["no-code-module-id"];
        const moduleId = props.noCodeModuleId ?? (typeof stamped === "string" ? stamped : undefined);
        // One request when the service states the version; the module's pin otherwise.
        const { pin, organization } = moduleId && stated(ws) === undefined ? await modulePin(client, moduleId) : {};
        const inputs = { ...props, noCodeModuleId: moduleId, variables: recordedVariables(props) };
        return {
          id: ws.id,
          props: outputsOf(ws, inputs, {
            moduleVersion: versionOf(ws, pin, props.moduleVersion),
            lastUpgrade: props.lastUpgrade,
            organization,
          }),
        };
      },

      async update(id, olds, news) {
        const client = getClient();
        const { changed } = diffFields(olds, news, FIELDS);
        const set = new Set(changed);
        const moduleId = String(news.noCodeModuleId);
        let lastUpgrade = olds.lastUpgrade ?? null;
        let moduleVersion: string | null = olds.moduleVersion ?? null;

        if (set.has("moduleVersion") || set.has("variables")) {
          const { pin } = await modulePin(client, moduleId);
          if (news.moduleVersion !== undefined && pin !== undefined && pin !== news.moduleVersion) {
            throw new ProviderError(
              `cannot upgrade workspace ${id} to ${news.moduleVersion}: no-code module ${moduleId} provisions version ${pin}. ` +
                `Set the module's versionPin to ${news.moduleVersion} first.`,
            );
          }
          lastUpgrade = await upgrade(client, moduleId, id, news);
          moduleVersion = pin ?? news.moduleVersion ?? null;
        }

        const patch = settingsPatch(news, set);
        const record = {
          label: workspaceLabel(id, olds.name),
          organization: olds.organization,
          kind: "workspace" as const,
        };
        const ws = Object.keys(patch).length
          ? await client.workspaces
              .update(id, patch)
              .catch(async (err) => Promise.reject(await refusedUpdate(client, record, id, err)))
          : await client.workspaces.read(id);
        return {
          outs: outputsOf(ws, news, {
            moduleVersion: stated(ws) ?? moduleVersion,
            lastUpgrade,
            organization: olds.organization,
          }),
        };
      },

      async delete(id, props) {
        // A replacement reaches here only when diff found the new workspace acceptable (mayDeleteFirst).
        await deleteWorkspace(getClient(), id, {
          force: Boolean(props.forceDelete),
          name: props.name,
          organization: props.organization,
        });
      },

      inputShape(name, value, outputs) {
        // Sensitive values are kept apart (a secret output); the input holds them in place.
        return name === "variables" ? recordedVariables(outputs) : value;
      },
    },
    "no-code workspace",
  );
