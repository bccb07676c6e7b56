#!/usr/bin/env node
/**
 * `pulumi-resource-workspaces`: the provider plugin the engine starts for programs that use
 * the `workspaces` package (YAML, Python, Go, C#) and for `pulumi import`. It serves the
 * provider of ./provider.ts with the server of `@pulumi/pulumi/provider`, adjusted by
 * ./shims.ts.
 */
import { main } from "@pulumi/pulumi/provider";
import { configuredSettings } from "../resources/provider-settings";
import { lookupSettingsFrom } from "../resources/lookups";
import { reportToEngine } from "../resources/process/engine-status";
import { checkConfig, configure, recordReadInputs, schema, workspacesProvider } from "./provider";
import { emptyStructsForImportReads, passReadInputs, serveProviderConfig } from "./shims";

emptyStructsForImportReads();
serveProviderConfig({ checkConfig, configure });
passReadInputs(recordReadInputs);
lookupSettingsFrom(configuredSettings);
reportToEngine();
void main(workspacesProvider(schema.version), process.argv.slice(2));
