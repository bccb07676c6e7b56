/**
 * The `NoCodeWorkspace` resource's side of the workspace field table
 * (src/api/workspace-fields.ts): the lines marked `noCode`, the workspace settings it
 * offers and the values it reports. Loaded by both the resource class and the provider,
 * so it imports nothing at run time but the table.
 */
import { noCodeLines, type NoCodeLineName } from "../api/workspace-fields";

/** Names of the workspace settings a no-code workspace offers as inputs. */
export type NoCodeSettingName = NoCodeLineName<"setting">;
/** Names of the table's values a no-code workspace reports beside its settings. */
export type NoCodeReportedName = NoCodeLineName<"reported">;

/** The workspace settings a no-code workspace offers as inputs, sent on create and update (table order). */
export const NO_CODE_SETTINGS: readonly NoCodeSettingName[] = noCodeLines("setting");

/** The table's lines a no-code workspace reports beside its settings (table order). */
export const NO_CODE_REPORTED: readonly NoCodeReportedName[] = noCodeLines("reported");
