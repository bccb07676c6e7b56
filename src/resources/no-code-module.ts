/**
 * `NoCodeModule`: a private registry module enabled for no-code provisioning
 * (spec 2.7, 2.8, 4.12 to 4.14).
 *
 * The service has no endpoint that deletes a no-code module: deleting this
 * resource disables the module (`enabled: false`), which stops new workspaces
 * from being created from it; the record itself stays.
 */
import * as pulumi from "@pulumi/pulumi";
import { typeTokens as TOKENS } from "./tokens";
import { adoptOptions, withOutputs, dynamicProps, quietStacks } from "./base";

/** Allowed values of one module variable. */
export interface VariableOptionsArgs {
  /** Name of a variable of the module. Unique within the module's option sets. */
  variableName: pulumi.Input<string>;
  /** Any data type the engine supports, e.g. `string`, `number`. */
  variableType: pulumi.Input<string>;
  /** The allowed values (order is kept but not significant for changes). */
  options: pulumi.Input<pulumi.Input<unknown>[]>;
}

/** Inputs of a {@link NoCodeModule}. */
export interface NoCodeModuleArgs {
  /**
   * Organization whose private registry holds the module. Defaults to the stack
   * config `workspaces:organization`, then `WORKSPACES_ORGANIZATION` / `TFE_ORGANIZATION`.
   * A change replaces the resource.
   */
  organization?: pulumi.Input<string>;
  /** Registry module id (`mod-...`). A change switches the module in place. */
  registryModuleId: pulumi.Input<string>;
  /** Module version used by no-code workflows. Default: the module's latest version. */
  versionPin?: pulumi.Input<string>;
  /**
   * Whether workspaces may be created from the module. Default true here (the API
   * default is false): declaring the resource means wanting the module usable.
   */
  enabled?: pulumi.Input<boolean>;
  /**
   * Allowed values per variable, matched to the service's sets by variable name.
   * Omitted: option sets are not managed. A set dropped from this list stays on the
   * service (it has no endpoint that removes one); empty its `options` instead.
   */
  variableOptions?: pulumi.Input<pulumi.Input<VariableOptionsArgs>[]>;
  /**
   * Take over the no-code settings of `registryModuleId` if the module already has some:
   * `create` then reads them and changes only what this program declares differently
   * (one update, or none when everything matches), and from then on the stack owns them.
   * `pulumi preview` says whether such a resource adopts a module and which properties
   * change. Without it, a module that already has no-code settings makes the create fail
   * with an error that names them. Default false; no effect once the resource is in the stack.
   */
  adopt?: pulumi.Input<boolean>;
}

/** An option set of a no-code module as the service reports it. */
export interface VariableOptionsOutput {
  /** Option set id (`ncvo-...`). */
  id: string;
  /** Module variable the options apply to. */
  variableName: string;
  /** Type of that variable. */
  variableType: string;
  /** The values users may choose from. */
  options: unknown[];
}

export const NO_CODE_MODULE_OUTPUTS = [
  "organization",
  "registryModuleId",
  "versionPin",
  "enabled",
  "variableOptions",
  "selfLink",
] as const;

/** A registry module enabled for no-code provisioning, with its variable options. A change of `organization` replaces it; delete disables it (the service has no delete). */
export class NoCodeModule extends pulumi.CustomResource {
  static readonly __pulumiType = TOKENS.NoCodeModule;

  /** Adopts an existing no-code module by id (`nocode-...`). */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): NoCodeModule {
    return new NoCodeModule(name, undefined as unknown as NoCodeModuleArgs, adoptOptions(id, opts));
  }

  static isInstance(obj: unknown): obj is NoCodeModule {
    return pulumi.Resource.isInstance(obj) && (obj as { __pulumiType?: string }).__pulumiType === TOKENS.NoCodeModule;
  }

  /** Organization holding the module; absent when the service's answer names none and the inputs gave none. */
  declare readonly organization: pulumi.Output<string | null>;
  /** Registry module (`mod-...`) it is made from; absent when the service's answer names none. */
  declare readonly registryModuleId: pulumi.Output<string | null>;
  /** Module version no-code workspaces are provisioned from. */
  declare readonly versionPin: pulumi.Output<string>;
  /** Whether workspaces may be created from it. */
  declare readonly enabled: pulumi.Output<boolean>;
  /** Its option sets, with their ids. */
  declare readonly variableOptions: pulumi.Output<VariableOptionsOutput[]>;
  /** API path of the no-code module; absent when the service's answer has no link. */
  declare readonly selfLink: pulumi.Output<string | null>;

  /** Declares a no-code module; `name` is the Pulumi resource name. */
  constructor(name: string, args: NoCodeModuleArgs, opts?: pulumi.CustomResourceOptions) {
    const limit = quietStacks();
    try {
      super(
        TOKENS.NoCodeModule,
        name,
        dynamicProps(
          "NoCodeModule",
          name,
          withOutputs(args as unknown as Record<string, unknown>, NO_CODE_MODULE_OUTPUTS),
        ),
        opts,
      );
    } finally {
      Error.stackTraceLimit = limit;
    }
  }
}
