// The organisation's pack is the published one: loading it registers its rules with the engine.
require("pulumi-workspaces-policies/pack");
